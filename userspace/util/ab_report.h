/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ab_report.h - the report of an ab file (ab_report.c), and its verdict
 * and JSON result, which the analyze command prints as ab does.
 */
#ifndef FT_AB_REPORT_H
#define FT_AB_REPORT_H

#include <stddef.h>

#include "ab_file.h"

/* Print the report of an ab file (text or JSON); 0 or an exit code. */
int ft_ab_report_file(const char *path);
/* The verdict on r in words, into buf. */
const char *ft_ab_verdict(const struct ft_ab_res *r, char *buf, size_t len);
/* r as one JSON object of the report's results. */
void ft_ab_json_res(const struct ft_ab_res *r);

#endif /* FT_AB_REPORT_H */
