// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ab_file.c - an ab file read back: its header, one record per run, the
 * complete pairs, and the results of the report (ab_report.c prints them):
 * per result, the arms' summaries and B against A (statistics.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_file.h"
#include "output.h"
#include "record_file.h"
#include "statistics.h"
#include "xalloc.h"

#define FT_REC_MAGIC	"# foliotune record v"	/* each run's record starts so */

static bool ft_is_ab_file(const char *buf)
{
	return !strncmp(buf, FT_AB_MAGIC, sizeof(FT_AB_MAGIC) - 1);
}

bool ft_ab_sniff(const char *path)
{
	char buf[64];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return ft_is_ab_file(buf);
}

void ft_ab_data_free(struct ft_ab_data *d)
{
	size_t i;

	free(d->command);
	free(d->order);
	free(d->metric_name);
	free(d->arm[0]);
	free(d->arm[1]);
	free(d->interrupted);
	free(d->prepare);
	for (i = 0; i < d->nenv; i++) {
		free(d->env[i].key);
		free(d->env[i].value);
	}
	free(d->env);
	for (i = 0; i < d->nrec; i++)
		ft_record_free(&d->rec[i].r);
	free(d->rec);
	free(d->ia);
	free(d->ib);
}

static const char *ft_ab_env_get(const struct ft_ab_data *d, const char *key)
{
	size_t i;

	for (i = 0; i < d->nenv; i++)
		if (!strcmp(d->env[i].key, key))
			return d->env[i].value;
	return NULL;
}

const char *ft_ab_env_or(const struct ft_ab_data *d, const char *key)
{
	const char *v = ft_ab_env_get(d, key);

	return v ? v : "?";
}

/* key and value of one line (in place); value "" when none */
static void ft_ab_kvsplit(char *l, char **key, char **val)
{
	char *sp = strchr(l, ' ');

	*key = l;
	*val = sp ? sp + 1 : l + strlen(l);
	if (sp)
		*sp = '\0';
}

/* the ab-only lines of a run's record */
static void ft_ab_rec_extra(struct ft_ab_rec *r, char *l)
{
	char *key, *val, arm;

	ft_ab_kvsplit(l, &key, &val);
	if (!strcmp(key, "ab_run") &&
	    sscanf(val, "%u %u %c", &r->seq, &r->pair, &arm) == 3 &&
	    (arm == 'A' || arm == 'B'))
		r->arm = arm - 'A';
	else if (!strcmp(key, "metric"))
		r->has_metric = sscanf(val, "%lf", &r->metric) == 1;
	else if (!strcmp(key, "other_cpu_seconds"))
		r->has_other = sscanf(val, "%lf", &r->other) == 1;
	else if (!strcmp(key, "loadavg_before"))
		snprintf(r->la0, sizeof(r->la0), "%s", val);
	else if (!strcmp(key, "loadavg_after"))
		snprintf(r->la1, sizeof(r->la1), "%s", val);
}

static void ft_ab_header_line(struct ft_ab_data *d, char *l)
{
	char *key, *val;

	ft_ab_kvsplit(l, &key, &val);
	if (!strcmp(key, "command")) {
		free(d->command);
		d->command = ft_strdup(val);
	} else if (!strcmp(key, "prepare")) {
		free(d->prepare);
		d->prepare = ft_strdup(val);
	} else if (!strcmp(key, "pairs")) {
		d->pairs = (unsigned int)strtoul(val, NULL, 10);
	} else if (!strcmp(key, "warmup")) {
		d->warmup = (unsigned int)strtoul(val, NULL, 10);
	} else if (!strcmp(key, "order")) {
		free(d->order);
		d->order = ft_strdup(val);
	} else if (!strcmp(key, "aa")) {
		d->aa = atoi(val) != 0;
	} else if (!strcmp(key, "metric_time")) {
		d->metric_time = atoi(val) != 0;
	} else if (!strcmp(key, "metric_name")) {
		free(d->metric_name);
		d->metric_name = ft_strdup(val);
	} else if (!strcmp(key, "arm") && (val[0] == 'A' || val[0] == 'B')) {
		free(d->arm[val[0] - 'A']);
		d->arm[val[0] - 'A'] = ft_strdup(val[1] ? val + 2 : "");
	} else if (!strcmp(key, "env")) {
		char *k2, *v2;

		ft_ab_kvsplit(val, &k2, &v2);
		d->env = ft_xrealloc(d->env, (d->nenv + 1) * sizeof(*d->env));
		d->env[d->nenv].key = ft_strdup(k2);
		d->env[d->nenv].value = ft_strdup(v2);
		d->nenv++;
	}
}

/* Parse an ab file: the header, then one record per run. */
int ft_ab_parse(const char *path, char *buf, struct ft_ab_data *d,
		       char *msg, size_t msglen)
{
	char *s = buf, *next, *l;
	bool header = true;
	size_t i, p;
	int err;

	memset(d, 0, sizeof(*d));
	d->path = path;
	if (!ft_is_ab_file(buf)) {
		ft_msg(msg, msglen, "%s: not a foliotune ab file", path);
		return -EBADMSG;
	}
	if (atoi(buf + sizeof(FT_AB_MAGIC) - 1) > FT_AB_VERSION) {
		ft_msg(msg, msglen, "%s: ab format v%d is newer than this foliotune reads (v%d)",
		       path, atoi(buf + sizeof(FT_AB_MAGIC) - 1), FT_AB_VERSION);
		return -EPROTONOSUPPORT;
	}
	while (*s) {
		/* the next record starts at a line "# foliotune record v..." */
		next = strstr(s, "\n" FT_REC_MAGIC);
		next = next ? next + 1 : s + strlen(s);
		if (!header) {
			struct ft_ab_rec *r;
			char save = *next;

			d->rec = ft_xrealloc(d->rec, (d->nrec + 1) * sizeof(*d->rec));
			r = &d->rec[d->nrec];
			memset(r, 0, sizeof(*r));
			r->arm = -1;
			*next = '\0';
			err = ft_record_parse(path, s, &r->r, msg, msglen);
			if (err) {
				*next = save;
				return err;
			}
			d->nrec++;
			for (l = s; l && *l;) {
				char *eol = strchr(l, '\n');

				if (eol)
					*eol = '\0';
				if (!strncmp(l, "ab_interrupted ", 15)) {
					free(d->interrupted);
					d->interrupted = ft_strdup(l + 15);
				}
				ft_ab_rec_extra(r, l);
				l = eol ? eol + 1 : NULL;
			}
			*next = save;
		} else {
			for (l = s; l && l < next;) {
				char *eol = strchr(l, '\n');

				if (eol)
					*eol = '\0';
				if (*l && *l != '#')
					ft_ab_header_line(d, l);
				l = eol ? eol + 1 : NULL;
			}
		}
		header = false;
		s = next;
	}
	/* the pairs with both runs complete, in pair order */
	d->ia = ft_xcalloc(d->nrec, sizeof(*d->ia));
	d->ib = ft_xcalloc(d->nrec, sizeof(*d->ib));
	for (p = 1; p <= d->nrec; p++) {
		size_t a = SIZE_MAX, b = SIZE_MAX;

		for (i = 0; i < d->nrec; i++) {
			const struct ft_ab_rec *r = &d->rec[i];

			if (r->pair != p || r->r.interrupted || !r->r.has_wall ||
			    r->r.exit_code != 0)
				continue;
			if (r->arm == 0)
				a = i;
			else if (r->arm == 1)
				b = i;
		}
		if (a != SIZE_MAX && b != SIZE_MAX) {
			d->ia[d->npairs] = a;
			d->ib[d->npairs] = b;
			d->npairs++;
		}
	}
	return 0;
}

static int ft_ab_res_cmp(const void *x, const void *y)
{
	const struct ft_ab_res *a = x, *b = y;

	if (!a->cmp.verdict != !b->cmp.verdict)
		return a->cmp.verdict ? -1 : 1;
	if (a->cmp.w.p != b->cmp.w.p)
		return a->cmp.w.p < b->cmp.w.p ? -1 : 1;
	return strcmp(a->name, b->name);
}

static bool ft_ab_counter(const struct ft_record *r, const char *source,
			  const char *name, double *out)
{
	size_t i;

	for (i = 0; i < r->ncounters; i++)
		if (!strcmp(r->counters[i].name, name) &&
		    !strcmp(r->counters[i].source, source)) {
			*out = (double)r->counters[i].delta;
			return true;
		}
	return false;
}

/* All results: wall, the metric, every counter whose deltas differ. */
struct ft_ab_res *ft_ab_results(const struct ft_ab_data *d, size_t *nres,
				size_t *nfixed)
{
	size_t n = d->npairs, i, j, cap = 8, nr = 0;
	double *a = ft_xcalloc(n, sizeof(*a)), *b = ft_xcalloc(n, sizeof(*b));
	struct ft_ab_res *res = ft_xcalloc(cap, sizeof(*res));
	bool ok, pos;

	for (i = 0; i < n; i++) {
		a[i] = d->rec[d->ia[i]].r.wall;
		b[i] = d->rec[d->ib[i]].r.wall;
	}
	snprintf(res[nr].name, sizeof(res[nr].name), "wall_seconds");
	res[nr].kind = FT_AB_WALL;
	ft_paired(a, b, n, true, &res[nr++].cmp);
	if (d->metric_name) {
		ok = true;
		pos = true;
		for (i = 0; i < n; i++) {
			ok &= d->rec[d->ia[i]].has_metric && d->rec[d->ib[i]].has_metric;
			a[i] = d->rec[d->ia[i]].metric;
			b[i] = d->rec[d->ib[i]].metric;
			pos &= a[i] > 0 && b[i] > 0;
		}
		if (ok) {
			snprintf(res[nr].name, sizeof(res[nr].name), "%s", d->metric_name);
			res[nr].kind = d->metric_time ? FT_AB_METRIC_TIME : FT_AB_METRIC;
			ft_paired(a, b, n, pos, &res[nr++].cmp);
		}
	}
	*nfixed = nr;
	if (n) {
		const struct ft_record *r0 = &d->rec[d->ia[0]].r;

		for (j = 0; j < r0->ncounters; j++) {
			const struct ft_rec_counter *c = &r0->counters[j];
			bool differ = false;

			ok = true;
			for (i = 0; i < n && ok; i++) {
				ok = ft_ab_counter(&d->rec[d->ia[i]].r, c->source, c->name, &a[i]) &&
				     ft_ab_counter(&d->rec[d->ib[i]].r, c->source, c->name, &b[i]);
				differ |= ok && a[i] != b[i];
			}
			if (!ok || !differ)
				continue;
			if (nr == cap) {
				cap *= 2;
				res = ft_xrealloc(res, cap * sizeof(*res));
			}
			memset(&res[nr], 0, sizeof(res[nr]));
			snprintf(res[nr].name, sizeof(res[nr].name), "%s/%s", c->source, c->name);
			res[nr].kind = FT_AB_COUNTER;
			ft_paired(a, b, n, false, &res[nr++].cmp);
		}
		qsort(res + *nfixed, nr - *nfixed, sizeof(*res), ft_ab_res_cmp);
	}
	free(a);
	free(b);
	*nres = nr;
	return res;
}
