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
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* include/uapi/linux/elf.h */
#define SHN_LIVEPATCH		0xff20
#define SHF_RELA_LIVEPATCH	0x00100000

#define KLP_SYM_PREFIX		".klp.sym."
#define KLP_RELA_PREFIX		".klp.rela."
#define KLP_OBJNAME		"vmlinux"

/* include/linux/kallsyms.h; the kernel's sscanf() also caps at this. */
#define KSYM_NAME_LEN		512

/* struct modversion_info: unsigned long crc; char name[64 - 8]; */
#define MODVERSION_SIZE		64
#define MODVERSION_NAME_OFF	8

/* include/linux/module_signature.h */
#define MODULE_SIG_STRING	"~Module signature appended~\n"

#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

static const char *prog = "klp-convert";
static bool verbose;
static unsigned int nr_errors;

static void __printf(1, 2) error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	nr_errors++;
}

static void __printf(1, 2) warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void elf_error(const char *path, const char *what)
{
	error("%s: %s: %s", path, what, elf_errmsg(-1));
}

/*
 * Growable arrays and string tables.
 */
static int grow(void **arr, size_t *alloc, size_t need, size_t elsize)
{
	size_t n = *alloc ? *alloc : 16;
	void *p;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elsize);
	if (!p) {
		error("out of memory");
		return -1;
	}
	*arr = p;
	*alloc = n;
	return 0;
}

struct strtab {
	char *buf;
	size_t len;
	size_t alloc;
};

/* Append @s (NUL included); return its offset or -1. */
static long strtab_add(struct strtab *st, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t off = st->len;

	if (grow((void **)&st->buf, &st->alloc, st->len + n, 1))
		return -1;
	memcpy(st->buf + off, s, n);
	st->len += n;
	return off;
}

/*
 * A chained hash table of names; each entry carries a pointer.
 */
struct hnode {
	struct hnode *next;
	void *priv;
	char name[];
};

struct htab {
	struct hnode **buckets;
	size_t mask;
};

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static int htab_init(struct htab *h, unsigned int bits)
{
	h->buckets = calloc(1UL << bits, sizeof(*h->buckets));
	if (!h->buckets) {
		error("out of memory");
		return -1;
	}
	h->mask = (1UL << bits) - 1;
	return 0;
}

static struct hnode *htab_find(const struct htab *h, const char *name)
{
	struct hnode *n;

	if (!h->buckets)
		return NULL;
	for (n = h->buckets[hash_name(name) & h->mask]; n; n = n->next)
		if (!strcmp(n->name, name))
			return n;
	return NULL;
}

static struct hnode *htab_add(struct htab *h, const char *name, void *priv)
{
	size_t len = strlen(name) + 1;
	struct hnode *n = malloc(sizeof(*n) + len);
	uint32_t b = hash_name(name) & h->mask;

	if (!n) {
		error("out of memory");
		return NULL;
	}
	memcpy(n->name, name, len);
	n->priv = priv;
	n->next = h->buckets[b];
	h->buckets[b] = n;
	return n;
}

static void htab_free(struct htab *h)
{
	struct hnode *n, *next;
	size_t i;

	if (!h->buckets)
		return;
	for (i = 0; i <= h->mask; i++) {
		for (n = h->buckets[i]; n; n = next) {
			next = n->next;
			free(n);
		}
	}
	free(h->buckets);
	h->buckets = NULL;
}

/*
 * The inputs: LIST, KALLSYMS, SYMVERS.
 */

/* One symbol of LIST, with what KALLSYMS and SYMVERS say about it. */
struct klp_sym {
	const char *name;	/* the hash node's copy */
	unsigned long sympos;	/* from LIST; 0: must be unique */
	unsigned int line;	/* line in LIST */
	unsigned long count;	/* vmlinux symbols of this name in KALLSYMS */
	unsigned long long addr;	/* kallsyms address at the chosen position */
	enum { KIND_UNKNOWN, KIND_FUNC, KIND_DATA } kind;	/* from addr: see the top */
	unsigned long nr_relocs;	/* relocations moved for it */
	unsigned long nr_left;	/* relocations left in non-ALLOC sections */
	bool referenced;	/* an undefined symbol of the module */
	bool address_ok;	/* "address" in LIST: its address is taken on purpose */
	bool replaced;		/* "replaced" in LIST: the livepatch replaces it */
	char *clone;		/* a "name.isra.0"-like kallsyms symbol */
};

struct klp_list {
	struct klp_sym *syms;
	size_t nr;
	size_t alloc;
	struct htab names;	/* name -> index + 1 in syms[] */
	struct htab exports;	/* SYMVERS name -> NULL or the "crc 0" flag */
	bool have_addrs;	/* KALLSYMS shows addresses (read as root) */
	/* vmlinux text, [_stext, _etext) and [_sinittext, _einittext) */
	unsigned long long text[4];
};

/* The KALLSYMS names that bound vmlinux text, in text[] order. */
static const char *const text_bounds[] = { "_stext", "_etext", "_sinittext", "_einittext" };


static struct klp_sym *list_find(const struct klp_list *l, const char *name)
{
	struct hnode *n = htab_find(&l->names, name);

	return n ? &l->syms[(uintptr_t)n->priv - 1] : NULL;
}

static int read_list(struct klp_list *l, const char *path)
{
	unsigned int lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	int ret = -1;
	FILE *f;

	if (htab_init(&l->names, 10))
		return -1;
	f = fopen(path, "r");
	if (!f) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *save, *name, *pos, *end;
		unsigned long sympos = 0;
		bool address_ok = false, replaced = false;
		struct klp_sym *s;

		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		name = strtok_r(line, " \t\r", &save);
		if (!name)
			continue;
		pos = strtok_r(NULL, " \t\r", &save);
		if (pos && strcmp(pos, "address") && strcmp(pos, "replaced")) {
			errno = 0;
			sympos = strtoul(pos, &end, 10);
			if (errno || *end || *pos == '-') {
				error("%s:%u: bad sympos '%s' for %s", path, lineno, pos, name);
				continue;
			}
			pos = strtok_r(NULL, " \t\r", &save);
		}
		if (pos && !strcmp(pos, "address")) {
			address_ok = true;
			pos = strtok_r(NULL, " \t\r", &save);
		}
		if (pos && !strcmp(pos, "replaced")) {
			replaced = true;
			pos = strtok_r(NULL, " \t\r", &save);
		}
		if (pos) {
			error("%s:%u: expected 'name [sympos] [address] [replaced]'", path, lineno);
			continue;
		}
		if (strlen(name) >= KSYM_NAME_LEN || strchr(name, ',')) {
			error("%s:%u: invalid symbol name '%s'", path, lineno, name);
			continue;
		}
		s = list_find(l, name);
		if (s) {
			error("%s:%u: %s is already listed on line %u", path, lineno, name, s->line);
			continue;
		}
		if (grow((void **)&l->syms, &l->alloc, l->nr + 1, sizeof(*l->syms)))
			goto out;
		s = &l->syms[l->nr];
		memset(s, 0, sizeof(*s));
		s->sympos = sympos;
		s->address_ok = address_ok;
		s->replaced = replaced;
		s->line = lineno;
		l->nr++;
		if (!htab_add(&l->names, name, (void *)(uintptr_t)l->nr))
			goto out;
	}
	if (ferror(f)) {
		error("%s: read error", path);
		goto out;
	}
	ret = 0;
out:
	/* syms[] may have moved while growing: point names at the nodes now. */
	if (!ret) {
		size_t i;
		struct hnode *n;

		for (i = 0; i <= l->names.mask; i++)
			for (n = l->names.buckets[i]; n; n = n->next)
				l->syms[(uintptr_t)n->priv - 1].name = n->name;
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * Count the vmlinux symbols of each listed name, in file order.
 *
 * This is how the kernel counts: klp_find_object_symbol(NULL, ...) walks
 * kallsyms_on_each_match_symbol(), which visits the symbols of one name in
 * the order of kallsyms_seqs_of_names, i.e. by address and then by table
 * position (scripts/kallsyms.c compare_names) - the same order as the
 * vmlinux part of /proc/kallsyms.  Only symbols of that exact name are
 * counted; position 0 means "must be unique", position N means "the Nth
 * one" (N = 1 is also accepted for a unique name).  Module symbols (lines
 * ending in "\t[module]") are never searched for a vmlinux object.
 */
/*
 * Remember a compiler clone of a listed name (name.isra.0, .constprop.0,
 * .part.0): an error if the name itself is missing, or if the name is
 * "replaced" (the clone's callers would still run the old code).  A
 * name.cold is no clone: it holds the function's own cold blocks (GCC's
 * hot/cold splitting), which only the function jumps to, so the livepatched
 * entry never reaches it (make verify-kernel's binary check proves that of
 * the build's vmlinux).
 */
static void note_clone(struct klp_list *l, const char *name)
{
	const char *dot = strchr(name, '.');
	char base[KSYM_NAME_LEN];
	struct klp_sym *s;

	if (!dot || dot == name || dot - name >= KSYM_NAME_LEN)
		return;
	if (!strncmp(dot, ".cold", 5) && (!dot[5] || dot[5] == '.'))
		return;
	memcpy(base, name, dot - name);
	base[dot - name] = '\0';
	s = list_find(l, base);
	if (s && !s->clone)
		s->clone = strdup(name);
}

static int read_kallsyms(struct klp_list *l, const char *path)
{
	unsigned long long prev_addr = 0;
	unsigned long nr_vmlinux = 0;
	unsigned int lineno = 0;
	bool unordered = false;
	size_t i;
	char *line = NULL;
	size_t cap = 0;
	int ret = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		unsigned long long addr;
		char *p, *name;
		struct klp_sym *s;
		size_t len;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		errno = 0;
		addr = strtoull(line, &p, 16);
		if (errno || p == line || p[0] != ' ' || !p[1] || p[2] != ' ' || !p[3]) {
			error("%s:%u: malformed kallsyms line", path, lineno);
			goto out;
		}
		name = p + 3;
		len = strcspn(name, " \t");
		if (name[len]) {
			/* "ADDR TYPE NAME\t[module]": not vmlinux. */
			if (name[len + strspn(name + len, " \t")] == '[')
				continue;
			if (name[len + strspn(name + len, " \t")]) {
				error("%s:%u: malformed kallsyms line", path, lineno);
				goto out;
			}
			name[len] = '\0';
		}
		if (addr < prev_addr)
			unordered = true;
		prev_addr = addr;
		nr_vmlinux++;
		for (i = 0; i < ARRAY_SIZE(text_bounds); i++)
			if (!strcmp(name, text_bounds[i]) && !l->text[i])
				l->text[i] = addr;

		s = list_find(l, name);
		if (!s) {
			note_clone(l, name);
			continue;
		}
		s->count++;
		if (s->count == (s->sympos ? s->sympos : 1))
			s->addr = addr;
	}
	if (ferror(f)) {
		error("%s: read error", path);
		goto out;
	}
	if (!nr_vmlinux) {
		error("%s: no vmlinux symbols", path);
		goto out;
	}
	l->have_addrs = prev_addr != 0;
	if (l->have_addrs && (!l->text[0] || l->text[1] <= l->text[0])) {
		error("%s: no vmlinux text bounds (_stext, _etext): cannot tell functions from data",
		      path);
		goto out;
	}
	if (l->text[3] <= l->text[2])
		l->text[2] = l->text[3] = 0;	/* no init text named: none */
	for (i = 0; l->have_addrs && i < l->nr; i++) {
		struct klp_sym *s = &l->syms[i];

		if (!s->addr)
			continue;
		if ((s->addr >= l->text[0] && s->addr < l->text[1]) ||
		    (s->addr >= l->text[2] && s->addr < l->text[3]))
			s->kind = KIND_FUNC;
		else
			s->kind = KIND_DATA;
	}
	if (unordered)
		warn("%s: vmlinux symbols are not in address order; sympos assumes an unmodified copy of /proc/kallsyms",
		     path);
	ret = 0;
out:
	free(line);
	fclose(f);
	return ret;
}

/* Module.symvers: "CRC\tNAME\tMODULE\tEXPORT_TYPE\tNAMESPACE". */
static int read_symvers(struct klp_list *l, const char *path)
{
	unsigned int lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	int ret = -1;
	FILE *f;

	if (!l->exports.buckets && htab_init(&l->exports, 16))
		return -1;
	f = fopen(path, "r");
	if (!f) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *crc, *name, *mod, *p = line;
		bool zero_crc;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		crc = strsep(&p, "\t");
		name = strsep(&p, "\t");
		mod = strsep(&p, "\t");
		if (!name || !*name || !mod) {
			error("%s:%u: malformed symvers line", path, lineno);
			goto out;
		}
		if (htab_find(&l->exports, name))
			continue;
		zero_crc = strtoul(crc, NULL, 16) == 0;
		if (!htab_add(&l->exports, name, (void *)(uintptr_t)zero_crc))
			goto out;
	}
	if (ferror(f)) {
		error("%s: read error", path);
		goto out;
	}
	ret = 0;
out:
	free(line);
	fclose(f);
	return ret;
}

/* Check every listed symbol against KALLSYMS and SYMVERS. */
static void validate_list(const struct klp_list *l)
{
	struct hnode *exp;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct klp_sym *s = &l->syms[i];

		if (!s->count && s->clone)
			error("%s (list line %u): not found in kallsyms, only the compiler clone %s (different ABI: do not call it)",
			      s->name, s->line, s->clone);
		else if (!s->count)
			error("%s (list line %u): not found in kallsyms", s->name, s->line);
		else if (!s->sympos && s->count > 1)
			error("%s (list line %u): %lu vmlinux symbols of this name in kallsyms; give a sympos 1..%lu in the list",
			      s->name, s->line, s->count, s->count);
		else if (s->sympos > s->count)
			error("%s (list line %u): sympos %lu out of range, kallsyms has %lu symbol%s of this name",
			      s->name, s->line, s->sympos, s->count, s->count == 1 ? "" : "s");
		else if (l->have_addrs && !s->addr)
			error("%s (list line %u): address 0 in kallsyms; klp_find_object_symbol() takes that for 'not found'",
			      s->name, s->line);
		else if (s->replaced && s->clone)
			error("%s (list line %u): replaced by the livepatch, but kallsyms also has its compiler clone %s: its callers would bypass the patch",
			      s->name, s->line, s->clone);

		exp = htab_find(&l->exports, s->name);
		if (exp)
			error("%s (list line %u): exported (in symvers)%s; call it normally and drop it from the list",
			      s->name, s->line,
			      exp->priv ? " - was the private --write-symvers file passed as --symvers?" : "");
	}
}

static void list_free(struct klp_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->syms[i].clone);
	htab_free(&l->names);
	htab_free(&l->exports);
	free(l->syms);
}

/* --write-symvers: tell modpost that the listed symbols exist. */
static int write_symvers(const struct klp_list *l, const char *path)
{
	FILE *f;
	size_t i;

	f = fopen(path, "w");
	if (!f) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < l->nr; i++)
		fprintf(f, "0x00000000\t%s\tvmlinux\tEXPORT_SYMBOL_GPL\t\n", l->syms[i].name);
	if (fclose(f)) {
		error("%s: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

/*
 * The module.
 */

struct section {
	Elf_Scn *scn;
	Elf64_Shdr *shdr;	/* input header */
	const char *name;
	Elf_Data *data;		/* input contents */
	void *buf;		/* new contents (owned), or NULL: keep data */
	size_t size;
};

/* A new .klp.rela.vmlinux.<target> section. */
struct klp_relasec {
	size_t target;
	Elf64_Rela *relas;
	size_t nr;
	size_t alloc;
	size_t name;		/* offset in the new .shstrtab */
};

struct module {
	const char *path;
	int fd;
	Elf *elf;
	Elf64_Ehdr *ehdr;
	size_t shnum;
	size_t shstrndx;
	struct section *secs;
	size_t symtab;
	size_t nsyms;
	struct klp_sym **conv;		/* per symbol: listed, to convert */
	struct klp_relasec *klp;
	size_t nr_klp;
	size_t alloc_klp;
	size_t *klp_of;			/* per section: index + 1 in klp[] */
	unsigned long nr_moved;
	unsigned long nr_versions_dropped;
};

/*
 * Sections the loader (module_finalize(), the MODULE_STATE_COMING
 * notifiers, ftrace, the exception and bug tables, the unwinder) parses as
 * tables describing the module itself.  In 6.12 vmlinux klp relocations
 * are applied early, in apply_relocations(), so the kernel would even
 * process these - but an entry pointing into vmlinux is never legitimate:
 * jump_label_add_module() and static_call_add_module() would link (and
 * write to) a vmlinux static key or static call that was deliberately not
 * exported, the others would patch, unwind or trace vmlinux code as if it
 * were ours.  Refuse rather than guess.
 */
static const struct {
	const char *name;
	bool prefix;
	const char *what;
} special_sections[] = {
	{ ".altinstructions", false, "alternatives" },
	{ ".parainstructions", false, "paravirt patch sites" },
	{ ".smp_locks", false, "LOCK prefix sites" },
	{ ".retpoline_sites", false, "retpoline patch sites" },
	{ ".return_sites", false, "return thunk patch sites" },
	{ ".call_sites", false, "call depth tracking sites" },
	{ ".ibt_endbr_seal", false, "ENDBR seal sites" },
	{ ".cfi_sites", false, "CFI sites" },
	{ ".kcfi_traps", false, "kCFI traps" },
	{ ".orc_", true, "ORC unwind tables" },
	{ "__jump_table", false, "static keys (use an exported key)" },
	{ ".static_call_sites", false, "static calls (use an exported static call)" },
	{ ".static_call_tramp_key", false, "static call keys" },
	{ "__ex_table", false, "exception table" },
	{ "__bug_table", false, "BUG/WARN table" },
	{ "__mcount_loc", false, "ftrace call sites" },
	{ "__patchable_function_entries", false, "ftrace call sites" },
	{ "__ksymtab", true, "exports (a vmlinux symbol cannot be re-exported)" },
	{ "__kcrctab", true, "export CRCs" },
	{ ".gnu.linkonce.this_module", false, "struct module" },
	{ "__versions", false, "modversions" },
	{ ".modinfo", false, "modinfo" },
};

static const char *special_section(const char *name)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(special_sections); i++) {
		n = strlen(special_sections[i].name);
		if (special_sections[i].prefix ? !strncmp(name, special_sections[i].name, n)
					       : !strcmp(name, special_sections[i].name))
			return special_sections[i].what;
	}
	return NULL;
}

/* Relocation types arch/x86/kernel/module.c applies; size of the target. */
static int reloc_size(unsigned int type)
{
	switch (type) {
	case R_X86_64_64:
	case R_X86_64_PC64:
		return 8;
	case R_X86_64_32:
	case R_X86_64_32S:
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		return 4;
	default:
		return -1;
	}
}

static const char *reloc_name(unsigned int type)
{
	static char buf[32];

	switch (type) {
	case R_X86_64_NONE:		return "R_X86_64_NONE";
	case R_X86_64_64:		return "R_X86_64_64";
	case R_X86_64_PC32:		return "R_X86_64_PC32";
	case R_X86_64_GOT32:		return "R_X86_64_GOT32";
	case R_X86_64_PLT32:		return "R_X86_64_PLT32";
	case R_X86_64_32:		return "R_X86_64_32";
	case R_X86_64_32S:		return "R_X86_64_32S";
	case R_X86_64_PC64:		return "R_X86_64_PC64";
	case R_X86_64_GOTPCREL:		return "R_X86_64_GOTPCREL";
	case R_X86_64_GOTPCRELX:	return "R_X86_64_GOTPCRELX";
	case R_X86_64_REX_GOTPCRELX:	return "R_X86_64_REX_GOTPCRELX";
	}
	snprintf(buf, sizeof(buf), "type %u", type);
	return buf;
}

static const char *sym_name(const struct module *m, const Elf64_Sym *sym)
{
	const char *name = elf_strptr(m->elf, m->secs[m->symtab].shdr->sh_link, sym->st_name);

	return name ? name : "<bad name>";
}

static void module_close(struct module *m)
{
	size_t i;

	if (m->secs)
		for (i = 0; i < m->shnum; i++)
			free(m->secs[i].buf);
	for (i = 0; i < m->nr_klp; i++)
		free(m->klp[i].relas);
	free(m->klp);
	free(m->klp_of);
	free(m->conv);
	free(m->secs);
	if (m->elf)
		elf_end(m->elf);
	if (m->fd >= 0)
		close(m->fd);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}

/* A signed module carries its signature after the ELF image. */
static bool is_signed(int fd)
{
	char tail[sizeof(MODULE_SIG_STRING) - 1];
	struct stat st;

	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(tail))
		return false;
	if (pread(fd, tail, sizeof(tail), st.st_size - sizeof(tail)) != (ssize_t)sizeof(tail))
		return false;
	return !memcmp(tail, MODULE_SIG_STRING, sizeof(tail));
}

static int module_open(struct module *m, const char *path)
{
	Elf_Scn *scn = NULL;
	size_t i, nr_symtab = 0;

	memset(m, 0, sizeof(*m));
	m->path = path;
	m->fd = open(path, O_RDONLY);
	if (m->fd < 0) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	if (is_signed(m->fd)) {
		error("%s: module is signed; convert it before signing", path);
		goto err;
	}
	m->elf = elf_begin(m->fd, ELF_C_READ, NULL);
	if (!m->elf) {
		elf_error(path, "elf_begin");
		goto err;
	}
	m->ehdr = elf64_getehdr(m->elf);
	if (elf_kind(m->elf) != ELF_K_ELF || !m->ehdr ||
	    m->ehdr->e_ident[EI_CLASS] != ELFCLASS64 ||
	    m->ehdr->e_ident[EI_DATA] != ELFDATA2LSB ||
	    m->ehdr->e_machine != EM_X86_64 || m->ehdr->e_type != ET_REL ||
	    m->ehdr->e_phnum) {
		error("%s: not an x86-64 relocatable object (kernel module)", path);
		goto err;
	}
	if (elf_getshdrnum(m->elf, &m->shnum) || elf_getshdrstrndx(m->elf, &m->shstrndx)) {
		elf_error(path, "section headers");
		goto err;
	}
	if (m->shnum >= SHN_LORESERVE) {
		error("%s: too many sections", path);
		goto err;
	}
	m->secs = calloc(m->shnum, sizeof(*m->secs));
	m->klp_of = calloc(m->shnum, sizeof(*m->klp_of));
	if (!m->secs || !m->klp_of) {
		error("out of memory");
		goto err;
	}
	for (i = 1; i < m->shnum; i++) {
		struct section *sec = &m->secs[i];

		scn = elf_getscn(m->elf, i);
		sec->scn = scn;
		sec->shdr = scn ? elf64_getshdr(scn) : NULL;
		sec->name = sec->shdr ? elf_strptr(m->elf, m->shstrndx, sec->shdr->sh_name) : NULL;
		if (!sec->name) {
			elf_error(path, "section header");
			goto err;
		}
		sec->data = elf_getdata(scn, NULL);
		if (!sec->data || elf_getdata(scn, sec->data) ||
		    sec->data->d_size != sec->shdr->sh_size) {
			error("%s: cannot read section %s", path, sec->name);
			goto err;
		}
		if (sec->shdr->sh_type == SHT_SYMTAB) {
			m->symtab = i;
			nr_symtab++;
		}
		if (sec->shdr->sh_type == SHT_SYMTAB_SHNDX) {
			error("%s: extended section indices are not supported", path);
			goto err;
		}
	}
	if (nr_symtab != 1 || m->secs[m->symtab].shdr->sh_entsize != sizeof(Elf64_Sym) ||
	    m->secs[m->symtab].shdr->sh_link >= m->shnum) {
		error("%s: expected exactly one valid symbol table", path);
		goto err;
	}
	m->nsyms = m->secs[m->symtab].shdr->sh_size / sizeof(Elf64_Sym);
	return 0;
err:
	module_close(m);
	return -1;
}

/* A converted module must not be converted again. */
static int check_not_converted(struct module *m)
{
	const Elf64_Sym *syms = m->secs[m->symtab].data->d_buf;
	size_t i;

	for (i = 1; i < m->shnum; i++) {
		if ((m->secs[i].shdr->sh_flags & SHF_RELA_LIVEPATCH) ||
		    !strncmp(m->secs[i].name, KLP_RELA_PREFIX, strlen(KLP_RELA_PREFIX))) {
			error("%s: already converted (has section %s); convert the freshly linked module",
			      m->path, m->secs[i].name);
			return -1;
		}
	}
	for (i = 1; i < m->nsyms; i++) {
		if (syms[i].st_shndx == SHN_LIVEPATCH ||
		    !strncmp(sym_name(m, &syms[i]), KLP_SYM_PREFIX, strlen(KLP_SYM_PREFIX))) {
			error("%s: already converted (has symbol %s); convert the freshly linked module",
			      m->path, sym_name(m, &syms[i]));
			return -1;
		}
	}
	return 0;
}

/*
 * Choose the symbols to convert (the listed undefined ones), and check that
 * every other undefined symbol is exported (SYMVERS), as modpost would have
 * insisted had it not been given the private symvers.  Unresolved weak
 * symbols stay legal, as for modpost and the loader.
 */
static int classify_symbols(struct module *m, struct klp_list *l)
{
	const Elf64_Sym *syms = m->secs[m->symtab].data->d_buf;
	size_t i;

	m->conv = calloc(m->nsyms, sizeof(*m->conv));
	if (!m->conv) {
		error("out of memory");
		return -1;
	}
	for (i = 1; i < m->nsyms; i++) {
		const char *name = sym_name(m, &syms[i]);
		struct klp_sym *s;

		if (syms[i].st_shndx != SHN_UNDEF || !*name)
			continue;
		s = list_find(l, name);
		if (s && i < m->secs[m->symtab].shdr->sh_info) {
			error("%s: undefined symbol %s is local", m->path, name);
		} else if (s) {
			m->conv[i] = s;
			s->referenced = true;
		} else if (!htab_find(&l->exports, name) &&
			   ELF64_ST_BIND(syms[i].st_info) != STB_WEAK) {
			error("%s: undefined symbol %s is neither exported (symvers) nor listed",
			      m->path, name);
		}
	}
	return 0;
}

static struct klp_relasec *klp_relasec_get(struct module *m, size_t target)
{
	struct klp_relasec *k;

	if (m->klp_of[target])
		return &m->klp[m->klp_of[target] - 1];
	if (grow((void **)&m->klp, &m->alloc_klp, m->nr_klp + 1, sizeof(*m->klp)))
		return NULL;
	k = &m->klp[m->nr_klp++];
	memset(k, 0, sizeof(*k));
	k->target = target;
	m->klp_of[target] = m->nr_klp;
	return k;
}

/* Is the relocation target still all zero, as __write_relocate_add() wants? */
static bool target_is_zero(const struct section *tsec, const Elf64_Rela *r, int size)
{
	const unsigned char *p;
	int i;

	if (tsec->shdr->sh_type == SHT_NOBITS)
		return true;
	if (r->r_offset > tsec->data->d_size || tsec->data->d_size - r->r_offset < (size_t)size)
		return false;
	p = (const unsigned char *)tsec->data->d_buf + r->r_offset;
	for (i = 0; i < size; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * Move each relocation against a converted symbol out of its
 * .rela section into .klp.rela.vmlinux.<target>.  Moving, not copying:
 * __write_relocate_add() refuses to write a location that is not zero, so
 * the same relocation must not be applied twice.
 */
static int convert_relocs(struct module *m)
{
	size_t i, j;

	for (i = 1; i < m->shnum; i++) {
		struct section *sec = &m->secs[i];
		const Elf64_Shdr *sh = sec->shdr;
		const Elf64_Rela *relas = sec->data->d_buf;
		struct section *tsec;
		Elf64_Rela *kept;
		size_t nr, nr_kept = 0;
		const char *special;
		bool alloc;

		if (sh->sh_type == SHT_REL && sh->sh_link == m->symtab) {
			const Elf64_Rel *rels = sec->data->d_buf;

			for (j = 0; j < sh->sh_size / sizeof(Elf64_Rel); j++) {
				size_t symi = ELF64_R_SYM(rels[j].r_info);

				if (symi < m->nsyms && m->conv[symi])
					error("%s: SHT_REL section %s references %s; only RELA is supported",
					      m->path, sec->name, m->conv[symi]->name);
			}
			continue;
		}
		if (sh->sh_type != SHT_RELA || sh->sh_link != m->symtab)
			continue;
		if (sh->sh_entsize != sizeof(Elf64_Rela) || sh->sh_info == 0 ||
		    sh->sh_info >= m->shnum) {
			error("%s: malformed relocation section %s", m->path, sec->name);
			continue;
		}
		tsec = &m->secs[sh->sh_info];
		alloc = tsec->shdr->sh_flags & SHF_ALLOC;
		special = special_section(tsec->name);
		nr = sh->sh_size / sizeof(Elf64_Rela);

		kept = malloc(sh->sh_size ? sh->sh_size : 1);
		if (!kept) {
			error("out of memory");
			return -1;
		}
		for (j = 0; j < nr; j++) {
			const Elf64_Rela *r = &relas[j];
			size_t symi = ELF64_R_SYM(r->r_info);
			unsigned int type = ELF64_R_TYPE(r->r_info);
			struct klp_sym *s = symi < m->nsyms ? m->conv[symi] : NULL;
			struct klp_relasec *k;
			int size;

			if (!s) {
				kept[nr_kept++] = *r;
				continue;
			}
			/*
			 * The loader never applies relocations to sections it
			 * does not load (apply_relocations() skips them), e.g.
			 * debug info: leave those alone.
			 */
			if (!alloc) {
				kept[nr_kept++] = *r;
				s->nr_left++;
				continue;
			}
			if (special) {
				error("%s: %s is referenced from %s+0x%lx (%s): no livepatch relocations there",
				      m->path, s->name, tsec->name, (unsigned long)r->r_offset,
				      special);
				continue;
			}
			size = reloc_size(type);
			if (size < 0) {
				error("%s: %s is referenced from %s+0x%lx by unsupported relocation %s",
				      m->path, s->name, tsec->name, (unsigned long)r->r_offset,
				      reloc_name(type));
				continue;
			}
			if (!target_is_zero(tsec, r, size)) {
				error("%s: relocation target %s+0x%lx (%s) is out of range or not zero",
				      m->path, tsec->name, (unsigned long)r->r_offset, s->name);
				continue;
			}
			if (s->kind == KIND_FUNC && type != R_X86_64_PLT32 && !s->address_ok)
				error("%s: %s at %s+0x%lx takes the address of function %s; an indirect call through it faults if its ENDBR is sealed (IBT): mark it 'address' in the list if it is never called",
				     m->path, reloc_name(type), tsec->name,
				     (unsigned long)r->r_offset, s->name);
			else if (s->kind == KIND_UNKNOWN && type != R_X86_64_PLT32 && !s->address_ok)
				error("%s: %s at %s+0x%lx: cannot tell whether %s is a function (whose address must not be taken: IBT) or data: the kallsyms copy shows no addresses; read /proc/kallsyms as root",
				      m->path, reloc_name(type), tsec->name,
				      (unsigned long)r->r_offset, s->name);

			k = klp_relasec_get(m, sh->sh_info);
			if (!k || grow((void **)&k->relas, &k->alloc, k->nr + 1, sizeof(*k->relas))) {
				free(kept);
				return -1;
			}
			k->relas[k->nr++] = *r;
			s->nr_relocs++;
			m->nr_moved++;
		}
		if (nr_kept == nr) {
			free(kept);
			continue;
		}
		sec->buf = kept;
		sec->size = nr_kept * sizeof(Elf64_Rela);
	}
	return 0;
}

/*
 * Rename each converted symbol to .klp.sym.vmlinux.NAME,POS and
 * mark it SHN_LIVEPATCH.  Symbol indices do not change, so no relocation
 * needs rewriting; the new names are appended to .strtab.
 */
static int convert_symbols(struct module *m)
{
	struct section *symsec = &m->secs[m->symtab];
	struct section *strsec = &m->secs[symsec->shdr->sh_link];
	struct strtab st = { 0 };
	char name[sizeof(KLP_SYM_PREFIX KLP_OBJNAME ".,") + KSYM_NAME_LEN + 24];
	Elf64_Sym *syms;
	size_t i;

	if (strsec->shdr->sh_type != SHT_STRTAB || symsec->shdr->sh_link == m->shstrndx) {
		error("%s: symbol names must have their own SHT_STRTAB", m->path);
		return -1;
	}
	syms = malloc(symsec->data->d_size);
	if (!syms)
		goto nomem;
	memcpy(syms, symsec->data->d_buf, symsec->data->d_size);
	symsec->buf = syms;
	symsec->size = symsec->data->d_size;

	if (grow((void **)&st.buf, &st.alloc, strsec->data->d_size, 1))
		return -1;
	memcpy(st.buf, strsec->data->d_buf, strsec->data->d_size);
	st.len = strsec->data->d_size;
	strsec->buf = st.buf;

	for (i = 1; i < m->nsyms; i++) {
		const struct klp_sym *s = m->conv[i];
		long off;

		if (!s)
			continue;
		snprintf(name, sizeof(name), KLP_SYM_PREFIX KLP_OBJNAME ".%s,%lu",
			 s->name, s->sympos);
		off = strtab_add(&st, name);
		if (off < 0)
			return -1;
		strsec->buf = st.buf;
		syms[i].st_name = off;
		syms[i].st_shndx = SHN_LIVEPATCH;
		syms[i].st_value = 0;
		syms[i].st_info = ELF64_ST_INFO(STB_GLOBAL, ELF64_ST_TYPE(syms[i].st_info));
	}
	strsec->size = st.len;
	return 0;
nomem:
	error("out of memory");
	return -1;
}

/*
 * Drop the __versions entries of the converted symbols (modpost
 * wrote them with CRC 0 from the private symvers).  The other entries are
 * copied unchanged.
 */
static int convert_versions(struct module *m, const struct klp_list *l)
{
	struct section *sec = NULL;
	unsigned char *buf;
	size_t i, n = 0;

	for (i = 1; i < m->shnum; i++)
		if (!strcmp(m->secs[i].name, "__versions"))
			sec = &m->secs[i];
	if (!sec)
		return 0;
	if (sec->shdr->sh_type != SHT_PROGBITS || sec->data->d_size % MODVERSION_SIZE) {
		error("%s: __versions is not an array of struct modversion_info", m->path);
		return -1;
	}
	buf = malloc(sec->data->d_size ? sec->data->d_size : 1);
	if (!buf) {
		error("out of memory");
		return -1;
	}
	for (i = 0; i < sec->data->d_size; i += MODVERSION_SIZE) {
		const unsigned char *e = (const unsigned char *)sec->data->d_buf + i;
		char name[MODVERSION_SIZE - MODVERSION_NAME_OFF + 1];

		memcpy(name, e + MODVERSION_NAME_OFF, sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		if (list_find(l, name)) {
			m->nr_versions_dropped++;
			continue;
		}
		memcpy(buf + n, e, MODVERSION_SIZE);
		n += MODVERSION_SIZE;
	}
	sec->buf = buf;
	sec->size = n;
	return 0;
}

/* Name the new sections: append to .shstrtab. */
static int name_klp_sections(struct module *m)
{
	struct section *shstr = &m->secs[m->shstrndx];
	struct strtab st = { 0 };
	size_t i;

	if (grow((void **)&st.buf, &st.alloc, shstr->data->d_size, 1))
		return -1;
	memcpy(st.buf, shstr->data->d_buf, shstr->data->d_size);
	st.len = shstr->data->d_size;
	shstr->buf = st.buf;
	for (i = 0; i < m->nr_klp; i++) {
		const char *target = m->secs[m->klp[i].target].name;
		char *name;
		long off;

		if (asprintf(&name, KLP_RELA_PREFIX KLP_OBJNAME ".%s", target) < 0) {
			error("out of memory");
			return -1;
		}
		off = strtab_add(&st, name);
		free(name);
		shstr->buf = st.buf;
		if (off < 0)
			return -1;
		m->klp[i].name = off;
	}
	shstr->size = st.len;
	return 0;
}

static int add_section(Elf *out, const Elf64_Shdr *shdr, void *buf, size_t size,
		       Elf_Type type)
{
	Elf_Scn *scn = elf_newscn(out);
	Elf64_Shdr *nsh;
	Elf_Data *d;

	if (!scn)
		return -1;
	nsh = elf64_getshdr(scn);
	d = elf_newdata(scn);
	if (!nsh || !d)
		return -1;
	*nsh = *shdr;
	nsh->sh_size = size;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = type;
	d->d_off = 0;
	d->d_align = shdr->sh_addralign ? shdr->sh_addralign : 1;
	d->d_version = EV_CURRENT;
	return 0;
}

/*
 * Write OUT: the input sections in their order (same indices, so symbol
 * st_shndx, sh_link and sh_info stay valid), with the new contents, then
 * the .klp.rela sections.  libelf lays the file out, honouring each
 * section's sh_addralign.
 */
static int module_write(struct module *m, const char *path)
{
	Elf64_Ehdr *ehdr;
	Elf *out = NULL;
	int fd, ret = -1;
	size_t i;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	out = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!out)
		goto elf_err;
	ehdr = elf64_newehdr(out);
	if (!ehdr)
		goto elf_err;
	memcpy(ehdr->e_ident, m->ehdr->e_ident, EI_NIDENT);
	ehdr->e_type = m->ehdr->e_type;
	ehdr->e_machine = m->ehdr->e_machine;
	ehdr->e_version = m->ehdr->e_version;
	ehdr->e_entry = m->ehdr->e_entry;
	ehdr->e_flags = m->ehdr->e_flags;
	ehdr->e_shstrndx = m->shstrndx;

	for (i = 1; i < m->shnum; i++) {
		struct section *sec = &m->secs[i];
		void *buf = sec->buf ? sec->buf : sec->data->d_buf;
		size_t size = sec->buf ? sec->size : sec->data->d_size;

		if (add_section(out, sec->shdr, buf, size, sec->data->d_type))
			goto elf_err;
	}
	for (i = 0; i < m->nr_klp; i++) {
		Elf64_Shdr sh = {
			.sh_name = m->klp[i].name,
			.sh_type = SHT_RELA,
			.sh_flags = SHF_ALLOC | SHF_INFO_LINK | SHF_RELA_LIVEPATCH,
			.sh_link = m->symtab,
			.sh_info = m->klp[i].target,
			.sh_addralign = 8,
			.sh_entsize = sizeof(Elf64_Rela),
		};

		if (add_section(out, &sh, m->klp[i].relas, m->klp[i].nr * sizeof(Elf64_Rela),
				ELF_T_RELA))
			goto elf_err;
	}
	if (elf_update(out, ELF_C_WRITE) < 0)
		goto elf_err;
	ret = 0;
	goto out;
elf_err:
	elf_error(path, "writing");
out:
	if (out)
		elf_end(out);
	if (close(fd) && !ret) {
		error("%s: %s", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

/*
 * Re-read what was written and check it the way the kernel will read it:
 * every listed symbol converted, klp symbols named as klp_resolve_symbols()
 * parses them, klp relocations only against klp symbols and no normal
 * relocation against one in a loaded section, all moved relocations
 * present, no converted name left in __versions.
 */
static int verify(const char *path, const struct klp_list *l, unsigned long nr_moved)
{
	char objname[56], name[KSYM_NAME_LEN];
	unsigned long nr_klp = 0, sympos;
	const Elf64_Sym *syms;
	struct module m;
	size_t i, j;
	int ret = -1;

	if (module_open(&m, path))
		return -1;
	syms = m.secs[m.symtab].data->d_buf;

	for (i = 1; i < m.nsyms; i++) {
		const char *sname = sym_name(&m, &syms[i]);
		const struct klp_sym *s;

		if (syms[i].st_shndx == SHN_UNDEF && list_find(l, sname)) {
			error("%s: output check: listed symbol %s is still undefined", path, sname);
			goto out;
		}
		if (syms[i].st_shndx != SHN_LIVEPATCH)
			continue;
		/* The kernel's own parse, klp_resolve_symbols(). */
		if (sscanf(sname, KLP_SYM_PREFIX "%55[^.].%511[^,],%lu", objname, name,
			   &sympos) != 3 || strcmp(objname, KLP_OBJNAME) ||
		    ELF64_ST_BIND(syms[i].st_info) != STB_GLOBAL) {
			error("%s: output check: bad livepatch symbol %s", path, sname);
			goto out;
		}
		s = list_find(l, name);
		if (!s || s->sympos != sympos) {
			error("%s: output check: unexpected livepatch symbol %s", path, sname);
			goto out;
		}
	}

	for (i = 1; i < m.shnum; i++) {
		const struct section *sec = &m.secs[i];
		const Elf64_Shdr *sh = sec->shdr;
		const Elf64_Rela *relas = sec->data->d_buf;
		bool klp = sh->sh_flags & SHF_RELA_LIVEPATCH;

		if (sh->sh_type != SHT_RELA)
			continue;
		if (sh->sh_info == 0 || sh->sh_info >= m.shnum || sh->sh_link != m.symtab) {
			error("%s: output check: bad links in %s", path, sec->name);
			goto out;
		}
		/* apply_relocations() ignores sections it does not load. */
		if (!(m.secs[sh->sh_info].shdr->sh_flags & SHF_ALLOC))
			continue;
		if (klp && (sscanf(sec->name, KLP_RELA_PREFIX "%55[^.]", objname) != 1 ||
			    strcmp(objname, KLP_OBJNAME) || !(sh->sh_flags & SHF_ALLOC))) {
			error("%s: output check: bad livepatch relocation section %s", path, sec->name);
			goto out;
		}
		for (j = 0; j < sh->sh_size / sizeof(Elf64_Rela); j++) {
			size_t symi = ELF64_R_SYM(relas[j].r_info);
			bool lp = symi < m.nsyms && syms[symi].st_shndx == SHN_LIVEPATCH;

			if (lp != klp) {
				error("%s: output check: %s has a relocation against %s",
				      path, sec->name, symi < m.nsyms ? sym_name(&m, &syms[symi]) : "?");
				goto out;
			}
		}
		if (klp)
			nr_klp += sh->sh_size / sizeof(Elf64_Rela);
	}
	if (nr_klp != nr_moved) {
		error("%s: output check: %lu livepatch relocations, expected %lu", path, nr_klp, nr_moved);
		goto out;
	}

	for (i = 1; i < m.shnum; i++) {
		const struct section *sec = &m.secs[i];
		const unsigned char *v = sec->data->d_buf;

		if (strcmp(sec->name, "__versions"))
			continue;
		for (j = 0; j + MODVERSION_SIZE <= sec->data->d_size; j += MODVERSION_SIZE) {
			memcpy(name, v + j + MODVERSION_NAME_OFF, MODVERSION_SIZE - MODVERSION_NAME_OFF);
			name[MODVERSION_SIZE - MODVERSION_NAME_OFF] = '\0';
			if (list_find(l, name)) {
				error("%s: output check: __versions still names %s", path, name);
				goto out;
			}
		}
	}
	ret = 0;
out:
	module_close(&m);
	return ret;
}

static int convert(struct klp_list *l, const char *in, const char *out)
{
	struct stat sin, sout;
	struct module m;
	char *tmp = NULL;
	int fd, ret = -1;
	mode_t mask;
	size_t i;

	if (!stat(in, &sin) && !stat(out, &sout) &&
	    sin.st_dev == sout.st_dev && sin.st_ino == sout.st_ino) {
		error("%s: input and output are the same file", out);
		return -1;
	}
	if (module_open(&m, in))
		return -1;
	if (check_not_converted(&m) || classify_symbols(&m, l))
		goto out;
	/* Go on after a bad symbol, to report the bad relocations too. */
	if (convert_relocs(&m) || nr_errors)
		goto out;
	if (convert_symbols(&m) || convert_versions(&m, l) || name_klp_sections(&m))
		goto out;

	/* Write next to OUT, check, then rename: OUT is never half written. */
	if (asprintf(&tmp, "%s.XXXXXX", out) < 0) {
		tmp = NULL;
		error("out of memory");
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		error("%s: %s", tmp, strerror(errno));
		goto out_free;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || close(fd)) {
		error("%s: %s", tmp, strerror(errno));
		goto out_unlink;
	}
	if (module_write(&m, tmp) || verify(tmp, l, m.nr_moved))
		goto out_unlink;
	if (rename(tmp, out)) {
		error("%s: %s", out, strerror(errno));
		goto out_unlink;
	}

	for (i = 0; verbose && i < l->nr; i++) {
		const struct klp_sym *s = &l->syms[i];

		if (!s->referenced) {
			printf("%s: %s: listed, not referenced\n", prog, s->name);
			continue;
		}
		printf("%s: %s -> " KLP_SYM_PREFIX KLP_OBJNAME ".%s,%lu: %lu relocation%s",
		       prog, s->name, s->name, s->sympos, s->nr_relocs,
		       s->nr_relocs == 1 ? "" : "s");
		if (s->nr_left)
			printf(" (%lu left in non-allocated sections)", s->nr_left);
		putchar('\n');
	}
	if (verbose)
		printf("%s: %s: %lu relocations moved to %zu .klp.rela sections, %lu __versions entries dropped\n",
		       prog, out, m.nr_moved, m.nr_klp, m.nr_versions_dropped);
	ret = 0;
	goto out_free;
out_unlink:
	unlink(tmp);
out_free:
	free(tmp);
out:
	module_close(&m);
	return ret;
}

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
