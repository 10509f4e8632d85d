/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ab_report.h - ab files read back and their report (ab_report.c), and the
 * report's results, which the stats command prints as ab does.
 */
#ifndef FT_AB_REPORT_H
#define FT_AB_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

/* An ab file's first line: this, then the format's version (ab.c writes it). */
#define FT_AB_MAGIC	"# foliotune ab v"
#define FT_AB_VERSION	1

enum ft_ab_kind { FT_AB_WALL, FT_AB_METRIC, FT_AB_METRIC_TIME, FT_AB_COUNTER };

/* One result of the report: what A and B are compared on, and how. */
struct ft_ab_res {
	char name[160];
	enum ft_ab_kind kind;
	struct ft_paired cmp;
};

/* Whether the file at path starts as an ab file does. */
bool ft_ab_sniff(const char *path);
/* Print the report of an ab file (text or JSON); 0 or an exit code. */
int ft_ab_report_file(const char *path);
/* The verdict on r in words, into buf. */
const char *ft_ab_verdict(const struct ft_ab_res *r, char *buf, size_t len);
/* r as one JSON object of the report's results. */
void ft_ab_json_res(const struct ft_ab_res *r);

#endif /* FT_AB_REPORT_H */
