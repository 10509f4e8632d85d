// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * privilege.c - who runs the CLI: root checks (FOLIOTUNE_ASSUME_UID lets
 * the host tests pretend), and the files it writes (records, ab files):
 * new ones only, given under sudo(8) back to the user who ran sudo.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "foliotune.h"
#include "output.h"
#include "privilege.h"

uid_t ft_euid(void)
{
	const char *s = getenv("FOLIOTUNE_ASSUME_UID");
	char *end;
	unsigned long v;

	if (s && *s) {
		errno = 0;
		v = strtoul(s, &end, 10);
		if (!errno && !*end && v <= UINT_MAX)
			return (uid_t)v;
	}
	return geteuid();
}

/* SUDO_UID or SUDO_GID as an id; false when unset or junk */
static bool ft_sudo_id(const char *name, unsigned long *id)
{
	const char *s = getenv(name);
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*id = strtoul(s, &end, 10);
	return !errno && !*end && *id < UINT_MAX;
}

void ft_give_to_sudo_user(int fd, const char *path)
{
	unsigned long uid, gid;

	/* geteuid(), not ft_euid(): only real root can chown; sudo by root: no-op */
	if (geteuid() != 0 || !ft_sudo_id("SUDO_UID", &uid) || !uid ||
	    !ft_sudo_id("SUDO_GID", &gid))
		return;
	if (fchown(fd, (uid_t)uid, (gid_t)gid))
		ft_warn("%s stays root's: cannot give it to uid %lu: %s", path, uid,
			strerror(errno));
}

int ft_require_root(const char *what)
{
	if (ft_euid() == 0)
		return 0;
	return ft_runtime_error(EPERM, "%s requires root privileges", what);
}

int ft_create_new_file(const char *given, const char *kind, char *path, size_t len)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	int fd = -1, i;

	if (given) {
		snprintf(path, len, "%s", given);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	} else {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		for (i = 1; i < 100; i++) {
			if (i == 1)
				snprintf(path, len, "./%s-%s-%s.txt", FOLIOTUNE_NAME, kind, stamp);
			else
				snprintf(path, len, "./%s-%s-%s-%d.txt", FOLIOTUNE_NAME, kind,
					 stamp, i);
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			if (fd >= 0 || errno != EEXIST)
				break;
		}
	}
	if (fd < 0)
		return -errno;
	ft_give_to_sudo_user(fd, path);
	return fd;
}

int ft_new_file_error(int err, const char *path, const char *what)
{
	if (err == EEXIST)
		return ft_runtime_error(err, "%s already exists (%s are never overwritten)",
					path, what);
	return ft_runtime_error(err, "cannot create %s: %s", path, strerror(err));
}
