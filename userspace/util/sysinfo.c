// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * sysinfo.c - what the running kernel is: its release and version string
 * (the support check and record files name them) and its lockdown mode
 * (which explains a refused debugfs or module load).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "fileio.h"
#include "path.h"
#include "sysinfo.h"

int ft_kernel_release(char *buf, size_t len)
{
	char path[FT_PATH_MAX];
	struct utsname u;
	int n;

	if (!ft_path(path, sizeof(path), "/proc/sys/kernel/osrelease") &&
	    !ft_read_line(path, buf, len) && *buf)
		return 0;
	if (uname(&u))
		return -errno;
	n = snprintf(buf, len, "%s", u.release);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int ft_kernel_version(char *buf, size_t len)
{
	char path[FT_PATH_MAX];
	struct utsname u;
	int n;

	if (!ft_path(path, sizeof(path), "/proc/sys/kernel/version") &&
	    !ft_read_line(path, buf, len) && *buf)
		return 0;
	if (uname(&u))
		return -errno;
	n = snprintf(buf, len, "%s", u.version);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

/* "none [integrity] confidentiality" -> "integrity" */
int ft_parse_lockdown(const char *content, char *buf, size_t len)
{
	const char *open = strchr(content, '['), *close;
	size_t n;

	if (!open)
		return -EBADMSG;
	close = strchr(open, ']');
	if (!close)
		return -EBADMSG;
	n = (size_t)(close - open - 1);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, open + 1, n);
	buf[n] = '\0';
	return 0;
}

void ft_lockdown_mode(char *buf, size_t len)
{
	char path[FT_PATH_MAX], line[256];

	buf[0] = '\0';
	if (ft_path(path, sizeof(path), "/sys/kernel/security/lockdown") ||
	    ft_read_line(path, line, sizeof(line)) ||
	    ft_parse_lockdown(line, buf, len))
		buf[0] = '\0';
}
