/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * lifecycle.h - the build file, the load and unload commands (lifecycle.c).
 */
#ifndef FT_LIFECYCLE_H
#define FT_LIFECYCLE_H

struct ft_build {
	char release[256];
	char version[512];
	char verified[512];	/* "in the tree", "locally on HOST ... at TIME", or "" */
};
int ft_parse_build(const char *content, struct ft_build *b);
int ft_cmd_load(int argc, char **argv);
int ft_cmd_unload(int argc, char **argv);

#endif /* FT_LIFECYCLE_H */
