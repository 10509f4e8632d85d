/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * options.h - usage texts and the option handling every command shares
 * (options.c).
 */
#ifndef FT_OPTIONS_H
#define FT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

void ft_usage(FILE *f);
/* One command's usage; -ENOENT if cmd is not a command. */
int ft_command_usage(const char *cmd, FILE *f);
/*
 * Common getopt_long handling: -j, -h, option errors.  Returns -1 to go on,
 * else the exit code (help printed: 0; bad option: 1).
 */
int ft_getopt_common(int c, int argc, char **argv, const char *cmd);
/*
 * The options of a command that has none of its own (-j, -h), and their
 * errors; -1 to go on (optind at the first argument), else the exit code.
 */
int ft_getopt_plain(int argc, char **argv, const char *cmd);
/* Record that -j was given (applied once options are parsed). */
extern bool ft_json_requested;

#endif /* FT_OPTIONS_H */
