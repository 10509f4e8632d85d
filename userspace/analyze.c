// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * analyze.c - the analyze command: the statistics of ab (statistics.c) on
 * values measured elsewhere, "NAME VALUE" samples and "NAME A B" pairs,
 * with ab's verdicts (ab_report.c), so that the benchmark reports have no
 * median, spread or outlier rule of their own.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab_report.h"
#include "commands.h"
#include "fileio.h"
#include "json_writer.h"
#include "options.h"
#include "output.h"
#include "statistics.h"
#include "xalloc.h"

struct ft_st_key {
	char *name;
	int nval;		/* 1: samples, 2: pairs */
	size_t n, cap;
	double *v[2];
	unsigned int line;	/* the first line of this name */
};

struct ft_st {
	struct ft_st_key *key;	/* in first-seen order */
	size_t nkey, capkey;
	size_t *hash, nhash;	/* index + 1 into key; 0: empty */
};

static size_t ft_st_hash(const char *s)
{
	size_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void ft_st_rehash(struct ft_st *st)
{
	size_t i, h;

	free(st->hash);
	st->nhash = st->nhash ? 2 * st->nhash : 256;
	st->hash = ft_xcalloc(st->nhash, sizeof(*st->hash));
	for (i = 0; i < st->nkey; i++) {
		for (h = ft_st_hash(st->key[i].name) & (st->nhash - 1); st->hash[h];
		     h = (h + 1) & (st->nhash - 1))
			;
		st->hash[h] = i + 1;
	}
}

static struct ft_st_key *ft_st_get(struct ft_st *st, const char *name, int nval,
				   unsigned int line)
{
	struct ft_st_key *k;
	size_t h;

	if (2 * (st->nkey + 1) > st->nhash)
		ft_st_rehash(st);
	for (h = ft_st_hash(name) & (st->nhash - 1); st->hash[h];
	     h = (h + 1) & (st->nhash - 1))
		if (!strcmp(st->key[st->hash[h] - 1].name, name))
			return &st->key[st->hash[h] - 1];
	if (st->nkey == st->capkey) {
		st->capkey = st->capkey ? 2 * st->capkey : 64;
		st->key = ft_xrealloc(st->key, st->capkey * sizeof(*st->key));
	}
	k = &st->key[st->nkey];
	memset(k, 0, sizeof(*k));
	k->name = ft_strdup(name);
	k->nval = nval;
	k->line = line;
	st->hash[h] = ++st->nkey;
	return k;
}

static void ft_st_free(struct ft_st *st)
{
	size_t i;

	for (i = 0; i < st->nkey; i++) {
		free(st->key[i].name);
		free(st->key[i].v[0]);
		free(st->key[i].v[1]);
	}
	free(st->key);
	free(st->hash);
}

/*
 * "NAME VALUE" (a sample) and "NAME A B" (a pair) lines; blank lines and
 * "#" comments skipped.  One name is either kind, never both.
 */
static int ft_st_parse(const char *path, char *buf, struct ft_st *st, char *msg,
		       size_t msglen)
{
	unsigned int lineno = 0;
	char *l, *next;

	for (l = buf; l && *l; l = next) {
		char *tok[5], *save = NULL, *end;
		double x[2];
		struct ft_st_key *k;
		int nt = 0, i;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		for (tok[0] = strtok_r(l, " \t\r", &save); tok[nt] && nt < 4;)
			tok[++nt] = strtok_r(NULL, " \t\r", &save);
		if (!nt || tok[0][0] == '#')
			continue;
		if (nt < 2 || nt > 3) {
			snprintf(msg, msglen, "%s:%u: expected NAME VALUE or NAME A B", path, lineno);
			return -EINVAL;
		}
		if (strlen(tok[0]) >= sizeof(((struct ft_ab_res *)0)->name)) {
			snprintf(msg, msglen, "%s:%u: name longer than %zu characters", path, lineno,
				 sizeof(((struct ft_ab_res *)0)->name) - 1);
			return -EINVAL;
		}
		for (i = 0; i < nt - 1; i++) {
			errno = 0;
			x[i] = strtod(tok[i + 1], &end);
			if (errno || end == tok[i + 1] || *end || !isfinite(x[i])) {
				snprintf(msg, msglen, "%s:%u: '%s' is not a finite number", path,
					 lineno, tok[i + 1]);
				return -EINVAL;
			}
		}
		k = ft_st_get(st, tok[0], nt - 1, lineno);
		if (k->nval != nt - 1) {
			snprintf(msg, msglen, "%s:%u: %s has %s on line %u and %s here", path,
				 lineno, tok[0], k->nval == 1 ? "a sample" : "a pair", k->line,
				 nt == 2 ? "a sample" : "a pair");
			return -EINVAL;
		}
		if (k->n == FT_STATS_MAX_PAIRS * 100) {
			snprintf(msg, msglen, "%s:%u: more than %d values of %s", path, lineno,
				 FT_STATS_MAX_PAIRS * 100, tok[0]);
			return -E2BIG;
		}
		if (k->n == k->cap) {
			k->cap = k->cap ? 2 * k->cap : 8;
			for (i = 0; i < k->nval; i++)
				k->v[i] = ft_xrealloc(k->v[i], k->cap * sizeof(double));
		}
		for (i = 0; i < k->nval; i++)
			k->v[i][k->n] = x[i];
		k->n++;
	}
	return 0;
}

static void ft_st_samples(const struct ft_st_key *k)
{
	struct ft_summary s;
	size_t i, nout = 0;

	ft_summarise(k->v[0], k->n, &s);
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "name", k->name);
		jsonw_string_field(ft_jw, "kind", "samples");
		jsonw_uint_field(ft_jw, "n", s.n);
		jsonw_float_field_fmt(ft_jw, "median", "%.10g", s.median);
		jsonw_float_field_fmt(ft_jw, "q1", "%.10g", s.q1);
		jsonw_float_field_fmt(ft_jw, "q3", "%.10g", s.q3);
		jsonw_float_field_fmt(ft_jw, "min", "%.10g", s.min);
		jsonw_float_field_fmt(ft_jw, "max", "%.10g", s.max);
		jsonw_name(ft_jw, "outliers");
		jsonw_start_array(ft_jw);
		for (i = 0; i < k->n; i++)
			if (ft_outlier(k->v[0][i], &s))
				jsonw_uint(ft_jw, i + 1);
		jsonw_end_array(ft_jw);
		jsonw_end_object(ft_jw);
		return;
	}
	printf("%s\tsamples\t%zu\t%.10g\t%.10g\t%.10g\t%.10g\t%.10g\t", k->name, s.n,
	       s.median, s.q1, s.q3, s.min, s.max);
	for (i = 0; i < k->n; i++)
		if (ft_outlier(k->v[0][i], &s))
			printf("%s%zu", nout++ ? "," : "", i + 1);
	printf("%s\n", nout ? "" : "-");
}

static void ft_st_pairs(const struct ft_st_key *k, bool time)
{
	static const char *const code[] = { "lower", "none", "higher" };
	struct ft_ab_res r = { 0 };
	bool pos = true;
	char v[256];
	size_t i;

	for (i = 0; i < k->n; i++)
		pos &= k->v[0][i] > 0 && k->v[1][i] > 0;
	snprintf(r.name, sizeof(r.name), "%s", k->name);
	r.kind = time ? FT_AB_METRIC_TIME : FT_AB_METRIC;
	ft_paired(k->v[0], k->v[1], k->n, pos, &r.cmp);
	if (ft_json) {
		ft_ab_json_res(&r);
		return;
	}
	printf("%s\tpairs\t%zu\t%.10g\t%.10g\t%s\t%.10g\t%.10g\t%.10g\t%.6g\t%s\t%s\t%.4f\n",
	       r.name, k->n, r.cmp.s[0].median, r.cmp.s[1].median, r.cmp.ratio ? "B/A" : "B-A",
	       r.cmp.est, r.cmp.lo, r.cmp.hi, r.cmp.w.p,
	       r.cmp.verdict ? code[r.cmp.verdict + 1] : r.cmp.can_detect ? "none" : "few",
	       ft_ab_verdict(&r, v, sizeof(v)), r.cmp.hl.level);
}

static const struct option ft_analyze_opts[] = {
	{ "time", no_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * analyze [-t] [FILE]: the statistics of ab on values measured elsewhere
 * (a benchmark script's runs, or by hand), so that there is one home for
 * medians, spread, the outlier rule and the verdicts.
 */
int ft_cmd_analyze(int argc, char **argv)
{
	struct ft_st st = { 0 };
	const char *path = "-";
	char msg[FT_MSG_MAX], *buf;
	bool time = false;
	size_t i;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":tjh", ft_analyze_opts, NULL)) != -1) {
		if (c == 't') {
			time = true;
			continue;
		}
		ret = ft_getopt_common(c, argc, argv, "analyze");
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	if (argc - optind > 1)
		return ft_usage_error(EINVAL, "analyze: at most one FILE");
	if (argc - optind == 1)
		path = argv[optind];
	/* standard input is fd 0: a box or chroot may have no /dev/stdin */
	if (strcmp(path, "-"))
		ret = ft_read_file(path, &buf, NULL);
	else
		ret = ft_read_fd(STDIN_FILENO, &buf, NULL);
	if (ret)
		return ft_runtime_error(-ret, "%s: %s", strcmp(path, "-") ? path :
					"standard input", strerror(-ret));
	ret = ft_st_parse(path, buf, &st, msg, sizeof(msg));
	free(buf);
	if (!ret && !st.nkey) {
		/* an upstream step that printed nothing must not pass for a result */
		snprintf(msg, sizeof(msg), "%s: no values read (expected NAME VALUE or NAME A B lines)",
			 path);
		ret = -ENODATA;
	}
	if (ret) {
		ft_st_free(&st);
		return ft_usage_error(-ret, "analyze: %s", msg);
	}
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_float_field_fmt(ft_jw, "alpha", "%.2f", FT_STATS_ALPHA);
		/* the level aimed at; each result has its interval's exact one (ci_level) */
		jsonw_float_field_fmt(ft_jw, "ci_level_target", "%.2f", FT_STATS_LEVEL);
		jsonw_name(ft_jw, "results");
		jsonw_start_array(ft_jw);
	} else {
		printf("# NAME\tsamples\tN\tMEDIAN\tQ1\tQ3\tMIN\tMAX\tOUTLIERS\n"
		       "# NAME\tpairs\tN\tA_MEDIAN\tB_MEDIAN\tB/A|B-A\tESTIMATE\tCI_LOW\tCI_HIGH\tP\tVERDICT\tTEXT\tCI_LEVEL\n");
	}
	for (i = 0; i < st.nkey; i++) {
		if (st.key[i].nval == 1)
			ft_st_samples(&st.key[i]);
		else
			ft_st_pairs(&st.key[i], time);
	}
	if (ft_json) {
		jsonw_end_array(ft_jw);
		jsonw_end_object(ft_jw);
	}
	ft_st_free(&st);
	return FT_EXIT_OK;
}
