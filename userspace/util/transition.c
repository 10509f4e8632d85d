// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * transition.c - what load and unload share: the module syscalls (which a
 * test can fake), the wait for the livepatch transition with the tasks it
 * waits for, the wait for a sysfs path, and the -t/--timeout option.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "fileio.h"
#include "json_writer.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "transition.h"
#include "xalloc.h"

#define FT_MAX_STALLED_SHOWN	40
/* A transition that takes longer says every so often whom it waits for. */
#define FT_PROGRESS_SECONDS	5
#define FT_PROGRESS_SHOWN	3

/* ---- stalled tasks ---- */

struct ft_task {
	long pid, tid;
	long long state;
	char comm[64];
};

struct ft_tasks {
	struct ft_task *v;
	size_t n, cap;
	int target;
	const char *phase;
};

static bool ft_numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static void ft_task_add(struct ft_tasks *t, long pid, long tid,
			const char *state_path, const char *comm_path)
{
	long long state;
	struct ft_task *task;

	if (ft_read_int(state_path, &state) || state == -1 || state == t->target)
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->v = ft_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	task = &t->v[t->n++];
	task->pid = pid;
	task->tid = tid;
	task->state = state;
	if (ft_read_line(comm_path, task->comm, sizeof(task->comm)))
		snprintf(task->comm, sizeof(task->comm), "?");
}

static int ft_task_cmp(const void *a, const void *b)
{
	const struct ft_task *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return 0;
}

static void ft_collect_stalled(struct ft_tasks *t)
{
	char proc[FT_PATH_MAX], p1[FT_PATH_MAX], p2[FT_PATH_MAX];
	struct dirent *de, *te;
	DIR *d, *td;

	if (ft_path(proc, sizeof(proc), "/proc"))
		return;
	d = opendir(proc);
	if (!d)
		return;
	while ((de = readdir(d))) {
		long pid;

		if (!ft_numeric(de->d_name))
			continue;
		pid = strtol(de->d_name, NULL, 10);
		if (snprintf(p1, sizeof(p1), "%s/%s/task", proc, de->d_name) >= (int)sizeof(p1))
			continue;
		td = opendir(p1);
		if (!td) {
			if (snprintf(p1, sizeof(p1), "%s/%s/patch_state", proc,
				     de->d_name) >= (int)sizeof(p1) ||
			    snprintf(p2, sizeof(p2), "%s/%s/comm", proc,
				     de->d_name) >= (int)sizeof(p2))
				continue;
			ft_task_add(t, pid, pid, p1, p2);
			continue;
		}
		while ((te = readdir(td))) {
			if (!ft_numeric(te->d_name))
				continue;
			if (snprintf(p1, sizeof(p1), "%s/%s/task/%s/patch_state", proc,
				     de->d_name, te->d_name) >= (int)sizeof(p1) ||
			    snprintf(p2, sizeof(p2), "%s/%s/task/%s/comm", proc,
				     de->d_name, te->d_name) >= (int)sizeof(p2))
				continue;
			ft_task_add(t, pid, strtol(te->d_name, NULL, 10), p1, p2);
		}
		closedir(td);
	}
	closedir(d);
	if (t->n > 1)
		qsort(t->v, t->n, sizeof(*t->v), ft_task_cmp);
}

static void ft_stalled_extra(void *arg)
{
	struct ft_tasks *t = arg;
	size_t i;

	if (ft_json) {
		jsonw_int_field(ft_jw, "target_patch_state", t->target);
		jsonw_name(ft_jw, "stalled");
		jsonw_start_array(ft_jw);
		for (i = 0; i < t->n; i++) {
			jsonw_start_object(ft_jw);
			jsonw_int_field(ft_jw, "pid", t->v[i].pid);
			jsonw_int_field(ft_jw, "tid", t->v[i].tid);
			jsonw_string_field(ft_jw, "comm", t->v[i].comm);
			jsonw_int_field(ft_jw, "patch_state", t->v[i].state);
			jsonw_end_object(ft_jw);
		}
		jsonw_end_array(ft_jw);
		return;
	}
	if (!t->n) {
		fprintf(stderr, "  no task with patch_state != %d found in /proc\n",
			t->target);
		return;
	}
	fprintf(stderr, "  %zu task(s) not yet %s (patch_state != %d):\n",
		t->n, t->phase, t->target);
	for (i = 0; i < t->n && i < FT_MAX_STALLED_SHOWN; i++) {
		if (t->v[i].tid == t->v[i].pid)
			fprintf(stderr, "    pid %ld (%s) patch_state=%lld\n",
				t->v[i].pid, t->v[i].comm, t->v[i].state);
		else
			fprintf(stderr, "    pid %ld tid %ld (%s) patch_state=%lld\n",
				t->v[i].pid, t->v[i].tid, t->v[i].comm, t->v[i].state);
	}
	if (t->n > FT_MAX_STALLED_SHOWN)
		fprintf(stderr, "    ... and %zu more\n", t->n - FT_MAX_STALLED_SHOWN);
}

int ft_transition_timeout(int target, double timeout)
{
	struct ft_tasks t = { .target = target,
			      .phase = target ? "patched" : "unpatched" };
	int ret;

	ft_collect_stalled(&t);
	ret = ft_fail_ex(FT_EXIT_RUNTIME, ETIMEDOUT, ft_stalled_extra, &t,
			 "timed out after %g s waiting for the livepatch transition (%s)",
			 timeout, target ? "patching" : "unpatching");
	free(t.v);
	return ret;
}

/*
 * A long transition's progress: the tasks not yet switched, and where the
 * first few of them sleep (wchan): a task busy in the kernel, such as one
 * in direct reclaim under memory pressure, switches only once it leaves it.
 */
static void ft_transition_progress(int target, double waited)
{
	struct ft_tasks t = { .target = target,
			      .phase = target ? "patched" : "unpatched" };
	char who[512] = "", path[FT_PATH_MAX], wchan[64];
	size_t i, len = 0;

	if (ft_json)
		return;
	ft_collect_stalled(&t);
	for (i = 0; i < t.n && i < FT_PROGRESS_SHOWN && len < sizeof(who); i++) {
		if (ft_path(path, sizeof(path), "/proc") ||
		    strlen(path) + 64 >= sizeof(path))
			break;
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 "/%ld/task/%ld/wchan", t.v[i].pid, t.v[i].tid);
		if (ft_read_line(path, wchan, sizeof(wchan)) || !wchan[0] ||
		    !strcmp(wchan, "0"))
			snprintf(wchan, sizeof(wchan), "running");
		len += snprintf(who + len, sizeof(who) - len, "%s%ld %s (%s)",
				i ? ", " : ": ", t.v[i].tid, t.v[i].comm, wchan);
	}
	ft_note("livepatch transition: %zu task(s) not yet %s after %.0f s%s%s",
		t.n, t.phase, waited, who, t.n > FT_PROGRESS_SHOWN ? ", ..." : "");
	free(t.v);
}

/*
 * 0 when transition reads 0; -ENOENT if the patch is gone; -ETIMEDOUT.
 * @target: the patch_state tasks switch to (1 patching, 0 unpatching).
 */
int ft_wait_transition(double deadline, int target)
{
	char path[FT_PATH_MAX];
	double start = ft_now(), next = start + FT_PROGRESS_SECONDS;
	long long v;
	int err;

	err = ft_livepatch_path(path, sizeof(path), "transition");
	if (err)
		return err;
	for (;;) {
		double now;

		err = ft_read_int(path, &v);
		/* A file of a kobject being removed reads ENODEV: gone too. */
		if (err == -ENODEV)
			err = -ENOENT;
		if (err)
			return err;
		if (v == 0)
			return 0;
		now = ft_now();
		if (now >= deadline)
			return -ETIMEDOUT;
		if (now >= next) {
			ft_transition_progress(target, now - start);
			next = now + FT_PROGRESS_SECONDS;
		}
		ft_sleep(deadline - now < FT_POLL_SECONDS ? deadline - now : FT_POLL_SECONDS);
	}
}

int ft_wait_path(const char *path, bool present, double deadline)
{
	for (;;) {
		double now;

		if (ft_exists(path) == present)
			return 0;
		now = ft_now();
		if (now >= deadline)
			return -ETIMEDOUT;
		ft_sleep(deadline - now < FT_POLL_SECONDS ? deadline - now : FT_POLL_SECONDS);
	}
}

/* Module syscalls; FOLIOTUNE_FAKE_MODULE_SYSCALLS=<errno> simulates them. */
static int ft_fake_syscall(void)
{
	const char *fake = getenv("FOLIOTUNE_FAKE_MODULE_SYSCALLS");

	if (!fake || !*fake)
		return -1;
	return atoi(fake);
}

int ft_finit_module(int fd, int flags)
{
	int fake = ft_fake_syscall();

	if (fake >= 0) {
		errno = fake;
		return fake ? -1 : 0;
	}
	return (int)syscall(SYS_finit_module, fd, "", flags);
}

int ft_delete_module(const char *name)
{
	int fake = ft_fake_syscall();

	if (fake >= 0) {
		errno = fake;
		return fake ? -1 : 0;
	}
	return (int)syscall(SYS_delete_module, name, O_NONBLOCK);
}

static const struct option ft_timeout_opts[] = {
	{ "timeout", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int ft_timeout_args(int argc, char **argv, const char *cmd, double *timeout)
{
	int c, ret;

	*timeout = 60;
	while ((c = getopt_long(argc, argv, ":t:jh", ft_timeout_opts, NULL)) != -1) {
		if (c == 't') {
			if (ft_parse_seconds(optarg, timeout))
				return ft_usage_error(EINVAL, "invalid timeout '%s': expected seconds",
						      optarg);
			continue;
		}
		ret = ft_getopt_common(c, argc, argv, cmd);
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	return -1;
}
