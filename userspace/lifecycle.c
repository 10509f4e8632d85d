// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * lifecycle.c - the module's build file; load and unload.
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
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "lifecycle.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "privilege.h"
#include "support.h"
#include "sysinfo.h"
#include "xalloc.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

#define FT_POLL_SECONDS		0.05
#define FT_DELETE_RETRY_SECONDS	5.0
#define FT_MAX_STALLED_SHOWN	40
/* A transition that takes longer says every so often whom it waits for. */
#define FT_PROGRESS_SECONDS	5
#define FT_PROGRESS_SHOWN	3

static void ft_copy_value(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	ft_rtrim(dst);
}

/*
 * The module's "build" file: "release <uname -r>" and "version <kernel
 * version>" lines (also "key=value" or "key: value"); bare lines are taken
 * as release, then version.  "verified <where>": in the tree, or locally on
 * which machine and when (a module older than that line: none).
 */
int ft_parse_build(const char *content, struct ft_build *b)
{
	const char *line = content;
	int bare = 0;

	b->release[0] = b->version[0] = b->verified[0] = '\0';
	while (*line) {
		const char *eol = strchr(line, '\n');
		char buf[1024], *v;
		size_t n;

		if (!eol)
			eol = line + strlen(line);
		n = (size_t)(eol - line);
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = '\0';
		ft_rtrim(buf);
		line = *eol ? eol + 1 : eol;
		if (!buf[0])
			continue;
		if (!strncmp(buf, "release", 7) && strchr(" \t=:", buf[7])) {
			for (v = buf + 8; *v && strchr(" \t=:", *v); v++)
				;
			ft_copy_value(b->release, sizeof(b->release), v);
		} else if (!strncmp(buf, "version", 7) && strchr(" \t=:", buf[7])) {
			for (v = buf + 8; *v && strchr(" \t=:", *v); v++)
				;
			ft_copy_value(b->version, sizeof(b->version), v);
		} else if (!strncmp(buf, "verified ", 9)) {
			ft_copy_value(b->verified, sizeof(b->verified), buf + 9);
		} else if (bare == 0 && !strchr(buf, ' ')) {
			ft_copy_value(b->release, sizeof(b->release), buf);
			bare++;
		} else if (bare == 1) {
			ft_copy_value(b->version, sizeof(b->version), buf);
			bare++;
		}
	}
	return b->release[0] ? 0 : -EBADMSG;
}

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

static int ft_transition_timeout(int target, double timeout)
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
static int ft_wait_transition(double deadline, int target)
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

static int ft_wait_path(const char *path, bool present, double deadline)
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

static int ft_finit_module(int fd, int flags)
{
	int fake = ft_fake_syscall();

	if (fake >= 0) {
		errno = fake;
		return fake ? -1 : 0;
	}
	return (int)syscall(SYS_finit_module, fd, "", flags);
}

static int ft_delete_module(const char *name)
{
	int fake = ft_fake_syscall();

	if (fake >= 0) {
		errno = fake;
		return fake ? -1 : 0;
	}
	return (int)syscall(SYS_delete_module, name, O_NONBLOCK);
}

/*
 * Where a task is in the kernel, in words: the innermost frames of
 * /proc/PID/stack (root only; "func+0x1f/0x40" shortened to "func"), or
 * its wchan.
 */
static void ft_kernel_position(long pid, char *out, size_t len)
{
	char path[FT_PATH_MAX], *buf, *line, *save = NULL;
	size_t n, used = 0;
	int frames = 0;

	snprintf(out, len, "?");
	if (ft_path(path, sizeof(path), "/proc") ||
	    strlen(path) + 32 >= sizeof(path))
		return;
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%ld/stack", pid);
	if (!ft_read_file(path, &buf, &n)) {
		for (line = strtok_r(buf, "\n", &save); line && frames < 4;
		     line = strtok_r(NULL, "\n", &save)) {
			char *fn = strchr(line, ']'), *end;

			fn = fn ? fn + 1 : line;
			while (*fn == ' ')
				fn++;
			end = strpbrk(fn, "+ ");
			if (end)
				*end = '\0';
			if (!*fn)
				continue;
			used += snprintf(out + used, used < len ? len - used : 0,
					 "%s%s", frames ? " < " : "", fn);
			frames++;
		}
		free(buf);
		if (frames)
			return;
	}
	*strrchr(path, '/') = '\0';
	strncat(path, "/wchan", sizeof(path) - strlen(path) - 1);
	if (ft_read_line(path, out, len) || !*out || !strcmp(out, "0"))
		snprintf(out, len, "running");
}

/*
 * finit_module() in a child, so that a module init that takes long (under
 * memory pressure: the livepatch's registration waits on RCU grace periods
 * and text patching on every CPU) says where it is every
 * FT_PROGRESS_SECONDS.  Returns finit_module()'s result, errno set.
 */
static int ft_finit_module_watched(int fd, int flags)
{
	double start = ft_now(), next = start + FT_PROGRESS_SECONDS;
	char where[256];
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(ft_finit_module(fd, flags) ? errno : 0);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (ft_now() >= next) {
			ft_kernel_position(pid, where, sizeof(where));
			ft_note("module init: %.0f s so far, the kernel is in %s",
				ft_now() - start, where);
			next += FT_PROGRESS_SECONDS;
		}
		ft_sleep(FT_POLL_SECONDS);
	}
	if (!WIFEXITED(status)) {
		errno = EINTR;
		return -1;
	}
	errno = WEXITSTATUS(status);
	return errno ? -1 : 0;
}

static const struct option ft_lifecycle_opts[] = {
	{ "timeout", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int ft_lifecycle_args(int argc, char **argv, const char *cmd,
			     double *timeout)
{
	int c, ret;

	*timeout = 60;
	while ((c = getopt_long(argc, argv, ":t:jh", ft_lifecycle_opts, NULL)) != -1) {
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

static int ft_load_report(bool already, const char *path, double t0)
{
	double secs = ft_now() - t0;

	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_bool_field(ft_jw, "loaded", true);
		jsonw_bool_field(ft_jw, "already_loaded", already);
		if (path)
			jsonw_string_field(ft_jw, "path", path);
		else
			jsonw_null_field(ft_jw, "path");
		jsonw_string_field(ft_jw, "livepatch", "enabled");
		jsonw_float_field_fmt(ft_jw, "seconds", "%.3f", secs);
		jsonw_end_object(ft_jw);
	} else if (already) {
		ft_info("%s is already loaded (livepatch enabled, transition complete)",
			FOLIOTUNE_NAME);
	} else {
		ft_info("%s loaded from %s (livepatch enabled, transition complete in %.2f s)",
			FOLIOTUNE_NAME, path, secs);
	}
	return FT_EXIT_OK;
}

/* After the module exists: wait for the patch, check it is enabled. */
static int ft_load_finish(bool already, const char *path, double t0,
			  double timeout)
{
	char lp[FT_PATH_MAX], enabled_path[FT_PATH_MAX], trans[FT_PATH_MAX];
	double deadline = t0 + timeout;
	long long enabled = -1, tr = 0;
	int err;

	if (ft_livepatch_path(lp, sizeof(lp), NULL) ||
	    ft_livepatch_path(enabled_path, sizeof(enabled_path), "enabled") ||
	    ft_livepatch_path(trans, sizeof(trans), "transition"))
		return ft_runtime_error(ENAMETOOLONG, "sysfs path too long");
	if (already && !ft_is_dir(lp))
		return ft_runtime_error(ENOENT, "module %s is loaded but livepatch %s is not registered (%s missing); run '%s unload' first",
					FOLIOTUNE_NAME, FOLIOTUNE_NAME, lp, ft_prog);
	if (ft_wait_path(enabled_path, true, deadline))
		return ft_runtime_error(ETIMEDOUT, "timed out after %g s waiting for %s to appear",
					timeout, lp);
	err = ft_read_int(enabled_path, &enabled);
	if (err)
		return ft_runtime_error(-err, "%s: %s", enabled_path, strerror(-err));
	if (already && enabled == 0)
		return ft_runtime_error(EBUSY, "livepatch %s is disabled (being unloaded); run '%s unload' and load again",
					FOLIOTUNE_NAME, ft_prog);
	if (!ft_read_int(trans, &tr) && tr)
		ft_note("waiting for the livepatch transition to complete (timeout %g s)",
			timeout);
	err = ft_wait_transition(deadline, 1);
	if (err == -ETIMEDOUT)
		return ft_transition_timeout(1, timeout);
	if (err)
		return ft_runtime_error(-err, "%s: %s", trans, strerror(-err));
	err = ft_read_int(enabled_path, &enabled);
	if (err)
		return ft_runtime_error(-err, "%s: %s", enabled_path, strerror(-err));
	if (enabled != 1)
		return ft_runtime_error(ECANCELED, "livepatch %s was disabled during the transition",
					FOLIOTUNE_NAME);
	return ft_load_report(already, path, t0);
}

static bool ft_has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The release in the module's vermagic ("" if not found). */
static void ft_module_vermagic(const char *path, char *rel, size_t len)
{
	static const char key[] = "vermagic=";
	char *buf;
	const char *p;
	size_t n, i;

	rel[0] = '\0';
	if (ft_read_file(path, &buf, &n))
		return;
	p = memmem(buf, n, key, sizeof(key) - 1);
	if (p) {
		p += sizeof(key) - 1;
		for (i = 0; i + 1 < len && p + i < buf + n && p[i] && p[i] != ' '; i++)
			rel[i] = p[i];
		rel[i] = '\0';
	}
	free(buf);
}

/*
 * The fix for a module file made for another build than the running one,
 * which foliotune supports: build and install it for this one.
 */
#define FT_REBUILD_HINT "build and install it for this kernel: sudo make install in the source tree (with dkms: sudo dkms autoinstall)"

/* Why finit_module failed, in words (the caller names the file). */
static void ft_explain_finit(int err, char *msg, size_t len)
{
	char mode[64], p[FT_PATH_MAX];
	long long disabled = 0;

	switch (err) {
	case ENOEXEC:
		/* the kernel is supported (checked first): the file is not for it */
		ft_msg(msg, len, "the module file was built for another kernel build (its refusal is in dmesg); "
		       FT_REBUILD_HINT);
		return;
	case EKEYREJECTED:
	case ENOKEY:
	case EBADMSG:
		ft_msg(msg, len, "module signature rejected (%s); Secure Boot or module.sig_enforce requires a module signed with an enrolled key; see dmesg",
			 strerror(err));
		return;
	case EPERM:
		if (!ft_path(p, sizeof(p), "/proc/sys/kernel/modules_disabled") &&
		    !ft_read_int(p, &disabled) && disabled) {
			ft_msg(msg, len, "module loading is disabled (kernel.modules_disabled=1)");
			return;
		}
		ft_lockdown_mode(mode, sizeof(mode));
		if (*mode && strcmp(mode, "none")) {
			ft_msg(msg, len, "the kernel is locked down (lockdown=%s) and refuses unsigned modules; see dmesg",
				 mode);
			return;
		}
		ft_msg(msg, len, "%s (CAP_SYS_MODULE needed)", strerror(err));
		return;
	default:
		ft_msg(msg, len, "%s (the module refused to load; see dmesg)", strerror(err));
	}
}

int ft_cmd_load(int argc, char **argv)
{
	char path[FT_PATH_MAX], rel[256], magic[256];
	char msg[FT_MSG_MAX], why[FT_MSG_MAX];
	double timeout, t0 = ft_now(), t1;
	int ret, fd, flags = 0;

	ret = ft_lifecycle_args(argc, argv, "load", &timeout);
	if (ret >= 0)
		return ret;
	if (argc - optind > 1)
		return ft_usage_error(EINVAL, "load: expected at most one PATH");
	ret = ft_require_root("load");
	if (ret)
		return ret;
	if (ft_module_loaded())
		return ft_load_finish(true, NULL, t0, timeout);

	ret = ft_kernel_release(rel, sizeof(rel));
	if (ret)
		return ft_runtime_error(-ret, "cannot determine the kernel release: %s",
					strerror(-ret));
	/* support's own check, whichever file is loaded: the module's refusal agrees */
	if (!ft_running_supported(why, sizeof(why)))
		return ft_runtime_error(ENOEXEC, "cannot load: %s does not support this kernel (%s): %s",
					FOLIOTUNE_NAME, rel, why);
	if (optind < argc) {
		snprintf(path, sizeof(path), "%s", argv[optind]);
		if (!ft_exists(path))
			return ft_runtime_error(ENOENT, "module file %s: %s", path,
						strerror(ENOENT));
	} else {
		ret = ft_find_module_file(rel, path, sizeof(path), msg, sizeof(msg));
		if (ret)
			return ft_runtime_error(-ret, "%s", msg);
	}
	if (ft_has_suffix(path, ".xz") || ft_has_suffix(path, ".zst") ||
	    ft_has_suffix(path, ".gz")) {
		flags |= MODULE_INIT_COMPRESSED_FILE;
	} else {
		ft_module_vermagic(path, magic, sizeof(magic));
		if (*magic && strcmp(magic, rel))
			return ft_runtime_error(ENOEXEC, "cannot load %s: it was built for kernel %s, not this one (%s, which %s supports); "
						FT_REBUILD_HINT, path, magic, rel, FOLIOTUNE_NAME);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ft_runtime_error(errno, "%s: %s", path, strerror(errno));
	ft_note("loading %s", path);
	t1 = ft_now();
	ret = ft_finit_module_watched(fd, flags);
	if (ret) {
		int err = errno;

		close(fd);
		if (err == EEXIST)
			return ft_load_finish(true, NULL, t0, timeout);
		ft_explain_finit(err, msg, sizeof(msg));
		return ft_runtime_error(err, "cannot load %s: %s", path, msg);
	}
	close(fd);
	/*
	 * Module init is the livepatch's registration (its text patching) and
	 * the probes'; the transition that follows waits for every task.
	 */
	ft_note("module initialised in %.2f s; now the livepatch transition",
		ft_now() - t1);
	return ft_load_finish(false, path, t0, timeout);
}

static int ft_unload_report(bool was_loaded, double t0)
{
	double secs = ft_now() - t0;

	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_bool_field(ft_jw, "unloaded", true);
		jsonw_bool_field(ft_jw, "was_loaded", was_loaded);
		jsonw_float_field_fmt(ft_jw, "seconds", "%.3f", secs);
		jsonw_end_object(ft_jw);
	} else if (!was_loaded) {
		ft_info("%s is not loaded", FOLIOTUNE_NAME);
	} else {
		ft_info("%s unloaded (livepatch disabled, module removed in %.2f s)",
			FOLIOTUNE_NAME, secs);
	}
	return FT_EXIT_OK;
}

int ft_cmd_unload(int argc, char **argv)
{
	char lp[FT_PATH_MAX], en[FT_PATH_MAX], mod[FT_PATH_MAX];
	double timeout, t0 = ft_now(), deadline, retry_end;
	long long enabled;
	int ret, err;

	ret = ft_lifecycle_args(argc, argv, "unload", &timeout);
	if (ret >= 0)
		return ret;
	if (optind != argc)
		return ft_usage_error(EINVAL, "unload: unexpected argument '%s'", argv[optind]);
	ret = ft_require_root("unload");
	if (ret)
		return ret;
	deadline = t0 + timeout;
	if (!ft_module_loaded())
		return ft_unload_report(false, t0);
	if (ft_livepatch_path(lp, sizeof(lp), NULL) ||
	    ft_livepatch_path(en, sizeof(en), "enabled") ||
	    ft_path(mod, sizeof(mod), "/sys/module/%s", FOLIOTUNE_NAME))
		return ft_runtime_error(ENAMETOOLONG, "sysfs path too long");

	if (ft_is_dir(lp)) {
		err = ft_read_int(en, &enabled);
		if (err && err != -ENOENT)
			return ft_runtime_error(-err, "%s: %s", en, strerror(-err));
		if (!err && enabled) {
			ft_note("disabling livepatch %s", FOLIOTUNE_NAME);
			err = ft_write_file(en, "0\n");
			if (err && err != -ENOENT)
				return ft_runtime_error(-err, "cannot disable livepatch (%s): %s",
							en, strerror(-err));
		}
		err = ft_wait_transition(deadline, 0);
		if (err == -ETIMEDOUT)
			return ft_transition_timeout(0, timeout);
		if (err && err != -ENOENT)
			return ft_runtime_error(-err, "livepatch transition: %s", strerror(-err));
		if (ft_wait_path(lp, false, deadline))
			return ft_runtime_error(ETIMEDOUT, "timed out after %g s waiting for %s to go away",
						timeout, lp);
	}

	retry_end = ft_now() + FT_DELETE_RETRY_SECONDS;
	if (retry_end > deadline)
		retry_end = deadline;
	for (;;) {
		if (!ft_delete_module(FOLIOTUNE_NAME)) {
			err = 0;
			break;
		}
		err = errno;
		if (err == ENOENT) {
			err = 0;	/* already gone */
			break;
		}
		if ((err != EBUSY && err != EAGAIN) || ft_now() >= retry_end)
			break;
		ft_sleep(FT_POLL_SECONDS * 2);
	}
	if (err == EBUSY || err == EAGAIN)
		return ft_runtime_error(err, "cannot remove module %s: %s (still in use)",
					FOLIOTUNE_NAME, strerror(err));
	if (err == EPERM)
		return ft_runtime_error(err, "cannot remove module %s: %s (CAP_SYS_MODULE needed)",
					FOLIOTUNE_NAME, strerror(err));
	if (err)
		return ft_runtime_error(err, "cannot remove module %s: %s",
					FOLIOTUNE_NAME, strerror(err));
	if (ft_wait_path(mod, false, deadline))
		return ft_runtime_error(ETIMEDOUT, "timed out after %g s waiting for %s to go away",
					timeout, mod);
	return ft_unload_report(true, t0);
}
