/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * statistics.h - the statistics of ab: quartiles, Wilcoxon signed-rank
 * test, Hodges-Lehmann interval, and the comparison of two arms' pairs that
 * ab and analyze report (statistics.c).
 */
#ifndef FT_STATISTICS_H
#define FT_STATISTICS_H

#include <stdbool.h>
#include <stddef.h>

#define FT_STATS_MAX_PAIRS	1000	/* the exact distributions stay cheap */
#define FT_STATS_LEVEL		0.95	/* the intervals' confidence */
#define FT_STATS_ALPHA		0.05	/* a difference is shown at p below it */

struct ft_summary {
	size_t n;
	double median, q1, q3, min, max;	/* quartiles: linear interpolation */
};
double ft_quantile(const double *sorted, size_t n, double p);
void ft_summarise(const double *x, size_t n, struct ft_summary *s);
bool ft_outlier(double x, const struct ft_summary *s);
struct ft_wilcoxon {
	size_t n;		/* non-zero differences tested */
	size_t nzero;		/* zero differences dropped */
	bool ties;		/* tied |differences| (mid-ranks) */
	double w_plus;		/* rank sum of the positive differences */
	double p;		/* exact two-sided p-value */
	double p_min;		/* the smallest p-value these ranks allow */
};
void ft_wilcoxon(const double *d, size_t n, struct ft_wilcoxon *w);
struct ft_hl {
	double est, lo, hi;	/* estimate and interval of the centre */
	double level;		/* the interval's exact confidence */
};
void ft_hodges_lehmann(const double *d, size_t n, double level,
		       struct ft_hl *hl);
struct ft_paired {
	bool ratio;		/* B/A of paired log ratios, else B-A shift */
	struct ft_summary s[2];
	struct ft_wilcoxon w;
	struct ft_hl hl;
	double est, lo, hi;	/* ratio or shift */
	bool can_detect;	/* can this n reach p < alpha at all */
	double detect;		/* smallest detectable effect: fraction, or absolute */
	bool detect_abs;
	int verdict;		/* +1 B higher, -1 B lower, 0 none shown */
};
void ft_paired(const double *a, const double *b, size_t n, bool ratio,
	       struct ft_paired *res);

#endif /* FT_STATISTICS_H */
