/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klp-convert: what its parts share.  main.c says what the tool does and
 * why; symbols.c reads the inputs (LIST, KALLSYMS, SYMVERS), convert.c
 * rewrites the module, module.c reads and writes its ELF, verify.c checks
 * the output, util.c holds the error reporting and the containers.
 */
#ifndef KLP_CONVERT_H
#define KLP_CONVERT_H

#include <elf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

extern const char *const prog;
extern bool verbose;
extern unsigned int nr_errors;

void __printf(1, 2) error(const char *fmt, ...);
void __printf(1, 2) warn(const char *fmt, ...);
void elf_error(const char *path, const char *what);
int grow(void **arr, size_t *alloc, size_t need, size_t elsize);

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

int htab_init(struct htab *h, unsigned int bits);
struct hnode *htab_find(const struct htab *h, const char *name);
struct hnode *htab_add(struct htab *h, const char *name, void *priv);
void htab_free(struct htab *h);

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
	enum { KIND_UNKNOWN, KIND_FUNC, KIND_DATA } kind;	/* from addr: see main.c */
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

struct klp_sym *list_find(const struct klp_list *l, const char *name);
int read_list(struct klp_list *l, const char *path);
int read_kallsyms(struct klp_list *l, const char *path);
int read_symvers(struct klp_list *l, const char *path);
void validate_list(const struct klp_list *l);
void list_free(struct klp_list *l);
int write_symvers(const struct klp_list *l, const char *path);

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

const char *sym_name(const struct module *m, const Elf64_Sym *sym);
int module_open(struct module *m, const char *path);
void module_close(struct module *m);
int module_write(struct module *m, const char *path);

int convert(struct klp_list *l, const char *in, const char *out);
int verify(const char *path, const struct klp_list *l, unsigned long nr_moved);

#endif /* KLP_CONVERT_H */
