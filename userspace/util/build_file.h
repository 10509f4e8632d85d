/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * build_file.h - the module's "build" file read back (build_file.c).
 */
#ifndef FT_BUILD_FILE_H
#define FT_BUILD_FILE_H

struct ft_build {
	char release[256];
	char version[512];
	char verified[512];	/* "in the tree", "locally on HOST ... at TIME", or "" */
};
/*
 * "release <uname -r>" and "version <kernel version>" lines (also
 * "key=value" or "key: value"); bare lines are taken as release, then
 * version; "verified <where>".  0, or -EBADMSG without a release.
 */
int ft_parse_build(const char *content, struct ft_build *b);

#endif /* FT_BUILD_FILE_H */
