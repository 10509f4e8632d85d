// SPDX-License-Identifier: GPL-2.0
/*
 * elfdump - print the parts of an x86-64 relocatable object that the
 * klp-convert tests compare, one fact per line, tab separated:
 *
 *   sec   NAME TYPE FLAGS LINK-NAME INFO-NAME SIZE ALIGN ENTSIZE
 *   sym   INDEX NAME SHNDX BIND TYPE
 *   rela  RELA-SECTION TARGET-SECTION OFFSET TYPE SYMBOL ADDEND
 *   ver   CRC NAME HEX-OF-THE-64-BYTE-ENTRY
 *
 * Numbers are hexadecimal except INDEX and ADDEND (signed decimal).
 */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *secname(Elf *elf, size_t shstrndx, size_t idx)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (idx == 0)
		return "-";
	scn = elf_getscn(elf, idx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return "?";
	return elf_strptr(elf, shstrndx, sh.sh_name) ?: "?";
}

int main(int argc, char **argv)
{
	size_t shstrndx, symtab = 0, strtab = 0, i, j;
	Elf_Data *symdata = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: elfdump FILE\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	fd = open(argv[1], O_RDONLY);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		fprintf(stderr, "elfdump: %s: cannot read\n", argv[1]);
		return 1;
	}

	while ((scn = elf_nextscn(elf, scn))) {
		gelf_getshdr(scn, &sh);
		printf("sec\t%s\t%x\t%lx\t%s\t%s\t%lx\t%lx\t%lx\n",
		       elf_strptr(elf, shstrndx, sh.sh_name), sh.sh_type,
		       (unsigned long)sh.sh_flags, secname(elf, shstrndx, sh.sh_link),
		       (sh.sh_flags & SHF_INFO_LINK) ? secname(elf, shstrndx, sh.sh_info) : "-",
		       (unsigned long)sh.sh_size, (unsigned long)sh.sh_addralign,
		       (unsigned long)sh.sh_entsize);
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = elf_ndxscn(scn);
			strtab = sh.sh_link;
			symdata = elf_getdata(scn, NULL);
		}
	}
	if (!symdata) {
		fprintf(stderr, "elfdump: %s: no symbol table\n", argv[1]);
		return 1;
	}
	for (i = 1; i < symdata->d_size / sizeof(Elf64_Sym); i++) {
		GElf_Sym s;

		gelf_getsym(symdata, i, &s);
		printf("sym\t%zu\t%s\t%x\t%d\t%d\n", i, elf_strptr(elf, strtab, s.st_name),
		       s.st_shndx, GELF_ST_BIND(s.st_info), GELF_ST_TYPE(s.st_info));
	}

	scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *d;

		gelf_getshdr(scn, &sh);
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		d = elf_getdata(scn, NULL);
		if (sh.sh_type == SHT_RELA && sh.sh_link == symtab) {
			for (j = 0; d && j < sh.sh_size / sizeof(Elf64_Rela); j++) {
				GElf_Rela r;
				GElf_Sym s;

				gelf_getrela(d, j, &r);
				gelf_getsym(symdata, GELF_R_SYM(r.r_info), &s);
				printf("rela\t%s\t%s\t%lx\t%lu\t%s\t%ld\n", name,
				       secname(elf, shstrndx, sh.sh_info),
				       (unsigned long)r.r_offset, (unsigned long)GELF_R_TYPE(r.r_info),
				       elf_strptr(elf, strtab, s.st_name), (long)r.r_addend);
			}
		}
		if (!strcmp(name, "__versions")) {
			const unsigned char *v = d->d_buf;

			for (j = 0; j + 64 <= d->d_size; j += 64) {
				unsigned long crc;
				int k;

				memcpy(&crc, v + j, sizeof(crc));
				printf("ver\t%lx\t%.56s\t", crc, (const char *)v + j + 8);
				for (k = 0; k < 64; k++)
					printf("%02x", v[j + k]);
				putchar('\n');
			}
		}
	}
	elf_end(elf);
	close(fd);
	return 0;
}
