// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * privilege.c - who runs the CLI: root checks (FOLIOTUNE_ASSUME_UID lets
 * the host tests pretend), and giving the files it writes under sudo(8)
 * back to the user who ran sudo.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
