/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * analyze.h - the analyze command (analyze.c).
 */
#ifndef FT_ANALYZE_H
#define FT_ANALYZE_H

int ft_cmd_analyze(int argc, char **argv);

#endif /* FT_ANALYZE_H */
