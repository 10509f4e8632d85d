// SPDX-License-Identifier: GPL-2.0
/*
 * klp-convert: the inputs, LIST, KALLSYMS and SYMVERS: read them, check
 * LIST against the other two, and write the private symvers for modpost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "klp-convert.h"

/* The KALLSYMS names that bound vmlinux text, in text[] order. */
static const char *const text_bounds[] = { "_stext", "_etext", "_sinittext", "_einittext" };

struct klp_sym *list_find(const struct klp_list *l, const char *name)
{
	struct hnode *n = htab_find(&l->names, name);

	return n ? &l->syms[(uintptr_t)n->priv - 1] : NULL;
}

int read_list(struct klp_list *l, const char *path)
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

int read_kallsyms(struct klp_list *l, const char *path)
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
int read_symvers(struct klp_list *l, const char *path)
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
void validate_list(const struct klp_list *l)
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

void list_free(struct klp_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->syms[i].clone);
	htab_free(&l->names);
	htab_free(&l->exports);
	free(l->syms);
}

/* --write-symvers: tell modpost that the listed symbols exist. */
int write_symvers(const struct klp_list *l, const char *path)
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
