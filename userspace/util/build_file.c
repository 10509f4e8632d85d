// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * build_file.c - the module's debugfs "build" file: which kernel build it
 * was verified for, and where.
 */
#include <errno.h>
#include <string.h>

#include "build_file.h"
#include "fileio.h"

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
