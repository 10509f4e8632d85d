/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * stats_cmd.h - the stats command (stats_cmd.c).
 */
#ifndef FT_STATS_CMD_H
#define FT_STATS_CMD_H

int ft_cmd_stats(int argc, char **argv);

#endif /* FT_STATS_CMD_H */
