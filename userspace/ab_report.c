// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ab_report.c - an ab file read back, and its report: per result (the wall
 * time, the metric, every counter whose deltas differ between the arms) the
 * arms' summaries, B against A with its interval, the signed-rank p-value
 * and a verdict (stats.c), as text or JSON.  "ab" prints it at the end of
 * its runs and "compare AB_FILE" for a file written before; the stats
 * command prints its results as this report does.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_report.h"
#include "fileio.h"
#include "json_writer.h"
#include "output.h"
#include "record_file.h"
#include "stats.h"
#include "xalloc.h"

#define FT_REC_MAGIC	"# foliotune record v"	/* each run's record starts so */

struct ft_ab_rec {
	struct ft_record r;
	unsigned int seq, pair;
	int arm;
	bool has_metric, has_other;
	double metric, other;
	char la0[64], la1[64];
};

struct ft_ab_kv {
	char *key, *value;
};

struct ft_ab_data {
	const char *path;
	char *command, *order, *metric_name, *arm[2], *interrupted, *prepare;
	unsigned int pairs, warmup;
	bool aa, metric_time;
	struct ft_ab_kv *env;
	size_t nenv;
	struct ft_ab_rec *rec;
	size_t nrec;
	/* the complete pairs: indexes into rec */
	size_t *ia, *ib;
	size_t npairs;
};

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

static void ft_ab_data_free(struct ft_ab_data *d)
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

static const char *ft_ab_env_or(const struct ft_ab_data *d, const char *key)
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
static int ft_ab_parse(const char *path, char *buf, struct ft_ab_data *d,
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

/* a percentage with the digits that mean something: 166, 26.1, 0.042 */
static const char *ft_ab_pct(double p, char *buf, size_t len)
{
	if (p >= 100)
		snprintf(buf, len, "%.0f", p);
	else if (p >= 1)
		snprintf(buf, len, "%.1f", p);
	else
		snprintf(buf, len, "%.2g", p);
	return buf;
}

const char *ft_ab_verdict(const struct ft_ab_res *r, char *buf, size_t len)
{
	char pct[32];

	bool time = r->kind == FT_AB_WALL || r->kind == FT_AB_METRIC_TIME;
	const char *up = time ? "B slower" : "B higher";
	const char *down = time ? "B faster" : "B lower";

	if (r->cmp.verdict)
		snprintf(buf, len, "%s", r->cmp.verdict > 0 ? up : down);
	else if (!r->cmp.can_detect && !r->cmp.w.nzero)
		snprintf(buf, len, "with %zu pair%s no difference can be shown at p < %.2f (6 are needed)",
			 r->cmp.w.n, r->cmp.w.n == 1 ? "" : "s", FT_STATS_ALPHA);
	else if (!r->cmp.can_detect)
		snprintf(buf, len, "with %zu pairs, %zu of them differing, no difference can be shown at p < %.2f (6 differing pairs are needed)",
			 r->cmp.w.n + r->cmp.w.nzero, r->cmp.w.n, FT_STATS_ALPHA);
	else if (r->cmp.detect_abs)
		snprintf(buf, len, "no difference these runs can show: the smallest effect they could detect is %.4g",
			 r->cmp.detect);
	else
		snprintf(buf, len, "no difference these runs can show: the smallest effect they could detect is %s%%",
			 ft_ab_pct(100 * r->cmp.detect, pct, sizeof(pct)));
	return buf;
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
static struct ft_ab_res *ft_ab_results(const struct ft_ab_data *d, size_t *nres,
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

static void ft_ab_json_summary(const char *name, const struct ft_summary *s)
{
	jsonw_name(ft_jw, name);
	jsonw_start_object(ft_jw);
	jsonw_float_field_fmt(ft_jw, "median", "%.9g", s->median);
	jsonw_float_field_fmt(ft_jw, "q1", "%.9g", s->q1);
	jsonw_float_field_fmt(ft_jw, "q3", "%.9g", s->q3);
	jsonw_float_field_fmt(ft_jw, "min", "%.9g", s->min);
	jsonw_float_field_fmt(ft_jw, "max", "%.9g", s->max);
	jsonw_end_object(ft_jw);
}

void ft_ab_json_res(const struct ft_ab_res *r)
{
	char v[256];

	jsonw_start_object(ft_jw);
	jsonw_string_field(ft_jw, "name", r->name);
	jsonw_string_field(ft_jw, "kind", r->kind == FT_AB_WALL ? "wall" :
			   r->kind == FT_AB_COUNTER ? "counter" :
			   r->kind == FT_AB_METRIC_TIME ? "metric_time" : "metric");
	ft_ab_json_summary("A", &r->cmp.s[0]);
	ft_ab_json_summary("B", &r->cmp.s[1]);
	jsonw_string_field(ft_jw, "estimate_of", r->cmp.ratio ? "B/A" : "B-A");
	jsonw_float_field_fmt(ft_jw, "estimate", "%.9g", r->cmp.est);
	jsonw_float_field_fmt(ft_jw, "ci_low", "%.9g", r->cmp.lo);
	jsonw_float_field_fmt(ft_jw, "ci_high", "%.9g", r->cmp.hi);
	jsonw_float_field_fmt(ft_jw, "ci_level", "%.4f", r->cmp.hl.level);
	jsonw_name(ft_jw, "wilcoxon");
	jsonw_start_object(ft_jw);
	jsonw_uint_field(ft_jw, "n", r->cmp.w.n);
	jsonw_uint_field(ft_jw, "zeros_dropped", r->cmp.w.nzero);
	jsonw_bool_field(ft_jw, "ties", r->cmp.w.ties);
	jsonw_float_field_fmt(ft_jw, "w_plus", "%.1f", r->cmp.w.w_plus);
	jsonw_float_field_fmt(ft_jw, "p", "%.6g", r->cmp.w.p);
	jsonw_float_field_fmt(ft_jw, "p_min", "%.6g", r->cmp.w.p_min);
	jsonw_end_object(ft_jw);
	jsonw_string_field(ft_jw, "verdict", ft_ab_verdict(r, v, sizeof(v)));
	if (r->cmp.verdict || !r->cmp.can_detect)
		jsonw_null_field(ft_jw, r->cmp.detect_abs ? "smallest_detectable" :
				 "smallest_detectable_pct");
	else if (r->cmp.detect_abs)
		jsonw_float_field_fmt(ft_jw, "smallest_detectable", "%.6g", r->cmp.detect);
	else
		jsonw_float_field_fmt(ft_jw, "smallest_detectable_pct", "%.2f", 100 * r->cmp.detect);
	jsonw_end_object(ft_jw);
}

static void ft_ab_json(const struct ft_ab_data *d, const struct ft_ab_res *res,
		       size_t nres)
{
	size_t i;

	jsonw_start_object(ft_jw);
	jsonw_string_field(ft_jw, "file", d->path);
	jsonw_string_field(ft_jw, "command", d->command ? d->command : "");
	if (d->prepare)
		jsonw_string_field(ft_jw, "prepare", d->prepare);
	else
		jsonw_null_field(ft_jw, "prepare");
	jsonw_name(ft_jw, "arms");
	jsonw_start_object(ft_jw);
	jsonw_string_field(ft_jw, "A", d->arm[0] ? d->arm[0] : "");
	jsonw_string_field(ft_jw, "B", d->arm[1] ? d->arm[1] : "");
	jsonw_end_object(ft_jw);
	jsonw_bool_field(ft_jw, "aa", d->aa);
	jsonw_uint_field(ft_jw, "pairs_planned", d->pairs);
	jsonw_uint_field(ft_jw, "pairs", d->npairs);
	jsonw_uint_field(ft_jw, "warmup", d->warmup);
	jsonw_string_field(ft_jw, "order", d->order ? d->order : "");
	if (d->interrupted)
		jsonw_string_field(ft_jw, "interrupted", d->interrupted);
	else
		jsonw_null_field(ft_jw, "interrupted");
	jsonw_string_field(ft_jw, "measured", "machine-wide: knobs and counters cover every process");
	jsonw_name(ft_jw, "env");
	jsonw_start_object(ft_jw);
	for (i = 0; i < d->nenv; i++) {
		if (!strcmp(d->env[i].key, "knob"))
			continue;
		jsonw_string_field(ft_jw, d->env[i].key, d->env[i].value);
	}
	jsonw_end_object(ft_jw);
	jsonw_name(ft_jw, "knobs");
	jsonw_start_object(ft_jw);
	for (i = 0; i < d->nenv; i++) {
		char name[64];
		const char *v = d->env[i].value, *sp = strchr(v, ' ');

		if (strcmp(d->env[i].key, "knob") || !sp)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(sp - v), v);
		jsonw_string_field(ft_jw, name, sp + 1);
	}
	jsonw_end_object(ft_jw);
	jsonw_name(ft_jw, "runs");
	jsonw_start_array(ft_jw);
	for (i = 0; i < d->nrec; i++) {
		const struct ft_ab_rec *r = &d->rec[i];
		char arm[2] = { r->arm >= 0 ? (char)('A' + r->arm) : '?', '\0' };

		jsonw_start_object(ft_jw);
		jsonw_uint_field(ft_jw, "seq", r->seq);
		jsonw_uint_field(ft_jw, "pair", r->pair);
		jsonw_string_field(ft_jw, "arm", arm);
		jsonw_float_field_fmt(ft_jw, "wall_seconds", "%.6f", r->r.wall);
		jsonw_int_field(ft_jw, "exit_code", r->r.exit_code);
		if (r->has_metric)
			jsonw_float_field_fmt(ft_jw, "metric", "%.9g", r->metric);
		else
			jsonw_null_field(ft_jw, "metric");
		if (r->has_other)
			jsonw_float_field_fmt(ft_jw, "other_cpu_seconds", "%.2f", r->other);
		else
			jsonw_null_field(ft_jw, "other_cpu_seconds");
		jsonw_string_field(ft_jw, "loadavg_before", r->la0);
		jsonw_string_field(ft_jw, "loadavg_after", r->la1);
		jsonw_bool_field(ft_jw, "interrupted", r->r.interrupted != NULL);
		jsonw_end_object(ft_jw);
	}
	jsonw_end_array(ft_jw);
	jsonw_name(ft_jw, "results");
	jsonw_start_array(ft_jw);
	for (i = 0; i < nres; i++)
		ft_ab_json_res(&res[i]);
	jsonw_end_array(ft_jw);
	jsonw_end_object(ft_jw);
}

static void ft_ab_text_res(const struct ft_ab_res *r)
{
	static const char *const arm[] = { "A", "B" };
	char v[256];
	int i;

	printf("%-22s %12s %12s %12s %12s\n", r->name, "median", "IQR", "min", "max");
	for (i = 0; i < 2; i++)
		printf("  %-20s %12.6g %12.6g %12.6g %12.6g\n", arm[i], r->cmp.s[i].median,
		       r->cmp.s[i].q3 - r->cmp.s[i].q1, r->cmp.s[i].min, r->cmp.s[i].max);
	if (r->cmp.ratio)
		printf("  B/A %.4f, %.1f%% CI %.4f..%.4f (Hodges-Lehmann, paired log ratios)\n",
		       r->cmp.est, 100 * r->cmp.hl.level, r->cmp.lo, r->cmp.hi);
	else
		printf("  B-A %.6g, %.1f%% CI %.6g..%.6g (Hodges-Lehmann, paired differences)\n",
		       r->cmp.est, 100 * r->cmp.hl.level, r->cmp.lo, r->cmp.hi);
	printf("  Wilcoxon signed-rank: n=%zu%s%s, W+=%.1f, exact p=%.4g\n", r->cmp.w.n,
	       r->cmp.w.nzero ? " (zero differences dropped)" : "",
	       r->cmp.w.ties ? " (ties: mid-ranks)" : "", r->cmp.w.w_plus, r->cmp.w.p);
	printf("  verdict: %s\n\n", ft_ab_verdict(r, v, sizeof(v)));
}

static void ft_ab_text(const struct ft_ab_data *d, const struct ft_ab_res *res,
		       size_t nres, size_t nfixed)
{
	double *other = ft_xcalloc(d->nrec + 1, sizeof(*other));
	size_t i, nother = 0;
	struct ft_summary so;

	printf("ab file:  %s\n", d->path);
	printf("command:  %s\n", d->command ? d->command : "");
	if (d->prepare)
		printf("prepare:  %s (before every run, untimed)\n", d->prepare);
	printf("arm A:    %s\n", d->arm[0] && *d->arm[0] ? d->arm[0] : "(the settings found)");
	printf("arm B:    %s%s\n", d->arm[1] && *d->arm[1] ? d->arm[1] : "(the settings found)",
	       d->aa ? " (A/A: the noise floor)" : "");
	printf("runs:     %zu of %u pairs, %s order, %u warm-up run%s%s%s\n", d->npairs,
	       d->pairs, d->order ? d->order : "?", d->warmup, d->warmup == 1 ? "" : "s",
	       d->interrupted ? ", interrupted by " : "",
	       d->interrupted ? d->interrupted : "");
	printf("kernel:   %s %s, verified build: %s\n",
	       ft_ab_env_or(d, "kernel_release"), ft_ab_env_or(d, "kernel_version"),
	       ft_ab_env_or(d, "verified_build"));
	printf("cpu:      %s, %s CPUs, emulation: %s\n",
	       ft_ab_env_or(d, "cpu_model"),
	       ft_ab_env_or(d, "cpus"),
	       ft_ab_env_or(d, "emulation"));
	printf("mm:       mglru %s; THP %s, defrag %s, shmem %s; mTHP %s; fault_around_bytes %s\n",
	       ft_ab_env_or(d, "mglru"),
	       ft_ab_env_or(d, "thp_enabled"),
	       ft_ab_env_or(d, "thp_defrag"),
	       ft_ab_env_or(d, "thp_shmem_enabled"),
	       ft_ab_env_or(d, "mthp_enabled"),
	       ft_ab_env_or(d, "fault_around_bytes"));
	printf("knobs:    ");
	for (i = 0; i < d->nenv; i++)
		if (!strcmp(d->env[i].key, "knob")) {
			const char *v = d->env[i].value, *sp = strchr(v, ' ');

			if (sp)
				printf("%.*s=%s ", (int)(sp - v), v, sp + 1);
		}
	printf("(before the runs)\n");
	for (i = 0; i < d->nrec; i++)
		if (d->rec[i].has_other)
			other[nother++] = d->rec[i].other;
	printf("load:     %s before, %s after",
	       ft_ab_env_or(d, "loadavg_before"),
	       d->nrec ? d->rec[d->nrec - 1].la1 : "?");
	if (nother) {
		ft_summarise(other, nother, &so);
		printf("; CPU time of other processes: median %.2f s per run", so.median);
	}
	printf("\nmeasured: knobs and counters are machine-wide: the deltas include every process\n\n");
	free(other);

	if (!d->npairs) {
		printf("no complete pair: nothing to compare\n");
		return;
	}
	for (i = 0; i < nfixed; i++)
		ft_ab_text_res(&res[i]);
	if (nres == nfixed) {
		printf("no counter's deltas differ between the arms\n");
		return;
	}
	/* every counter has the same pairs, so the same exact level */
	printf("counters whose deltas differ between the arms (B-A: Hodges-Lehmann shift,\n"
	       "%.1f%% CI; exact Wilcoxon signed-rank p; 'could detect': the smallest effect\n"
	       "these runs could show, in %% of A's median):\n", 100 * res[nfixed].cmp.hl.level);
	printf("%-40s %12s %12s %12s %25s %8s  %s\n", "counter", "A median", "B median",
	       "B-A", "CI", "p", "verdict");
	for (i = nfixed; i < nres; i++) {
		const struct ft_ab_res *r = &res[i];
		char ci[64], v[64], pct[32];

		snprintf(ci, sizeof(ci), "%.6g..%.6g", r->cmp.lo, r->cmp.hi);
		if (r->cmp.verdict)
			snprintf(v, sizeof(v), "%s", r->cmp.verdict > 0 ? "B higher" : "B lower");
		else if (!r->cmp.can_detect)
			snprintf(v, sizeof(v), "none shown (too few non-zero differences)");
		else if (r->cmp.detect_abs)
			snprintf(v, sizeof(v), "none shown (could detect %.4g)", r->cmp.detect);
		else
			snprintf(v, sizeof(v), "none shown (could detect %s%%)",
				 ft_ab_pct(100 * r->cmp.detect, pct, sizeof(pct)));
		printf("%-40s %12.6g %12.6g %12.6g %25s %8.4g  %s\n", r->name, r->cmp.s[0].median,
		       r->cmp.s[1].median, r->cmp.est, ci, r->cmp.w.p, v);
	}
}

int ft_ab_report_file(const char *path)
{
	struct ft_ab_data d;
	struct ft_ab_res *res;
	char msg[FT_MSG_MAX], *buf;
	size_t nres, nfixed;
	int err;

	err = ft_read_file(path, &buf, NULL);
	if (err)
		return ft_runtime_error(-err, "%s: %s", path, strerror(-err));
	err = ft_ab_parse(path, buf, &d, msg, sizeof(msg));
	free(buf);
	if (err) {
		ft_ab_data_free(&d);
		return ft_runtime_error(-err, "%s", msg);
	}
	res = ft_ab_results(&d, &nres, &nfixed);
	if (ft_json)
		ft_ab_json(&d, res, nres);
	else
		ft_ab_text(&d, res, nres, nfixed);
	free(res);
	ft_ab_data_free(&d);
	return 0;
}
