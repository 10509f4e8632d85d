// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * path.c - where the CLI looks: every system path goes through
 * FOLIOTUNE_SYSROOT (and debugfs through FOLIOTUNE_DEBUGFS), which is how
 * the host tests run the CLI against a fake tree.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"

const char *ft_sysroot(void)
{
	const char *s = getenv("FOLIOTUNE_SYSROOT");

	return s ? s : "";
}

int ft_path(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = ft_sysroot();
	size_t rl = strlen(root);
	va_list ap;
	int n;

	/* "/a/" + "/sys" -> "/a/sys" */
	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	if (rl >= len)
		return -ENAMETOOLONG;
	memcpy(buf, root, rl);
	va_start(ap, fmt);
	n = vsnprintf(buf + rl, len - rl, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - rl)
		return -ENAMETOOLONG;
	return 0;
}

int ft_debugfs_root(char *buf, size_t len)
{
	const char *d = getenv("FOLIOTUNE_DEBUGFS");
	int n;

	if (d && *d) {
		n = snprintf(buf, len, "%s", d);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		return 0;
	}
	return ft_path(buf, len, "/sys/kernel/debug");
}

int ft_join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}
