// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ab.c - the ab command: run a workload in pairs under two knob settings
 * (arms A and B) in ABBA order, record every run as record does, and say
 * with the statistics of stats.c whether B differs from A.  The ab file
 * (the man page, AB FILES) is read back for the report, so "ab" and
 * "compare AB_FILE" print the same thing.  The stats command gives the same
 * analysis and verdicts for values measured elsewhere (the bench reports).
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

#include "ab.h"
#include "env.h"
#include "build_info.h"
#include "counters.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "lifecycle.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "privilege.h"
#include "record.h"
#include "record_file.h"
#include "stats.h"
#include "sysinfo.h"
#include "xalloc.h"

#define FT_AB_MAGIC	"# foliotune ab v"
#define FT_REC_MAGIC	"# foliotune record v"	/* each run's record starts so */
#define FT_AB_VERSION	1
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
	const char *output, *metric_re, *metric_file, *metric_name;
	regex_t re;
	bool have_re;
	char **cmd;
	char dir[FT_PATH_MAX], vmstat[FT_PATH_MAX], modstat[FT_PATH_MAX];
	char file[FT_PATH_MAX];
	FILE *out;
	char command[8192];
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
	while ((c = getopt_long(argc, argv, "+:a:b:k:n:w:r::m:f:N:to:jh", ft_ab_opts,
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
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	int fd = -1, i;

	if (ab->output) {
		snprintf(ab->file, sizeof(ab->file), "%s", ab->output);
		fd = open(ab->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	} else {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		for (i = 1; i < 100; i++) {
			if (i == 1)
				snprintf(ab->file, sizeof(ab->file), "./%s-ab-%s.txt",
					 FOLIOTUNE_NAME, stamp);
			else
				snprintf(ab->file, sizeof(ab->file), "./%s-ab-%s-%d.txt",
					 FOLIOTUNE_NAME, stamp, i);
			fd = open(ab->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			if (fd >= 0 || errno != EEXIST)
				break;
		}
	}
	if (fd < 0) {
		int err = errno;

		if (err == EEXIST)
			return ft_runtime_error(err, "%s already exists (ab files are never overwritten)",
						ab->file);
		return ft_runtime_error(err, "cannot create %s: %s", ab->file, strerror(err));
	}
	ft_give_to_sudo_user(fd, ab->file);
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
	int failed = 0, err;
	size_t i;

	for (i = ab->nk; i-- > 0;) {
		struct ft_ab_knob *k = &ab->k[i];

		if (!k->applied)
			continue;
		err = ft_knob_write(ab->dir, k->knob, k->old.text);
		if (err) {
			ft_warn("cannot restore %s to %s: %s (run '%s set %s %s')",
				k->knob->name, k->old.text, strerror(-err), ft_prog,
				k->knob->name, k->old.text);
			failed++;
		} else {
			k->applied = false;
		}
	}
	return failed;
}

/*
 * The metric in text: the last line matching the regular expression (its
 * first group if it has one, else the first number of the match), or
 * without one the first number of text.  false if none.
 */
bool ft_ab_parse_metric(const regex_t *re, const char *text, double *out)
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
	else if (has_metric)
		ft_note("%s: %.3f s, %s %g", what, wall, ab->metric_name, metric);
	else
		ft_note("%s: %.3f s", what, wall);
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

/* ---- reading an ab file back, and the report ---- */

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
	char *command, *order, *metric_name, *arm[2], *interrupted;
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

bool ft_is_ab_file(const char *buf)
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

enum ft_ab_kind { FT_AB_WALL, FT_AB_METRIC, FT_AB_METRIC_TIME, FT_AB_COUNTER };

struct ft_ab_res {
	char name[160];
	enum ft_ab_kind kind;
	struct ft_paired cmp;
};

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

static const char *ft_ab_verdict(const struct ft_ab_res *r, char *buf, size_t len)
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

static void ft_ab_json_res(const struct ft_ab_res *r)
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
	printf("counters whose deltas differ between the arms (B-A: Hodges-Lehmann shift,\n"
	       "%.0f%% CI; exact Wilcoxon signed-rank p; 'could detect': the smallest effect\n"
	       "these runs could show, in %% of A's median):\n", 100 * FT_STATS_LEVEL);
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

/* ---- stats: the same statistics on values measured elsewhere ---- */

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
	printf("%s\tpairs\t%zu\t%.10g\t%.10g\t%s\t%.10g\t%.10g\t%.10g\t%.6g\t%s\t%s\n",
	       r.name, k->n, r.cmp.s[0].median, r.cmp.s[1].median, r.cmp.ratio ? "B/A" : "B-A",
	       r.cmp.est, r.cmp.lo, r.cmp.hi, r.cmp.w.p,
	       r.cmp.verdict ? code[r.cmp.verdict + 1] : r.cmp.can_detect ? "none" : "few",
	       ft_ab_verdict(&r, v, sizeof(v)));
}

static const struct option ft_stats_opts[] = {
	{ "time", no_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * stats [-t] [FILE]: the statistics of ab on values measured elsewhere (a
 * benchmark script's runs, or by hand), so that there is one home for
 * medians, spread, the outlier rule and the verdicts.
 */
int ft_cmd_stats(int argc, char **argv)
{
	struct ft_st st = { 0 };
	const char *path = "-";
	char msg[FT_MSG_MAX], *buf;
	bool time = false;
	size_t i;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":tjh", ft_stats_opts, NULL)) != -1) {
		if (c == 't') {
			time = true;
			continue;
		}
		ret = ft_getopt_common(c, argc, argv, "stats");
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	if (argc - optind > 1)
		return ft_usage_error(EINVAL, "stats: at most one FILE");
	if (argc - optind == 1)
		path = argv[optind];
	ret = ft_read_file(strcmp(path, "-") ? path : "/dev/stdin", &buf, NULL);
	if (ret)
		return ft_runtime_error(-ret, "%s: %s", path, strerror(-ret));
	ret = ft_st_parse(path, buf, &st, msg, sizeof(msg));
	free(buf);
	if (ret) {
		ft_st_free(&st);
		return ft_usage_error(-ret, "stats: %s", msg);
	}
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_float_field_fmt(ft_jw, "alpha", "%.2f", FT_STATS_ALPHA);
		jsonw_float_field_fmt(ft_jw, "ci_level", "%.2f", FT_STATS_LEVEL);
		jsonw_name(ft_jw, "results");
		jsonw_start_array(ft_jw);
	} else {
		printf("# NAME\tsamples\tN\tMEDIAN\tQ1\tQ3\tMIN\tMAX\tOUTLIERS\n"
		       "# NAME\tpairs\tN\tA_MEDIAN\tB_MEDIAN\tB/A|B-A\tESTIMATE\tCI_LOW\tCI_HIGH\tP\tVERDICT\tTEXT\n");
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
