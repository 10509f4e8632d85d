// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ab_report.c - the report of an ab file (ab_file.c) as text or JSON:
 * per result (the wall time, the metric, every counter whose deltas differ
 * between the arms) the arms' summaries, B against A with its interval,
 * the signed-rank p-value and a verdict.  "ab" prints it at the end of its
 * runs and "compare AB_FILE" for a file written before; the analyze
 * command prints its results as this report does.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_file.h"
#include "ab_report.h"
#include "fileio.h"
#include "json_writer.h"
#include "output.h"
#include "statistics.h"
#include "xalloc.h"

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
	jsonw_string_or_null_field(ft_jw, "prepare", d->prepare);
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
	jsonw_string_or_null_field(ft_jw, "interrupted", d->interrupted);
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
