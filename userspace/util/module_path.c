// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * module_path.c - where the foliotune module is, on disk and in the
 * running kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "fileio.h"
#include "foliotune.h"
#include "knobs.h"
#include "module_path.h"
#include "output.h"
#include "path.h"
#include "privilege.h"
#include "sysinfo.h"
#include "verified.h"

bool ft_module_loaded(void)
{
	char path[FT_PATH_MAX];

	return !ft_path(path, sizeof(path), "/sys/module/%s", FOLIOTUNE_NAME) &&
	       ft_exists(path);
}

int ft_livepatch_path(char *buf, size_t len, const char *file)
{
	if (file)
		return ft_path(buf, len, "/sys/kernel/livepatch/%s/%s",
			       FOLIOTUNE_NAME, file);
	return ft_path(buf, len, "/sys/kernel/livepatch/%s", FOLIOTUNE_NAME);
}

void ft_explain_debugfs_errno(int err, const char *path, char *msg, size_t len)
{
	char mode[64];

	if (err == EPERM) {
		ft_lockdown_mode(mode, sizeof(mode));
		if (*mode && strcmp(mode, "none")) {
			ft_msg(msg, len, "debugfs is locked down (lockdown=%s): cannot access %s",
				 mode, path);
			return;
		}
	}
	if ((err == EACCES || err == EPERM) && ft_euid() != 0) {
		ft_msg(msg, len, "%s: %s (are you root?)", path, strerror(err));
		return;
	}
	ft_msg(msg, len, "%s: %s", path, strerror(err));
}

/* debugfs mounted: the mount point is a non-empty directory */
static bool ft_dir_nonempty(const char *path)
{
	struct dirent *de;
	bool any = false;
	DIR *d = opendir(path);

	if (!d)
		return errno == EACCES;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			any = true;
			break;
		}
	}
	closedir(d);
	return any;
}

int ft_find_debugfs_dir(char *dir, size_t len, char *msg, size_t msglen)
{
	char root[FT_PATH_MAX];
	int err;

	msg[0] = '\0';
	err = ft_debugfs_root(root, sizeof(root));
	if (!err)
		err = ft_join(dir, len, root, FOLIOTUNE_DEBUGFS_DIR);
	if (err) {
		ft_msg(msg, msglen, "debugfs path too long");
		return err;
	}
	if (ft_is_dir(dir))
		return 0;
	err = errno;
	if (err == EACCES || err == EPERM) {
		ft_explain_debugfs_errno(err, dir, msg, msglen);
		return -err;
	}
	if (!ft_module_loaded()) {
		char mode[64], why[FT_MSG_MAX];

		ft_lockdown_mode(mode, sizeof(mode));
		if (*mode && strcmp(mode, "none")) {
			ft_msg(msg, msglen, "the %s module is not loaded and cannot be: the kernel is locked down (lockdown=%s), which refuses unsigned modules and restricts debugfs",
				 FOLIOTUNE_NAME, mode);
			return -EPERM;
		}
		/* not "try load" where loading cannot work */
		if (!ft_running_supported(why, sizeof(why))) {
			ft_msg(msg, msglen, "the %s module is not loaded and cannot be: %s does not support this kernel: %s",
				 FOLIOTUNE_NAME, FOLIOTUNE_NAME, why);
			return -ENOENT;
		}
		ft_msg(msg, msglen, "the %s module is not loaded (try '%s load')",
			 FOLIOTUNE_NAME, ft_prog);
		return -ENOENT;
	}
	if (!ft_dir_nonempty(root)) {
		ft_msg(msg, msglen, "debugfs is not mounted at %s (try 'mount -t debugfs none %s')",
			 root, root);
		return -ENOENT;
	}
	ft_msg(msg, msglen, "the %s module is loaded but %s does not exist",
		 FOLIOTUNE_NAME, dir);
	return -ENOENT;
}

int ft_open_debugfs_dir(char *dir, size_t len)
{
	char msg[FT_MSG_MAX];
	int err = ft_find_debugfs_dir(dir, len, msg, sizeof(msg));

	if (err)
		return ft_runtime_error(-err, "%s", msg);
	return 0;
}

/* The module file suffixes kmod accepts, uncompressed first. */
static const char *const ft_ko_suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };

/* "dir/foliotune.ko.xz" names the module foliotune? */
static bool ft_is_our_module(const char *file, size_t n)
{
	const char *base = file, *p;
	size_t i, nl = strlen(FOLIOTUNE_NAME);

	for (p = file; p < file + n; p++)
		if (*p == '/')
			base = p + 1;
	n -= (size_t)(base - file);
	if (n <= nl || memcmp(base, FOLIOTUNE_NAME, nl))
		return false;
	for (i = 0; i < sizeof(ft_ko_suffixes) / sizeof(ft_ko_suffixes[0]); i++)
		if (n - nl == strlen(ft_ko_suffixes[i]) &&
		    !memcmp(base + nl, ft_ko_suffixes[i], n - nl))
			return true;
	return false;
}

/*
 * modprobe's answer: the entry of the module in modules.dep, which depmod
 * wrote in its search order (updates/ before the kernel's own modules).
 * Paths in it are relative to the modules directory unless absolute.
 * 1 and path set if listed, 0 if not, -errno.
 */
static int ft_modules_dep_lookup(const char *moddir, char *path, size_t len)
{
	char dep[FT_PATH_MAX], *buf, *line, *next;
	size_t n;
	int err, found = 0;

	if (ft_join(dep, sizeof(dep), moddir, "modules.dep"))
		return -ENAMETOOLONG;
	err = ft_read_file(dep, &buf, &n);
	if (err)
		return err == -ENOENT ? 0 : err;
	for (line = buf; line && *line && !found; line = next) {
		char *colon;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		colon = strchr(line, ':');
		if (!colon || !ft_is_our_module(line, (size_t)(colon - line)))
			continue;
		*colon = '\0';
		if (line[0] == '/')
			err = ft_path(path, len, "%s", line);
		else
			err = ft_join(path, len, moddir, line);
		found = err ? err : 1;
	}
	free(buf);
	return found;
}

static int ft_copy_path(char *dst, size_t len, const char *src, char *msg,
			size_t msglen)
{
	if (strlen(src) >= len) {
		ft_msg(msg, msglen, "module path too long");
		return -ENAMETOOLONG;
	}
	strcpy(dst, src);
	return 0;
}

int ft_find_module_file(const char *rel, char *path, size_t len,
			char *msg, size_t msglen)
{
	char moddir[FT_PATH_MAX], upd[FT_PATH_MAX];
	size_t i;
	int ret;

	if (ft_path(moddir, sizeof(moddir), "/lib/modules/%s", rel)) {
		ft_msg(msg, msglen, "module path too long");
		return -ENAMETOOLONG;
	}
	ret = ft_modules_dep_lookup(moddir, path, len);
	if (ret < 0) {
		ft_msg(msg, msglen, "%s/modules.dep: %s", moddir, strerror(-ret));
		return ret;
	}
	if (ret) {
		if (ft_exists(path))
			return 0;
		ft_msg(msg, msglen, "%s/modules.dep names %s, which does not exist (run 'depmod %s')",
		       moddir, path, rel);
		return -ENOENT;
	}
	for (i = 0; i < sizeof(ft_ko_suffixes) / sizeof(ft_ko_suffixes[0]); i++) {
		if (snprintf(upd, sizeof(upd), "%s/updates/%s%s", moddir, FOLIOTUNE_NAME,
			     ft_ko_suffixes[i]) >= (int)sizeof(upd))
			break;
		if (ft_exists(upd))
			return ft_copy_path(path, len, upd, msg, msglen);
	}
	if (ft_exists(FOLIOTUNE_BUILD_KO))
		return ft_copy_path(path, len, FOLIOTUNE_BUILD_KO, msg, msglen);
	ft_msg(msg, msglen, "module %s.ko not found (not in %s/modules.dep, not in %s/updates/, no %s)",
	       FOLIOTUNE_NAME, moddir, moddir, FOLIOTUNE_BUILD_KO);
	return -ENOENT;
}

/* Report a failed knob access: missing file, lockdown, permission, errno. */
int ft_knob_fail(const char *dir, const struct ft_knob *k, int err, const char *verb)
{
	char path[FT_PATH_MAX], msg[FT_MSG_MAX];

	if (err == ENOENT)
		return ft_runtime_error(err, "knob %s is not provided by this module",
					k->name);
	if (ft_join(path, sizeof(path), dir, k->name))
		snprintf(path, sizeof(path), "%s", k->name);
	if (err == EPERM || err == EACCES) {
		ft_explain_debugfs_errno(err, path, msg, sizeof(msg));
		return ft_runtime_error(err, "cannot %s %s: %s", verb, k->name, msg);
	}
	return ft_runtime_error(err, "cannot %s %s: %s", verb, k->name, strerror(err));
}
