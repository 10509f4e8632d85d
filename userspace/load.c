// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * load.c - the load command: the support check, the module file (found as
 * modprobe finds it, or given) checked against the running kernel,
 * finit_module(2) watched while it lasts, then the livepatch transition.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "commands.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "module_path.h"
#include "output.h"
#include "path.h"
#include "privilege.h"
#include "sysinfo.h"
#include "transition.h"
#include "verified.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

/* Module init that takes longer says every so often where it is. */
#define FT_PROGRESS_SECONDS	5

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

static int ft_load_report(bool already, const char *path, double t0)
{
	double secs = ft_now() - t0;

	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_bool_field(ft_jw, "loaded", true);
		jsonw_bool_field(ft_jw, "already_loaded", already);
		jsonw_string_or_null_field(ft_jw, "path", path);
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

	ret = ft_timeout_args(argc, argv, "load", &timeout);
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
