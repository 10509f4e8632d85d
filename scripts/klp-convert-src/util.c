// SPDX-License-Identifier: GPL-2.0
/*
 * klp-convert: error reporting, growable arrays and the name hash table
 * the other parts share.
 */
#define _GNU_SOURCE
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klp-convert.h"

const char *const prog = "klp-convert";
bool verbose;
unsigned int nr_errors;

void __printf(1, 2) error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	nr_errors++;
}

void __printf(1, 2) warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void elf_error(const char *path, const char *what)
{
	error("%s: %s: %s", path, what, elf_errmsg(-1));
}

/*
 * Growable arrays.
 */
int grow(void **arr, size_t *alloc, size_t need, size_t elsize)
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

/*
 * A chained hash table of names; each entry carries a pointer.
 */
static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

int htab_init(struct htab *h, unsigned int bits)
{
	h->buckets = calloc(1UL << bits, sizeof(*h->buckets));
	if (!h->buckets) {
		error("out of memory");
		return -1;
	}
	h->mask = (1UL << bits) - 1;
	return 0;
}

struct hnode *htab_find(const struct htab *h, const char *name)
{
	struct hnode *n;

	if (!h->buckets)
		return NULL;
	for (n = h->buckets[hash_name(name) & h->mask]; n; n = n->next)
		if (!strcmp(n->name, name))
			return n;
	return NULL;
}

struct hnode *htab_add(struct htab *h, const char *name, void *priv)
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

void htab_free(struct htab *h)
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
