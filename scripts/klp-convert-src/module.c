// SPDX-License-Identifier: GPL-2.0
/*
 * klp-convert: open a module and read its sections, and write one out
 * with the new contents; the conversion and the output check share these.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "klp-convert.h"

const char *sym_name(const struct module *m, const Elf64_Sym *sym)
{
	const char *name = elf_strptr(m->elf, m->secs[m->symtab].shdr->sh_link, sym->st_name);

	return name ? name : "<bad name>";
}

void module_close(struct module *m)
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

int module_open(struct module *m, const char *path)
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
int module_write(struct module *m, const char *path)
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
