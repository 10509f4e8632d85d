// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * record.c - the record command: run a workload and write a record file
 * (record_file.c) of the counters it moved.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "commands.h"
#include "env.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "privilege.h"
#include "record_file.h"
#include "snapshot.h"
#include "sysinfo.h"
#include "xalloc.h"

/* ---- the record command ---- */

struct ft_setting {
	const struct ft_knob *knob;
	uint64_t value;
	struct ft_knob_value old;
	bool applied;
	bool implicit;		/* reclaim_probes=1 added by record itself */
};

static const char *ft_signame(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "signal";
	}
}

/* Restore in reverse order; returns the number of failures. */
static int ft_restore(const char *dir, struct ft_setting *s, size_t n)
{
	int failed = 0;
	size_t i;

	for (i = n; i-- > 0;) {
		if (!s[i].applied)
			continue;
		if (ft_knob_restore(dir, s[i].knob, s[i].old.text))
			failed++;
		else
			s[i].applied = false;
	}
	return failed;
}

static const struct option ft_record_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "label", required_argument, NULL, 'l' },
	{ "set", required_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct ft_run {
	struct ft_setting set[FT_NR_KNOBS];
	size_t nset;
	const char *output, *label;
	char **cmd;
	bool module;
	char dir[FT_PATH_MAX], vmstat[FT_PATH_MAX], modstat[FT_PATH_MAX];
	char file[FT_PATH_MAX];
	int fd;
	struct ft_snapshot mod0, mod1, vm0, vm1;
	struct ft_record rec;
	char *env;		/* the fingerprint, taken before the settings */
	size_t envlen;
};

static int ft_record_args(int argc, char **argv, struct ft_run *run)
{
	char msg[FT_MSG_MAX];
	const struct ft_knob *k;
	uint64_t v;
	size_t i;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+:o:l:s:jh", ft_record_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			run->output = optarg;
			break;
		case 'l':
			run->label = optarg;
			break;
		case 's':
			ret = ft_parse_assignment(optarg, &k, &v, msg, sizeof(msg));
			if (ret)
				return ft_usage_error(-ret, "%s", msg);
			for (i = 0; i < run->nset; i++)
				if (run->set[i].knob == k)
					return ft_usage_error(EINVAL, "knob %s set twice", k->name);
			run->set[run->nset].knob = k;
			run->set[run->nset].value = v;
			run->nset++;
			break;
		default:
			ret = ft_getopt_common(c, argc, argv, "record");
			if (ret >= 0)
				return ret;
		}
	}
	ft_set_json(ft_json_requested);
	if (optind >= argc)
		return ft_usage_error(EINVAL, "record: missing COMMAND (usage: record [options] -- COMMAND [ARG]...)");
	if (run->output && !*run->output)
		return ft_usage_error(EINVAL, "record: empty output file name");
	run->cmd = argv + optind;
	return -1;
}

/*
 * Like perf stat, record counts what it records: the reclaim probes
 * (reclaim_probes, off by default for their cost) are armed for the run
 * and put back after it, unless -s reclaim_probes=... said otherwise.  Only
 * as root with a module that has the knob; it shows in the record as a
 * "set" line like any -s.
 */
static void ft_record_arm_probes(struct ft_run *run)
{
	const struct ft_knob *k = ft_knob_find("reclaim_probes");
	char path[FT_PATH_MAX];
	size_t i;

	if (!run->module || !k || ft_euid() != 0)
		return;
	for (i = 0; i < run->nset; i++)
		if (run->set[i].knob == k)
			return;
	if (ft_join(path, sizeof(path), run->dir, k->name) || !ft_exists(path))
		return;
	run->set[run->nset].knob = k;
	run->set[run->nset].value = 1;
	run->set[run->nset].implicit = true;
	run->nset++;
}

/* Everything before the workload runs; returns 0 or an exit code. */
static int ft_record_prepare(struct ft_run *run)
{
	char msg[FT_MSG_MAX], text[32], release[256], version[512];
	struct ft_record *r = &run->rec;
	struct ft_knob_value kv;
	size_t i;
	int err;

	if (run->nset) {
		err = ft_require_root("record --set");
		if (err)
			return err;
	}
	err = ft_find_debugfs_dir(run->dir, sizeof(run->dir), msg, sizeof(msg));
	if (err) {
		if (run->nset || ft_module_loaded())
			return ft_runtime_error(-err, "%s", msg);
		ft_note("the %s module is not loaded: recording /proc/vmstat only",
			FOLIOTUNE_NAME);
	} else {
		run->module = true;
		if (ft_join(run->modstat, sizeof(run->modstat), run->dir,
			    FOLIOTUNE_VMSTAT_FILE))
			return ft_runtime_error(ENAMETOOLONG, "path too long");
	}
	if (ft_path(run->vmstat, sizeof(run->vmstat), "/proc/vmstat"))
		return ft_runtime_error(ENAMETOOLONG, "path too long");
	if (ft_kernel_release(release, sizeof(release)))
		snprintf(release, sizeof(release), "unknown");
	if (ft_kernel_version(version, sizeof(version)))
		snprintf(version, sizeof(version), "unknown");
	r->kernel_release = ft_strdup(release);
	r->kernel_version = ft_strdup(version);
	r->module = ft_strdup(run->module ? "loaded" : "not-loaded");
	r->label = run->label ? ft_strdup(run->label) : NULL;
	{
		char cmdline[8192];

		ft_quote_command(run->cmd, cmdline, sizeof(cmdline));
		r->command = ft_strdup(cmdline);
	}

	run->fd = ft_create_new_file(run->output, "record", run->file, sizeof(run->file));
	if (run->fd < 0)
		return ft_new_file_error(-run->fd, run->file, "records");

	{
		FILE *ef = open_memstream(&run->env, &run->envlen);

		if (ef) {
			ft_env_write(ef, run->module ? run->dir : NULL);
			fclose(ef);
		}
		ft_env_warn_busy();
	}
	ft_install_signals();
	ft_record_arm_probes(run);
	for (i = 0; i < run->nset; i++) {
		struct ft_setting *s = &run->set[i];

		err = ft_knob_read(run->dir, s->knob, &s->old);
		if (!err) {
			snprintf(text, sizeof(text), "%" PRIu64, s->value);
			err = ft_knob_write(run->dir, s->knob, text);
		}
		if (err && s->implicit) {
			ft_warn("cannot arm the reclaim probes (%s): pgpgoutclean and pageref_* do not count in this record",
				strerror(-err));
			continue;
		}
		if (err) {
			char path[FT_PATH_MAX];

			if (err == -ENOENT)
				return ft_runtime_error(ENOENT, "knob %s is not provided by this module",
							s->knob->name);
			if (ft_join(path, sizeof(path), run->dir, s->knob->name))
				path[0] = '\0';
			ft_explain_debugfs_errno(-err, path, msg, sizeof(msg));
			return ft_runtime_error(-err, "cannot set %s=%s: %s",
						s->knob->name, text, msg);
		}
		s->applied = true;
		ft_record_add_knob(&r->sets, &r->nsets, s->knob->name, text,
				   s->old.text);
	}
	if (run->module) {
		for (i = 0; i < ft_nr_knobs; i++)
			if (!ft_knob_read(run->dir, &ft_knobs[i], &kv))
				ft_record_add_knob(&r->knobs, &r->nknobs,
						   ft_knobs[i].name, kv.text, NULL);
	}
	return 0;
}

static int ft_snap(const char *path, struct ft_snapshot *s)
{
	char msg[FT_MSG_MAX];
	int err = ft_snapshot_read(path, s);

	if (!err)
		return 0;
	ft_explain_debugfs_errno(-err, path, msg, sizeof(msg));
	return ft_runtime_error(-err, "%s", msg);
}

/* Run the workload; returns 0 or an exit code (exec failure etc.). */
static int ft_record_run(struct ft_run *run)
{
	struct ft_record *r = &run->rec;
	char date[32];
	struct tm tm;
	time_t now;
	int status, ret;
	double wall;

	if (run->module && (ret = ft_snap(run->modstat, &run->mod0)))
		return ret;
	if ((ret = ft_snap(run->vmstat, &run->vm0)))
		return ret;
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->date = ft_strdup(date);
	ret = ft_run_child(run->cmd, -1, &status, &wall, NULL);
	if (ret)
		return ret;
	r->has_wall = true;
	r->wall = wall;
	if (WIFEXITED(status))
		r->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->exit_signal = WTERMSIG(status);
	if (ft_stop_sig)
		r->interrupted = ft_strdup(ft_signame(ft_stop_sig));

	if (run->module) {
		ret = ft_snapshot_read(run->modstat, &run->mod1);
		if (ret) {
			ft_warn("cannot read %s after the run (%s): module counters omitted",
				run->modstat, strerror(-ret));
			free(r->module);
			r->module = ft_strdup("unloaded-during-run");
		} else {
			ft_record_add_deltas(r, FOLIOTUNE_NAME, &run->mod0, &run->mod1);
		}
	}
	if ((ret = ft_snap(run->vmstat, &run->vm1)))
		return ret;
	ft_record_add_deltas(r, "vmstat", &run->vm0, &run->vm1);
	return 0;
}

static int ft_record_report(const struct ft_run *run)
{
	const struct ft_record *r = &run->rec;

	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "file", run->file);
		jsonw_float_field_fmt(ft_jw, "wall_seconds", "%.6f", r->wall);
		jsonw_int_or_null_field(ft_jw, "exit_code", r->exit_code);
		jsonw_int_or_null_field(ft_jw, "exit_signal", r->exit_signal);
		jsonw_bool_field(ft_jw, "module_loaded", run->module);
		jsonw_string_or_null_field(ft_jw, "interrupted", r->interrupted);
		jsonw_uint_field(ft_jw, "counters", r->ncounters);
		jsonw_end_object(ft_jw);
	} else {
		ft_note("record written to %s (%.2f s, %s %d)", run->file, r->wall,
			r->exit_signal >= 0 ? "signal" : "exit",
			r->exit_signal >= 0 ? r->exit_signal : r->exit_code);
	}
	if (r->exit_code > 0)
		ft_warn("the command exited with status %d", r->exit_code);
	else if (r->exit_signal >= 0)
		ft_warn("the command was killed by signal %d (%s)", r->exit_signal,
			strsignal(r->exit_signal));
	return 0;
}

int ft_cmd_record(int argc, char **argv)
{
	struct ft_run *run;
	FILE *f = NULL;
	int ret, failed;

	run = calloc(1, sizeof(*run));
	if (!run)
		return ft_runtime_error(ENOMEM, "out of memory");
	run->fd = -1;
	run->rec.exit_code = run->rec.exit_signal = -1;
	ret = ft_record_args(argc, argv, run);
	if (ret >= 0)
		goto out;
	ret = ft_record_prepare(run);
	if (!ret && ft_stop_sig)
		ret = ft_fail(128 + ft_stop_sig, EINTR,
			      "interrupted by %s before the command ran; settings restored",
			      ft_signame(ft_stop_sig));
	if (!ret)
		ret = ft_record_run(run);
	failed = ft_restore(run->dir, run->set, run->nset);
	if (!ret) {
		f = fdopen(run->fd, "w");
		if (!f) {
			ret = ft_runtime_error(errno, "%s: %s", run->file, strerror(errno));
		} else {
			run->fd = -1;
			ret = ft_record_write(f, &run->rec);
			if (run->env)
				fputs(run->env, f);
			ft_env_write_after(f);
			if (fclose(f) && !ret)
				ret = -errno;
			if (ret)
				ret = ft_runtime_error(-ret, "cannot write %s: %s", run->file,
						       strerror(-ret));
		}
	}
	if (ret && run->file[0] && (run->fd >= 0 || f))
		unlink(run->file);
	if (run->fd >= 0)
		close(run->fd);
	if (!ret) {
		ft_record_report(run);
		if (failed)
			ret = ft_runtime_error(EIO, "%d setting(s) could not be restored", failed);
		else if (ft_stop_sig)
			ret = 128 + ft_stop_sig;
		/* the workload's status, as perf stat passes it: scripts see a failed run */
		else if (run->rec.exit_code > 0)
			ret = run->rec.exit_code;
		else if (run->rec.exit_signal >= 0)
			ret = 128 + run->rec.exit_signal;
	} else if (failed) {
		ft_warn("%d setting(s) could not be restored", failed);
	}
out:
	ft_snapshot_free(&run->mod0);
	ft_snapshot_free(&run->mod1);
	ft_snapshot_free(&run->vm0);
	ft_snapshot_free(&run->vm1);
	ft_record_free(&run->rec);
	free(run->env);
	free(run);
	return ret;
}
