// SPDX-License-Identifier: GPL-2.0
/*
 * klp-convert: the check of the written module, before it gets its name.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "klp-convert.h"

/*
 * Re-read what was written and check it the way the kernel will read it:
 * every listed symbol converted, klp symbols named as klp_resolve_symbols()
 * parses them, klp relocations only against klp symbols and no normal
 * relocation against one in a loaded section, all moved relocations
 * present, no converted name left in __versions.
 */
int verify(const char *path, const struct klp_list *l, unsigned long nr_moved)
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
