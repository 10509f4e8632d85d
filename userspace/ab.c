// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ab.c - the ab command: run a workload in pairs under two knob settings
 * (arms A and B) in ABBA order, record every run as record does into one
 * ab file (the man page, AB FILES), restore the knobs and print the file's
 * report (ab_report.c): whether B differs from A, by the statistics of
 * statistics.c.  "compare AB_FILE" prints the same report, and the analyze
 * command (analyze.c) the same analysis and verdicts for values measured
 * elsewhere (the bench reports).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab_report.h"
#include "build_info.h"
#include "child.h"
#include "clock.h"
#include "commands.h"
#include "env.h"
#include "fileio.h"
#include "foliotune.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "privilege.h"
#include "record_file.h"
#include "snapshot.h"
#include "statistics.h"
#include "sysinfo.h"
#include "xalloc.h"

#define FT_AB_MIN_PAIRS	3
#define FT_AB_PAIRS	8

/* ---- the arms ---- */

struct ft_ab_knob {
	const struct ft_knob *knob;
	uint64_t val[2];		/* arm A, arm B */
	bool given[2];			/* else the value found before the runs */
	bool implicit;			/* reclaim_probes=1 added like record */
	struct ft_knob_value old;
	bool applied;
};

struct ft_ab {
	struct ft_ab_knob k[FT_NR_KNOBS];
	size_t nk;
	unsigned int pairs, warmup;
	bool aa, random, metric_time;
	unsigned int seed;
	const char *output, *metric_re, *metric_file, *metric_name, *prepare;
	regex_t re;
	bool have_re;
	char **cmd;
	char dir[FT_PATH_MAX], vmstat[FT_PATH_MAX], modstat[FT_PATH_MAX];
	char file[FT_PATH_MAX];
	FILE *out;
	char command[8192];
	/* progress: runs done of all, since when */
	unsigned int done, total;
	double t_start;
};

static struct ft_ab_knob *ft_ab_knob_get(struct ft_ab *ab, const struct ft_knob *k)
{
	size_t i;

	for (i = 0; i < ab->nk; i++)
		if (ab->k[i].knob == k)
			return &ab->k[i];
	memset(&ab->k[ab->nk], 0, sizeof(ab->k[0]));
	ab->k[ab->nk].knob = k;
	return &ab->k[ab->nk++];
}

/* -a/-b KNOB=VALUE (arm 0/1), or -k KNOB=VA,VB (both) */
static int ft_ab_setting(struct ft_ab *ab, int arm, const char *arg)
{
	char msg[FT_MSG_MAX], buf[256], *comma;
	const struct ft_knob *k;
	struct ft_ab_knob *ak;
	uint64_t v[2];
	int ret, i;

	snprintf(buf, sizeof(buf), "%s", arg);
	comma = arm < 0 ? strchr(buf, ',') : NULL;
	if (arm < 0) {
		if (!comma || strchr(comma + 1, ','))
			return ft_usage_error(EINVAL, "ab -k: expected KNOB=VALUE_A,VALUE_B, got '%s'", arg);
		*comma = '\0';
	}
	ret = ft_parse_assignment(buf, &k, &v[0], msg, sizeof(msg));
	if (ret)
		return ft_usage_error(-ret, "%s", msg);
	if (arm < 0) {
		ret = ft_parse_value(k, comma + 1, &v[1], msg, sizeof(msg));
		if (ret)
			return ft_usage_error(-ret, "%s", msg);
	}
	ak = ft_ab_knob_get(ab, k);
	for (i = 0; i < 2; i++) {
		if (arm >= 0 && arm != i)
			continue;
		if (ak->given[i])
			return ft_usage_error(EINVAL, "knob %s set twice for arm %c",
					      k->name, 'A' + i);
		ak->given[i] = true;
		ak->val[i] = arm < 0 ? v[i] : v[0];
	}
	return -1;
}

static const struct option ft_ab_opts[] = {
	{ "arm-a", required_argument, NULL, 'a' },
	{ "arm-b", required_argument, NULL, 'b' },
	{ "knob", required_argument, NULL, 'k' },
	{ "aa", no_argument, NULL, 'A' },
	{ "pairs", required_argument, NULL, 'n' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "random", optional_argument, NULL, 'r' },
	{ "prepare", required_argument, NULL, 'p' },
	{ "metric", required_argument, NULL, 'm' },
	{ "metric-file", required_argument, NULL, 'f' },
	{ "metric-name", required_argument, NULL, 'N' },
	{ "metric-time", no_argument, NULL, 't' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int ft_ab_uint(const char *opt, const char *s, uint64_t max, unsigned int *out)
{
	uint64_t v;

	if (ft_parse_u64(s, false, max, &v))
		return ft_usage_error(EINVAL, "ab %s: invalid number '%s' (0..%" PRIu64 ")",
				      opt, s, max);
	*out = (unsigned int)v;
	return -1;
}

static int ft_ab_args(int argc, char **argv, struct ft_ab *ab)
{
	bool differ = false;
	size_t i;
	int c, ret;

	ab->pairs = FT_AB_PAIRS;
	ab->warmup = 1;
	while ((c = getopt_long(argc, argv, "+:a:b:k:n:w:r::p:m:f:N:to:jh", ft_ab_opts,
				NULL)) != -1) {
		ret = -1;
		switch (c) {
		case 'a':
		case 'b':
			ret = ft_ab_setting(ab, c - 'a', optarg);
			break;
		case 'k':
			ret = ft_ab_setting(ab, -1, optarg);
			break;
		case 'A':
			ab->aa = true;
			break;
		case 'n':
			ret = ft_ab_uint("-n", optarg, FT_STATS_MAX_PAIRS, &ab->pairs);
			break;
		case 'w':
			ret = ft_ab_uint("-w", optarg, 1000, &ab->warmup);
			break;
		case 'r':
			ab->random = true;
			if (optarg)
				ret = ft_ab_uint("--random", optarg, UINT32_MAX, &ab->seed);
			else
				ab->seed = (unsigned int)(time(NULL) ^ getpid());
			break;
		case 'p':
			ab->prepare = optarg;
			break;
		case 'm':
			ab->metric_re = optarg;
			break;
		case 'f':
			ab->metric_file = optarg;
			break;
		case 'N':
			ab->metric_name = optarg;
			break;
		case 't':
			ab->metric_time = true;
			break;
		case 'o':
			ab->output = optarg;
			break;
		default:
			ret = ft_getopt_common(c, argc, argv, "ab");
		}
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	if (optind >= argc)
		return ft_usage_error(EINVAL, "ab: missing COMMAND (usage: ab [options] -- COMMAND [ARG]...)");
	ab->cmd = argv + optind;
	if (ab->pairs < FT_AB_MIN_PAIRS)
		return ft_usage_error(EINVAL, "ab: at least %d pairs (-n): with fewer there is no spread to report and the signed-rank test's smallest p-value is %.2f",
				      FT_AB_MIN_PAIRS, 2.0 / (1u << ab->pairs));
	if (ab->output && !*ab->output)
		return ft_usage_error(EINVAL, "ab: empty output file name");
	if (ab->prepare && !*ab->prepare)
		return ft_usage_error(EINVAL, "ab: empty --prepare command");
	if (ab->metric_name && (!*ab->metric_name || strpbrk(ab->metric_name, " \t\n")))
		return ft_usage_error(EINVAL, "ab: the metric name must be one word");
	if ((ab->metric_name || ab->metric_time) && !ab->metric_re && !ab->metric_file)
		return ft_usage_error(EINVAL, "ab: --metric-name and --metric-time need -m or -f");
	if (ab->metric_re) {
		char msg[256];

		ret = regcomp(&ab->re, ab->metric_re, REG_EXTENDED | REG_NEWLINE);
		if (ret) {
			regerror(ret, &ab->re, msg, sizeof(msg));
			return ft_usage_error(EINVAL, "ab -m: bad regular expression '%s': %s",
					      ab->metric_re, msg);
		}
		ab->have_re = true;
	}
	if ((ab->metric_re || ab->metric_file) && !ab->metric_name)
		ab->metric_name = "metric";
	for (i = 0; i < ab->nk; i++) {
		struct ft_ab_knob *k = &ab->k[i];

		if (ab->aa) {
			/* A/A: one set of settings, applied in both arms */
			if (k->given[1] && (!k->given[0] || k->val[0] != k->val[1]))
				return ft_usage_error(EINVAL, "ab --aa: both arms run the same settings; give them with -a only");
			k->given[1] = k->given[0];
			k->val[1] = k->val[0];
		}
		if (k->given[0] != k->given[1] || k->val[0] != k->val[1])
			differ = true;
	}
	if (!ab->aa && !differ)
		return ft_usage_error(EINVAL, "ab: arms A and B have the same settings (-a, -b or -k); for the noise floor use --aa");
	if (ab->pairs < 6)
		ft_warn("with %u pairs the signed-rank test cannot reach p < %.2f (its smallest p-value is %.3f): the verdict will be 'no difference'",
			ab->pairs, FT_STATS_ALPHA, 2.0 / (1u << ab->pairs));
	return -1;
}

/* ---- running ---- */

static int ft_ab_open(struct ft_ab *ab)
{
	int fd = ft_create_new_file(ab->output, "ab", ab->file, sizeof(ab->file));

	if (fd < 0)
		return ft_new_file_error(-fd, ab->file, "ab files");
	ab->out = fdopen(fd, "w");
	if (!ab->out) {
		close(fd);
		return ft_runtime_error(errno, "%s: %s", ab->file, strerror(errno));
	}
	return 0;
}

/* Everything checked, and the old values read, before any knob changes. */
static int ft_ab_prepare(struct ft_ab *ab)
{
	char msg[FT_MSG_MAX], path[FT_PATH_MAX];
	const struct ft_knob *rp = ft_knob_find("reclaim_probes");
	size_t i;
	int err;

	err = ft_require_root("ab");
	if (err)
		return err;
	err = ft_find_debugfs_dir(ab->dir, sizeof(ab->dir), msg, sizeof(msg));
	if (err)
		return ft_runtime_error(-err, "%s", msg);
	if (ft_join(ab->modstat, sizeof(ab->modstat), ab->dir, FOLIOTUNE_VMSTAT_FILE) ||
	    ft_path(ab->vmstat, sizeof(ab->vmstat), "/proc/vmstat"))
		return ft_runtime_error(ENAMETOOLONG, "path too long");
	/* like record: the reclaim probes count in both arms unless set */
	if (rp && !ft_join(path, sizeof(path), ab->dir, rp->name) && ft_exists(path)) {
		struct ft_ab_knob *k = ft_ab_knob_get(ab, rp);

		if (!k->given[0] && !k->given[1]) {
			k->given[0] = k->given[1] = true;
			k->val[0] = k->val[1] = 1;
			k->implicit = true;
		}
	}
	for (i = 0; i < ab->nk; i++) {
		struct ft_ab_knob *k = &ab->k[i];

		err = ft_knob_read(ab->dir, k->knob, &k->old);
		if (err == -ENOENT)
			return ft_runtime_error(ENOENT, "knob %s is not provided by this module",
						k->knob->name);
		if (err) {
			if (ft_join(path, sizeof(path), ab->dir, k->knob->name))
				path[0] = '\0';
			ft_explain_debugfs_errno(-err, path, msg, sizeof(msg));
			return ft_runtime_error(-err, "cannot read %s: %s", k->knob->name, msg);
		}
	}
	return 0;
}

static void ft_ab_value(const struct ft_ab_knob *k, int arm, char *buf, size_t len)
{
	if (k->given[arm])
		snprintf(buf, len, "%" PRIu64, k->val[arm]);
	else
		snprintf(buf, len, "%s", k->old.text);
}

static int ft_ab_apply(struct ft_ab *ab, int arm)
{
	char text[64], msg[FT_MSG_MAX], path[FT_PATH_MAX];
	size_t i;
	int err;

	for (i = 0; i < ab->nk; i++) {
		struct ft_ab_knob *k = &ab->k[i];

		ft_ab_value(k, arm, text, sizeof(text));
		k->applied = true;
		err = ft_knob_write(ab->dir, k->knob, text);
		if (err) {
			if (ft_join(path, sizeof(path), ab->dir, k->knob->name))
				path[0] = '\0';
			ft_explain_debugfs_errno(-err, path, msg, sizeof(msg));
			return ft_runtime_error(-err, "cannot set %s=%s: %s", k->knob->name,
						text, msg);
		}
	}
	return 0;
}

/* Restore in reverse order; returns the number of failures. */
static int ft_ab_restore(struct ft_ab *ab)
{
	int failed = 0;
	size_t i;

	for (i = ab->nk; i-- > 0;) {
		struct ft_ab_knob *k = &ab->k[i];

		if (!k->applied)
			continue;
		if (ft_knob_restore(ab->dir, k->knob, k->old.text))
			failed++;
		else
			k->applied = false;
	}
	return failed;
}

/*
 * The metric in text: the last line matching the regular expression (its
 * first group if it has one, else the first number of the match), or
 * without one the first number of text.  false if none.
 */
static bool ft_ab_parse_metric(const regex_t *re, const char *text, double *out)
{
	regmatch_t m[2];
	const char *s = text, *from, *to;
	bool found = false;
	char *end;

	if (!re) {
		for (; *s; s++) {
			*out = strtod(s, &end);
			if (end != s && (s == text || !((s[-1] >= 'a' && s[-1] <= 'z') ||
						    (s[-1] >= 'A' && s[-1] <= 'Z'))))
				return true;
		}
		return false;
	}
	while (*s && !regexec(re, s, 2, m, s == text ? 0 : REG_NOTBOL)) {
		bool group = re->re_nsub >= 1 && m[1].rm_so >= 0;

		from = s + (group ? m[1].rm_so : m[0].rm_so);
		to = s + (group ? m[1].rm_eo : m[0].rm_eo);
		for (; from < to; from++) {
			double v = strtod(from, &end);

			if (end != from && end <= to) {
				*out = v;
				found = true;
				break;
			}
		}
		s += m[0].rm_eo > m[0].rm_so ? m[0].rm_eo : m[0].rm_eo + 1;
		if (s > text + strlen(text))
			break;
	}
	return found;
}

struct ft_ab_run {
	unsigned int seq, pair;
	int arm;
	bool warm;
};

static void ft_ab_describe(const struct ft_ab_run *r, char *buf, size_t len)
{
	if (r->warm)
		snprintf(buf, len, "warm-up run %u (arm %c)", r->seq, 'A' + r->arm);
	else
		snprintf(buf, len, "run %u (pair %u, arm %c)", r->seq, r->pair, 'A' + r->arm);
}

/*
 * After each run, as hyperfine shows it: "run 5/14 (pair 2, arm A): 0.412
 * s; ~2 min left", the time left from the mean time per run so far
 * (preparation included).
 */
static void ft_ab_progress(struct ft_ab *ab, const struct ft_ab_run *r, double wall,
			   bool has_metric, double metric)
{
	char what[64], val[96] = "", left[32] = "";
	double per, rest;

	ab->done++;
	if (r->warm)
		snprintf(what, sizeof(what), "warm-up, arm %c", 'A' + r->arm);
	else
		snprintf(what, sizeof(what), "pair %u, arm %c", r->pair, 'A' + r->arm);
	if (has_metric)
		snprintf(val, sizeof(val), ", %s %g", ab->metric_name, metric);
	per = (ft_now() - ab->t_start) / ab->done;
	rest = per * (ab->total - ab->done);
	if (ab->done < ab->total && rest < 90)
		snprintf(left, sizeof(left), "; ~%.0f s left", rest);
	else if (ab->done < ab->total)
		snprintf(left, sizeof(left), "; ~%.0f min left", rest / 60);
	ft_note("run %u/%u (%s): %.3f s%s%s", ab->done, ab->total, what, wall, val, left);
}

/* --prepare: sh -c CMD, untimed, its output kept off ours; 0 or an exit code. */
static int ft_ab_prepare_run(struct ft_ab *ab, const char *what)
{
	char *argv[] = { "/bin/sh", "-c", (char *)ab->prepare, NULL };
	struct rusage ru;
	double wall;
	int fd, status, ret;

	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ret = ft_run_child(argv, fd, &status, &wall, &ru);
	if (fd >= 0)
		close(fd);
	if (ret || ft_stop_sig)
		return ret;
	if (WIFSIGNALED(status))
		return ft_runtime_error(ECHILD, "%s failed: its --prepare command was killed by signal %d (%s)",
					what, WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status))
		return ft_runtime_error(ECHILD, "%s failed: its --prepare command exited with status %d",
					what, WEXITSTATUS(status));
	return 0;
}

/* One run; 0, or an exit code (the run failed, or could not start). */
static int ft_ab_run_one(struct ft_ab *ab, const struct ft_ab_run *run)
{
	struct ft_snapshot m0 = { 0 }, m1 = { 0 }, v0 = { 0 }, v1 = { 0 };
	struct ft_record rec;
	char date[32], la0[64], la1[64], what[96], msg[FT_MSG_MAX], *text = NULL;
	struct rusage ru;
	struct tm tm;
	time_t now;
	double wall, busy0, busy1, metric = 0;
	int status, ret = 0, err, capture = -1;
	bool has_metric = false;
	size_t i;

	memset(&rec, 0, sizeof(rec));
	rec.exit_code = rec.exit_signal = -1;
	ft_ab_describe(run, what, sizeof(what));
	ret = ft_ab_apply(ab, run->arm);
	if (ret)
		return ret;
	/* after the arm's knobs, before the snapshots: out of the deltas */
	if (ab->prepare) {
		ret = ft_ab_prepare_run(ab, what);
		if (ret || ft_stop_sig)
			return ret;
	}
	if (ab->have_re && !ab->metric_file) {
		FILE *tf = tmpfile();

		if (!tf)
			return ft_runtime_error(errno, "tmpfile: %s", strerror(errno));
		capture = dup(fileno(tf));
		fclose(tf);
		if (capture < 0)
			return ft_runtime_error(errno, "dup: %s", strerror(errno));
	}
	err = ft_snapshot_read(ab->modstat, &m0);
	if (!err)
		err = ft_snapshot_read(ab->vmstat, &v0);
	if (err) {
		ret = ft_runtime_error(-err, "cannot read the counters: %s", strerror(-err));
		goto out;
	}
	ft_env_loadavg(la0, sizeof(la0));
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	busy0 = ft_env_busy();
	/* the child's stdout: captured for the metric, else kept off the JSON */
	ret = ft_run_child(ab->cmd, capture >= 0 ? capture : ft_json ? STDERR_FILENO : -1,
			   &status, &wall, &ru);
	busy1 = ft_env_busy();
	ft_env_loadavg(la1, sizeof(la1));
	if (ret)
		goto out;
	if (WIFEXITED(status))
		rec.exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		rec.exit_signal = WTERMSIG(status);

	if (ab->metric_file || capture >= 0) {
		if (capture >= 0) {
			snprintf(msg, sizeof(msg), "/proc/self/fd/%d", capture);
			err = ft_read_file(msg, &text, NULL);
		} else {
			err = ft_read_file(ab->metric_file, &text, NULL);
		}
		if (!err)
			has_metric = ft_ab_parse_metric(ab->have_re ? &ab->re : NULL, text,
							&metric);
	}
	err = ft_snapshot_read(ab->modstat, &m1);
	if (!err)
		err = ft_snapshot_read(ab->vmstat, &v1);
	if (err) {
		ret = ft_runtime_error(-err, "%s: cannot read the counters after it: %s",
				       what, strerror(-err));
		goto out;
	}
	if (run->warm) {
		fprintf(ab->out, "# %s: %.6f s, exit %d\n", what, wall, rec.exit_code);
	} else {
		rec.date = ft_strdup(date);
		{
			char rel[256], ver[512];

			if (ft_kernel_release(rel, sizeof(rel)))
				snprintf(rel, sizeof(rel), "unknown");
			if (ft_kernel_version(ver, sizeof(ver)))
				snprintf(ver, sizeof(ver), "unknown");
			rec.kernel_release = ft_strdup(rel);
			rec.kernel_version = ft_strdup(ver);
		}
		rec.module = ft_strdup("loaded");
		snprintf(msg, sizeof(msg), "%c", 'A' + run->arm);
		rec.label = ft_strdup(msg);
		rec.command = ft_strdup(ab->command);
		rec.has_wall = true;
		rec.wall = wall;
		if (ft_stop_sig)
			rec.interrupted = ft_strdup(strsignal(ft_stop_sig));
		for (i = 0; i < ft_nr_knobs; i++) {
			struct ft_knob_value kv;

			if (!ft_knob_read(ab->dir, &ft_knobs[i], &kv))
				ft_record_add_knob(&rec.knobs, &rec.nknobs, ft_knobs[i].name,
						   kv.text, NULL);
		}
		for (i = 0; i < ab->nk; i++) {
			char text2[64];

			ft_ab_value(&ab->k[i], run->arm, text2, sizeof(text2));
			ft_record_add_knob(&rec.sets, &rec.nsets, ab->k[i].knob->name, text2,
					   ab->k[i].old.text);
		}
		ft_record_add_deltas(&rec, FOLIOTUNE_NAME, &m0, &m1);
		ft_record_add_deltas(&rec, "vmstat", &v0, &v1);
		ft_record_write(ab->out, &rec);
		fprintf(ab->out, "ab_run %u %u %c\n", run->seq, run->pair, 'A' + run->arm);
		if (has_metric)
			fprintf(ab->out, "metric %.9g\n", metric);
		if (busy0 >= 0 && busy1 >= 0) {
			double own = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
				     (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;

			fprintf(ab->out, "other_cpu_seconds %.2f\n", fmax(0.0, busy1 - busy0 - own));
		}
		ft_env_put(ab->out, "loadavg_before", la0);
		ft_env_put(ab->out, "loadavg_after", la1);
	}
	if (fflush(ab->out) || ferror(ab->out)) {
		ret = ft_runtime_error(EIO, "cannot write %s", ab->file);
		goto out;
	}
	if (ft_stop_sig)
		goto out;
	if (rec.exit_signal >= 0)
		ret = ft_runtime_error(ECHILD, "%s failed: the command was killed by signal %d (%s)",
				       what, rec.exit_signal, strsignal(rec.exit_signal));
	else if (rec.exit_code != 0)
		ret = ft_runtime_error(ECHILD, "%s failed: the command exited with status %d",
				       what, rec.exit_code);
	else if ((ab->metric_file || ab->have_re) && !has_metric)
		ret = ft_runtime_error(ENODATA, "%s failed: no %s in %s", what,
				       ab->have_re ? "line matching the metric's expression" : "number",
				       ab->metric_file ? ab->metric_file : "the command's output");
	else
		ft_ab_progress(ab, run, wall, has_metric, metric);
out:
	if (capture >= 0)
		close(capture);
	free(text);
	ft_snapshot_free(&m0);
	ft_snapshot_free(&m1);
	ft_snapshot_free(&v0);
	ft_snapshot_free(&v1);
	ft_record_free(&rec);
	return ret;
}

static void ft_ab_header(struct ft_ab *ab)
{
	FILE *f = ab->out;
	char v[64];
	size_t i;
	int arm;

	fprintf(f, "%s%d\n", FT_AB_MAGIC, FT_AB_VERSION);
	fprintf(f, "# written by %s %s; format: see %s(8), AB FILES\n",
		FOLIOTUNE_NAME, FOLIOTUNE_VERSION, FOLIOTUNE_NAME);
	fprintf(f, "# counters and knobs are machine-wide: the deltas include every process\n");
	ft_env_put(f, "tool", FOLIOTUNE_NAME " " FOLIOTUNE_VERSION);
	ft_env_put(f, "command", ab->command);
	fprintf(f, "pairs %u\nwarmup %u\n", ab->pairs, ab->warmup);
	if (ab->random)
		fprintf(f, "order random %u\n", ab->seed);
	else
		fprintf(f, "order ABBA\n");
	fprintf(f, "aa %d\n", ab->aa);
	if (ab->prepare)
		ft_env_put(f, "prepare", ab->prepare);
	if (ab->metric_name) {
		ft_env_put(f, "metric_name", ab->metric_name);
		fprintf(f, "metric_time %d\n", ab->metric_time);
		if (ab->metric_re)
			ft_env_put(f, "metric_regex", ab->metric_re);
		if (ab->metric_file)
			ft_env_put(f, "metric_file", ab->metric_file);
	}
	for (arm = 0; arm < 2; arm++) {
		fprintf(f, "arm %c", 'A' + arm);
		for (i = 0; i < ab->nk; i++) {
			ft_ab_value(&ab->k[i], arm, v, sizeof(v));
			fprintf(f, " %s=%s", ab->k[i].knob->name, v);
		}
		fputc('\n', f);
	}
	ft_env_write(f, ab->dir);
}

/* xorshift32: the same seed gives the same order on every libc */
static unsigned int ft_ab_rand(unsigned int *s)
{
	unsigned int x = *s ? *s : 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

static int ft_ab_runs(struct ft_ab *ab)
{
	struct ft_ab_run run = { 0 };
	unsigned int i, p, st = ab->seed;
	int ret = 0, first;

	ab->total = ab->warmup + 2 * ab->pairs;
	ab->t_start = ft_now();
	for (i = 0; i < ab->warmup && !ret && !ft_stop_sig; i++) {
		run.seq = i + 1;
		run.arm = (int)(i & 1);
		run.warm = true;
		ret = ft_ab_run_one(ab, &run);
	}
	run.warm = false;
	run.seq = 0;
	for (p = 0; p < ab->pairs && !ret && !ft_stop_sig; p++) {
		/* ABBA: AB BA AB BA ...; random: a coin per pair */
		first = ab->random ? (int)((ft_ab_rand(&st) >> 16) & 1) : (int)(p & 1);
		for (i = 0; i < 2 && !ret && !ft_stop_sig; i++) {
			run.seq++;
			run.pair = p + 1;
			run.arm = i ? !first : first;
			ret = ft_ab_run_one(ab, &run);
		}
	}
	return ret;
}

int ft_cmd_ab(int argc, char **argv)
{
	struct ft_ab *ab;
	int ret, failed = 0;

	ab = calloc(1, sizeof(*ab));
	if (!ab)
		return ft_runtime_error(ENOMEM, "out of memory");
	ret = ft_ab_args(argc, argv, ab);
	if (ret >= 0)
		goto out;
	ft_quote_command(ab->cmd, ab->command, sizeof(ab->command));
	ret = ft_ab_prepare(ab);
	if (ret)
		goto out;
	ret = ft_ab_open(ab);
	if (ret)
		goto out;
	ft_install_signals();
	ft_ab_header(ab);
	ft_env_warn_busy();
	if (ab->random)
		ft_note("random order, seed %u (--random=%u repeats it)", ab->seed, ab->seed);
	ret = ft_ab_runs(ab);
	failed = ft_ab_restore(ab);
	if (ft_stop_sig && !ret) {
		fprintf(ab->out, "ab_interrupted %s\n", strsignal(ft_stop_sig));
		ret = 128 + ft_stop_sig;
	}
	if (fclose(ab->out) && !ret)
		ret = ft_runtime_error(errno, "cannot write %s: %s", ab->file, strerror(errno));
	ab->out = NULL;
	if (failed)
		ret = ft_runtime_error(EIO, "%d setting(s) could not be restored", failed);
	if (ret) {
		ft_warn("knobs restored; the runs done so far are in %s", ab->file);
		goto out;
	}
	ret = ft_ab_report_file(ab->file);
out:
	if (ab->out)
		fclose(ab->out);
	if (ab->have_re)
		regfree(&ab->re);
	free(ab);
	return ret;
}
