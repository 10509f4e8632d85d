// SPDX-License-Identifier: GPL-2.0
/*
 * klp-convert - turn references to non-exported vmlinux symbols in a
 * kernel module into livepatch relocations.
 *
 * What: foliotune.ko calls a few vmlinux functions and reads a few vmlinux
 * variables that are not exported.  The module loader cannot resolve those
 * undefined symbols, but it can apply "livepatch relocations": a relocation
 * section named .klp.rela.vmlinux.<section> (flag SHF_RELA_LIVEPATCH) whose
 * symbols are named .klp.sym.vmlinux.<name>,<sympos> (st_shndx
 * SHN_LIVEPATCH).  load_module() -> apply_relocations() ->
 * klp_apply_section_relocs() looks each one up in kallsyms and writes it
 * like any other relocation, before the module's code can run.
 *
 * Why: the obvious alternative, looking the address up at run time
 * (kallsyms_lookup_name() or a kprobe) and calling through a function
 * pointer, does not work on this kernel: with CONFIG_X86_KERNEL_IBT every
 * function that is never called indirectly in vmlinux has its ENDBR
 * "sealed" (overwritten) at boot, so an indirect call to it raises #CP.  A
 * relocation gives a direct call (and plain data access), which IBT allows.
 *
 * Format reference: Documentation/livepatch/module-elf-format.rst, and the
 * code that consumes it: kernel/livepatch/core.c (klp_resolve_symbols,
 * klp_find_object_symbol, klp_write_section_relocs), kernel/module/main.c
 * (simplify_symbols, apply_relocations) and arch/x86/kernel/module.c
 * (__write_relocate_add).
 *
 * Usage:
 *   klp-convert --list LIST --kallsyms KALLSYMS --symvers SYMVERS
 *               [--symvers MORE ...] [--verbose] IN.ko OUT.ko
 *   klp-convert --list LIST --kallsyms KALLSYMS [--symvers SYMVERS ...]
 *               --write-symvers FILE
 *
 * LIST names the only vmlinux symbols the module may reach this way: one
 * "name [sympos] [address] [replaced]" per line, '#' starts a comment;
 * "address" says the module takes that function's address on purpose and
 * never calls through it (allowed under IBT, see below); "replaced" marks a
 * function the livepatch replaces (see the clone check).  KALLSYMS is a
 * copy of the target kernel's /proc/kallsyms.  SYMVERS is the build's
 * Module.symvers (the exported symbols).  --write-symvers writes a symvers
 * file naming every listed symbol, for modpost (KBUILD_EXTRA_SYMBOLS), so
 * that modpost accepts those and still rejects any other undefined symbol.
 * Do not pass that private file back as --symvers.
 *
 * What it does to IN.ko, writing OUT.ko (IN is not modified):
 *  - checks LIST against KALLSYMS (present; sympos needed and in range for
 *    duplicated names; no compiler clone such as name.isra.0 beside a
 *    "replaced" function: callers of the clone would bypass the patch) and
 *    SYMVERS (not exported), and that every undefined
 *    symbol of the module is exported or listed (modpost's check, which the
 *    private symvers switched off for the listed ones);
 *  - renames each listed undefined symbol in place (same index) to
 *    .klp.sym.vmlinux.NAME,POS with st_shndx SHN_LIVEPATCH;
 *  - moves every relocation against one from .rela.X to a new
 *    .klp.rela.vmlinux.X (refusing special sections and relocation types
 *    the x86 loader does not apply; those in non-loaded sections such as
 *    debug info stay where they are, the loader never applies them);
 *  - drops their (CRC 0) entries from __versions;
 *  - writes OUT next to its final name, re-reads and checks it, renames.
 * It fails when a listed function's address is taken (anything but a
 * direct call) unless LIST marks it "address": calling through that
 * pointer faults under IBT (Debian builds with it).
 *
 * Function or data is decided by where the symbol lies in vmlinux: a
 * function lies in its text, [_stext, _etext) or [_sinittext, _einittext),
 * which KALLSYMS names too; anything else is data.  Not by the kallsyms
 * type letter: that is nm's reading of the output section's flags, and
 * from Linux 7.3 x86 links kexec's relocate_kernel code ("ax") into
 * .data, which makes .data executable, so every .data symbol (init_mm,
 * fault_around_pages, ...) reads t/T there.  A KALLSYMS read without
 * privileges (all addresses 0) cannot tell: a listed symbol referenced by
 * anything but a direct call is then refused unless marked "address".
 *
 *   klp-convert --list LIST --kallsyms KALLSYMS --print-kinds
 * prints "NAME function|data|unknown" for each listed symbol (for the
 * tests that check the converted module's use of them).
 *
 * The conversion runs after modpost and the final link (on the .ko) and
 * before signing; a signed module is refused.  Running it on a module that
 * already has livepatch symbols or sections fails: every run must start
 * from a fresh link.  Exit status: 0 on success, 1 on any error (all
 * problems are printed first), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>

#include "klp-convert.h"

static void print_kinds(const struct klp_list *l)
{
	static const char *const kinds[] = {
		[KIND_UNKNOWN] = "unknown", [KIND_FUNC] = "function", [KIND_DATA] = "data",
	};
	size_t i;

	for (i = 0; i < l->nr; i++)
		printf("%s %s\n", l->syms[i].name, kinds[l->syms[i].kind]);
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s --list LIST --kallsyms KALLSYMS --symvers SYMVERS [--symvers MORE ...]\n"
		"                   [--verbose] IN.ko OUT.ko\n"
		"       %s --list LIST --kallsyms KALLSYMS [--symvers SYMVERS ...]\n"
		"                   --write-symvers FILE\n"
		"       %s --list LIST --kallsyms KALLSYMS --print-kinds\n",
		prog, prog, prog);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", required_argument, NULL, 'l' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "symvers", required_argument, NULL, 's' },
		{ "write-symvers", required_argument, NULL, 'w' },
		{ "print-kinds", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *list_path = NULL, *kallsyms = NULL, *out_symvers = NULL;
	const char **symvers = NULL;
	struct klp_list list = { 0 };
	size_t nr_symvers = 0, i;
	bool kinds = false;
	int c, ret = 1;

	symvers = calloc(argc, sizeof(*symvers));
	if (!symvers) {
		error("out of memory");
		return 1;
	}
	while ((c = getopt_long(argc, argv, "l:k:s:w:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			list_path = optarg;
			break;
		case 'k':
			kallsyms = optarg;
			break;
		case 's':
			symvers[nr_symvers++] = optarg;
			break;
		case 'w':
			out_symvers = optarg;
			break;
		case 'p':
			kinds = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			print_usage(stdout);
			ret = 0;
			goto out;
		default:
			print_usage(stderr);
			ret = 2;
			goto out;
		}
	}
	if (!list_path || !kallsyms || (kinds && out_symvers) ||
	    (out_symvers || kinds ? optind != argc : (optind + 2 != argc || !nr_symvers))) {
		print_usage(stderr);
		ret = 2;
		goto out;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		error("libelf: %s", elf_errmsg(-1));
		goto out;
	}

	/* Check the list first, and report every problem. */
	if (read_list(&list, list_path) || read_kallsyms(&list, kallsyms))
		goto out;
	for (i = 0; i < nr_symvers; i++)
		if (read_symvers(&list, symvers[i]))
			goto out;
	validate_list(&list);
	if (nr_errors)
		goto out;

	if (kinds) {
		print_kinds(&list);
		ret = 0;
	} else if (out_symvers) {
		ret = write_symvers(&list, out_symvers) ? 1 : 0;
	} else {
		ret = convert(&list, argv[optind], argv[optind + 1]) ? 1 : 0;
	}
out:
	if (ret == 1 && nr_errors)
		fprintf(stderr, "%s: %u error%s\n", prog, nr_errors, nr_errors == 1 ? "" : "s");
	list_free(&list);
	free(symvers);
	return ret;
}
