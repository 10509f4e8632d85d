/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ab.h - the ab and stats commands and ab files (ab.c).
 */
#ifndef FT_AB_H
#define FT_AB_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

int ft_cmd_ab(int argc, char **argv);
int ft_cmd_stats(int argc, char **argv);
bool ft_ab_parse_metric(const regex_t *re, const char *text, double *out);
/* The machine's fingerprint, "env KEY VALUE" lines; dir: debugfs or NULL. */

#endif /* FT_AB_H */
