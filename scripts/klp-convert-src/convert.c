// SPDX-License-Identifier: GPL-2.0
/*
 * klp-convert: the rewrite of IN.ko into OUT.ko: choose the symbols to
 * convert, move their relocations to .klp.rela sections, rename them,
 * drop their __versions entries, then write, check and rename OUT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "klp-convert.h"

/*
 * String tables.
 */
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

int convert(struct klp_list *l, const char *in, const char *out)
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
