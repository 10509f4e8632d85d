/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * commands.h - the commands main.c dispatches to, one file each, named
 * after the command: ft_cmd_NAME(argc, argv), argv[0] the command's name,
 * returns the exit code.  They use util/ and never each other.
 */
#ifndef FT_COMMANDS_H
#define FT_COMMANDS_H

int ft_cmd_status(int argc, char **argv);
int ft_cmd_support(int argc, char **argv);
int ft_cmd_load(int argc, char **argv);
int ft_cmd_unload(int argc, char **argv);
int ft_cmd_get(int argc, char **argv);
int ft_cmd_set(int argc, char **argv);
int ft_cmd_counters(int argc, char **argv);
int ft_cmd_record(int argc, char **argv);
int ft_cmd_compare(int argc, char **argv);
int ft_cmd_ab(int argc, char **argv);
int ft_cmd_analyze(int argc, char **argv);

#endif /* FT_COMMANDS_H */
