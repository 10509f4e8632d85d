// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * record_file.c - writing and reading record files; the format is
 * described in record_file.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "fileio.h"
#include "foliotune.h"
#include "output.h"
#include "record_file.h"
#include "xalloc.h"

#define FT_RECORD_MAGIC		"# foliotune record v"
#define FT_RECORD_VERSION	1

/* ---- writing ---- */

/* key value, with control characters replaced so a value stays one line */
static void ft_put_kv(FILE *f, const char *key, const char *value)
{
	const unsigned char *s = (const unsigned char *)(value ? value : "");

	fprintf(f, "%s ", key);
	for (; *s; s++)
		putc(*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	putc('\n', f);
}

int ft_record_write(FILE *f, const struct ft_record *r)
{
	size_t i;

	fprintf(f, "%s%d\n", FT_RECORD_MAGIC, FT_RECORD_VERSION);
	fprintf(f, "# written by %s %s; format: see %s(8), RECORD FILES\n",
		FOLIOTUNE_NAME, FOLIOTUNE_VERSION, FOLIOTUNE_NAME);
	ft_put_kv(f, "tool", FOLIOTUNE_NAME " " FOLIOTUNE_VERSION);
	ft_put_kv(f, "date", r->date);
	ft_put_kv(f, "kernel_release", r->kernel_release);
	ft_put_kv(f, "kernel_version", r->kernel_version);
	ft_put_kv(f, "module", r->module);
	if (r->module && strcmp(r->module, "loaded"))
		fprintf(f, "# module not loaded: only /proc/vmstat was recorded\n");
	if (r->label)
		ft_put_kv(f, "label", r->label);
	ft_put_kv(f, "command", r->command);
	if (r->has_wall)
		fprintf(f, "wall_seconds %.6f\n", r->wall);
	if (r->exit_code >= 0)
		fprintf(f, "exit_code %d\n", r->exit_code);
	if (r->exit_signal >= 0)
		fprintf(f, "exit_signal %d\n", r->exit_signal);
	if (r->interrupted)
		ft_put_kv(f, "interrupted", r->interrupted);
	for (i = 0; i < r->nknobs; i++)
		fprintf(f, "knob %s %s\n", r->knobs[i].name, r->knobs[i].value);
	for (i = 0; i < r->nsets; i++)
		fprintf(f, "set %s %s %s\n", r->sets[i].name, r->sets[i].value,
			r->sets[i].old ? r->sets[i].old : "-");
	for (i = 0; i < r->ncounters; i++)
		fprintf(f, "counter %s %s %" PRId64 "\n", r->counters[i].source,
			r->counters[i].name, r->counters[i].delta);
	return ferror(f) ? -EIO : 0;
}

/* ---- reading ---- */

void ft_record_free(struct ft_record *r)
{
	size_t i;

	free(r->path);
	free(r->label);
	free(r->date);
	free(r->kernel_release);
	free(r->kernel_version);
	free(r->command);
	free(r->module);
	free(r->interrupted);
	for (i = 0; i < r->nknobs; i++) {
		free(r->knobs[i].name);
		free(r->knobs[i].value);
		free(r->knobs[i].old);
	}
	free(r->knobs);
	for (i = 0; i < r->nsets; i++) {
		free(r->sets[i].name);
		free(r->sets[i].value);
		free(r->sets[i].old);
	}
	free(r->sets);
	for (i = 0; i < r->ncounters; i++) {
		free(r->counters[i].source);
		free(r->counters[i].name);
	}
	free(r->counters);
	for (i = 0; i < r->nenv; i++) {
		free(r->env[i].name);
		free(r->env[i].value);
	}
	free(r->env);
	memset(r, 0, sizeof(*r));
	r->exit_code = r->exit_signal = -1;
}

/* Split s in place into at most max whitespace-separated words. */
static size_t ft_split(char *s, char **w, size_t max)
{
	size_t n = 0;

	while (*s && n < max) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	while (*s == ' ' || *s == '\t')
		s++;
	return *s ? max + 1 : n;	/* max + 1: too many words */
}

static void ft_set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = ft_strdup(v);
}

void ft_record_add_knob(struct ft_rec_knob **v, size_t *n, const char *name,
			const char *value, const char *old)
{
	struct ft_rec_knob *k;

	*v = ft_xrealloc(*v, (*n + 1) * sizeof(**v));
	k = &(*v)[(*n)++];
	k->name = ft_strdup(name);
	k->value = ft_strdup(value);
	k->old = old ? ft_strdup(old) : NULL;
}

int ft_record_parse(const char *path, const char *buf, struct ft_record *r,
		    char *msg, size_t msglen)
{
	const char *line = buf;
	unsigned int lineno = 0;
	size_t ccap = 0;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->exit_code = r->exit_signal = -1;
	r->path = ft_strdup(path);
	while (*line && !err) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		char *l = ft_xrealloc(NULL, n + 1), *key, *val, *w[4], *end;
		size_t nw;

		memcpy(l, line, n);
		l[n] = '\0';
		if (n && l[n - 1] == '\r')
			l[n - 1] = '\0';
		line += n + (eol ? 1 : 0);
		lineno++;
		if (!r->version) {
			if (strncmp(l, FT_RECORD_MAGIC, sizeof(FT_RECORD_MAGIC) - 1)) {
				ft_msg(msg, msglen, "%s: not a foliotune record (no '%s1' line)",
					 path, FT_RECORD_MAGIC);
				err = -EBADMSG;
			} else {
				long v = strtol(l + sizeof(FT_RECORD_MAGIC) - 1, &end, 10);

				if (v < 1 || *end) {
					ft_msg(msg, msglen, "%s:1: bad record header", path);
					err = -EBADMSG;
				} else if (v > FT_RECORD_VERSION) {
					ft_msg(msg, msglen, "%s: record format v%ld is newer than this foliotune reads (v%d)",
						 path, v, FT_RECORD_VERSION);
					err = -EPROTONOSUPPORT;
				} else {
					r->version = (int)v;
				}
			}
			free(l);
			continue;
		}
		if (!l[0] || l[0] == '#') {
			free(l);
			continue;
		}
		key = l;
		val = strchr(l, ' ');
		if (val)
			*val++ = '\0';
		else
			val = l + strlen(l);
		if (!strcmp(key, "counter")) {
			nw = ft_split(val, w, 3);
			if (nw == 3) {
				long long d;

				errno = 0;
				d = strtoll(w[2], &end, 10);
				if (errno || *end || end == w[2])
					nw = 0;
				else {
					struct ft_rec_counter *c;

					if (r->ncounters == ccap) {
						ccap = ccap ? ccap * 2 : 256;
						r->counters = ft_xrealloc(r->counters,
									  ccap * sizeof(*r->counters));
					}
					c = &r->counters[r->ncounters++];
					c->source = ft_strdup(w[0]);
					c->name = ft_strdup(w[1]);
					c->delta = d;
				}
			}
			if (nw != 3) {
				ft_msg(msg, msglen, "%s:%u: malformed counter line", path, lineno);
				err = -EBADMSG;
			}
		} else if (!strcmp(key, "knob")) {
			if (ft_split(val, w, 2) == 2)
				ft_record_add_knob(&r->knobs, &r->nknobs, w[0], w[1], NULL);
			else {
				ft_msg(msg, msglen, "%s:%u: malformed knob line", path, lineno);
				err = -EBADMSG;
			}
		} else if (!strcmp(key, "set")) {
			nw = ft_split(val, w, 3);
			if (nw == 3 || nw == 2)
				ft_record_add_knob(&r->sets, &r->nsets, w[0], w[1],
						   nw == 3 ? w[2] : NULL);
			else {
				ft_msg(msg, msglen, "%s:%u: malformed set line", path, lineno);
				err = -EBADMSG;
			}
		} else if (!strcmp(key, "env")) {
			char *sp = strchr(val, ' ');

			/* "knob NAME VALUE": the key is "knob NAME" */
			if (sp && !strncmp(val, "knob ", 5))
				sp = strchr(sp + 1, ' ');
			if (sp)
				*sp++ = '\0';
			ft_record_add_knob(&r->env, &r->nenv, val, sp ? sp : "", NULL);
		} else if (!strcmp(key, "wall_seconds")) {
			r->wall = strtod(val, &end);
			r->has_wall = end != val && !*end;
		} else if (!strcmp(key, "exit_code")) {
			r->exit_code = (int)strtol(val, NULL, 10);
		} else if (!strcmp(key, "exit_signal")) {
			r->exit_signal = (int)strtol(val, NULL, 10);
		} else if (!strcmp(key, "label")) {
			ft_set_str(&r->label, val);
		} else if (!strcmp(key, "date")) {
			ft_set_str(&r->date, val);
		} else if (!strcmp(key, "kernel_release")) {
			ft_set_str(&r->kernel_release, val);
		} else if (!strcmp(key, "kernel_version")) {
			ft_set_str(&r->kernel_version, val);
		} else if (!strcmp(key, "command")) {
			ft_set_str(&r->command, val);
		} else if (!strcmp(key, "module")) {
			ft_set_str(&r->module, val);
		} else if (!strcmp(key, "interrupted")) {
			ft_set_str(&r->interrupted, val);
		}
		free(l);
	}
	if (!err && !r->version) {
		ft_msg(msg, msglen, "%s: empty file, not a foliotune record", path);
		err = -EBADMSG;
	}
	if (err)
		ft_record_free(r);
	return err;
}

int ft_record_load(const char *path, struct ft_record *r, char *msg,
		   size_t msglen)
{
	char *buf;
	int err;

	err = ft_read_file(path, &buf, NULL);
	if (err) {
		ft_msg(msg, msglen, "%s: %s", path, strerror(-err));
		memset(r, 0, sizeof(*r));
		return err;
	}
	err = ft_record_parse(path, buf, r, msg, msglen);
	free(buf);
	return err;
}
