/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * compare.h - the compare command (compare.c).
 */
#ifndef FT_COMPARE_H
#define FT_COMPARE_H

int ft_cmd_compare(int argc, char **argv);

#endif /* FT_COMPARE_H */
