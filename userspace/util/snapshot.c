// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * snapshot.c - snapshots of "name value" counter files (the module's vmstat
 * and /proc/vmstat), and their deltas as a record's counter lines.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "record_file.h"
#include "snapshot.h"
#include "xalloc.h"

void ft_snapshot_free(struct ft_snapshot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* Parse "name value" lines; malformed lines are skipped. */
int ft_snapshot_parse(const char *buf, struct ft_snapshot *s)
{
	const char *line = buf;

	s->v = NULL;
	s->n = s->cap = 0;
	while (*line) {
		const char *eol = strchr(line, '\n'), *p = line, *name;
		size_t nlen;
		char num[32], *end;
		size_t k = 0;
		uint64_t v;

		if (!eol)
			eol = line + strlen(line);
		while (p < eol && isblank((unsigned char)*p))
			p++;
		name = p;
		while (p < eol && !isspace((unsigned char)*p))
			p++;
		nlen = (size_t)(p - name);
		while (p < eol && isblank((unsigned char)*p))
			p++;
		while (p < eol && !isspace((unsigned char)*p) && k < sizeof(num) - 1)
			num[k++] = *p++;
		num[k] = '\0';
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (nlen && k && p == eol && (isdigit((unsigned char)num[0]) ||
					      (num[0] == '-' && isdigit((unsigned char)num[1])))) {
			errno = 0;
			if (num[0] == '-')
				v = (uint64_t)strtoll(num, &end, 10);
			else
				v = strtoull(num, &end, 10);
			if (!errno && !*end) {
				if (s->n == s->cap) {
					s->cap = s->cap ? s->cap * 2 : 64;
					s->v = ft_xrealloc(s->v, s->cap * sizeof(*s->v));
				}
				s->v[s->n].name = ft_xrealloc(NULL, nlen + 1);
				memcpy(s->v[s->n].name, name, nlen);
				s->v[s->n].name[nlen] = '\0';
				s->v[s->n].value = v;
				s->n++;
			}
		}
		line = *eol ? eol + 1 : eol;
	}
	return 0;
}

int ft_snapshot_read(const char *path, struct ft_snapshot *s)
{
	char *buf;
	int err;

	err = ft_read_file(path, &buf, NULL);
	if (err)
		return err;
	err = ft_snapshot_parse(buf, s);
	free(buf);
	return err;
}

bool ft_snapshot_lookup(const struct ft_snapshot *s, const char *name,
			size_t hint, uint64_t *out)
{
	size_t i;

	if (hint < s->n && !strcmp(s->v[hint].name, name)) {
		*out = s->v[hint].value;
		return true;
	}
	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->v[i].name, name)) {
			*out = s->v[i].value;
			return true;
		}
	}
	return false;
}

void ft_record_add_deltas(struct ft_record *r, const char *source,
			  const struct ft_snapshot *before,
			  const struct ft_snapshot *after)
{
	size_t i;

	r->counters = ft_xrealloc(r->counters,
				  (r->ncounters + after->n) * sizeof(*r->counters));
	for (i = 0; i < after->n; i++) {
		struct ft_rec_counter *c = &r->counters[r->ncounters++];
		uint64_t b = 0;

		ft_snapshot_lookup(before, after->v[i].name, i, &b);
		c->source = ft_strdup(source);
		c->name = ft_strdup(after->v[i].name);
		c->delta = (int64_t)(after->v[i].value - b);
	}
}
