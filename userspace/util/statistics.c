// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * statistics.c - the statistics of "foliotune ab" (docs/cli.md, "Statistics"):
 * per-arm summaries, the exact Wilcoxon signed-rank test of paired
 * differences and the Hodges-Lehmann estimate with its confidence interval,
 * and from them the verdict on two arms' pairs.
 * Plain C so the CLI answers on a user's box with nothing else installed;
 * tests/host/cli/stats_ref.py checks it against scipy.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "statistics.h"
#include "xalloc.h"

static int ft_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile p of sorted x, linear interpolation (numpy's default, R type 7). */
double ft_quantile(const double *sorted, size_t n, double p)
{
	double h, lo;
	size_t i;

	if (!n)
		return NAN;
	h = (double)(n - 1) * p;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

void ft_summarise(const double *x, size_t n, struct ft_summary *s)
{
	double *v = ft_xcalloc(n, sizeof(*v));

	memcpy(v, x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), ft_dbl_cmp);
	s->n = n;
	s->median = ft_quantile(v, n, 0.5);
	s->q1 = ft_quantile(v, n, 0.25);
	s->q3 = ft_quantile(v, n, 0.75);
	s->min = n ? v[0] : NAN;
	s->max = n ? v[n - 1] : NAN;
	free(v);
}

/*
 * The outlier rule of the benchmark reports and plots: x, one of the s->n
 * >= 3 values summarised in s, is 4x off their median (the run stalled, or
 * raced ahead).  It barely moves the median, so it is named, not dropped.
 */
bool ft_outlier(double x, const struct ft_summary *s)
{
	return s->n >= 3 && s->median > 0 &&
	       (x < s->median / 4 || x > s->median * 4);
}

/*
 * Null distribution of twice the signed-rank sum: dist[s] = P(2 W+ = s),
 * s = 0..sum(r2), where r2 are the doubled (integer) ranks; exact also
 * with tied ranks (the permutation distribution given those ranks).
 */
static double *ft_signrank_dist(const unsigned int *r2, size_t n, size_t *len)
{
	size_t total = 0, i, s;
	double *d;

	for (i = 0; i < n; i++)
		total += r2[i];
	d = ft_xcalloc(total + 1, sizeof(*d));
	d[0] = 1.0;
	for (i = 0; i < n; i++) {
		for (s = total + 1; s-- > 0;) {
			double with = s >= r2[i] ? d[s - r2[i]] : 0.0;

			d[s] = 0.5 * (d[s] + with);
		}
	}
	*len = total + 1;
	return d;
}

struct ft_absidx {
	double a;
	size_t i;
};

static int ft_absidx_cmp(const void *a, const void *b)
{
	const struct ft_absidx *x = a, *y = b;

	return x->a < y->a ? -1 : x->a > y->a;
}

/*
 * Exact two-sided Wilcoxon signed-rank test of d (zero differences are
 * dropped, Wilcoxon's rule; tied |d| get mid-ranks and the exact
 * distribution of those ranks).  p = 2 min(P(W+ <= w), P(W+ >= w)), at most 1.
 */
void ft_wilcoxon(const double *d, size_t n, struct ft_wilcoxon *w)
{
	struct ft_absidx *a = ft_xcalloc(n, sizeof(*a));
	unsigned int *r2 = ft_xcalloc(n, sizeof(*r2));
	size_t m = 0, i, j, len, s, obs = 0;
	double *dist, lo = 0, hi = 0;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < n; i++) {
		if (d[i] == 0.0) {
			w->nzero++;
			continue;
		}
		a[m].a = fabs(d[i]);
		a[m].i = i;
		m++;
	}
	w->n = m;
	qsort(a, m, sizeof(*a), ft_absidx_cmp);
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && a[j].a == a[i].a; j++)
			;
		if (j - i > 1)
			w->ties = true;
		/* mid-rank of positions i..j-1 (1-based), doubled: i + j + 1 */
		for (s = i; s < j; s++) {
			r2[s] = (unsigned int)(i + j + 1);
			if (d[a[s].i] > 0)
				obs += r2[s];
		}
	}
	w->w_plus = obs / 2.0;
	if (!m) {
		w->p = 1.0;
		w->p_min = 1.0;
		goto out;
	}
	dist = ft_signrank_dist(r2, m, &len);
	for (s = 0; s < len; s++) {
		if (s <= obs)
			lo += dist[s];
		if (s >= obs)
			hi += dist[s];
	}
	w->p = fmin(1.0, 2.0 * fmin(lo, hi));
	/* all signs alike: the most extreme outcome there is */
	w->p_min = fmin(1.0, 2.0 * fmin(dist[0], dist[len - 1]));
	free(dist);
out:
	free(a);
	free(r2);
}

/*
 * Hodges-Lehmann estimate of the centre of d (the median of the Walsh
 * averages (d_i + d_j) / 2, i <= j) and its distribution-free interval:
 * the k-th smallest and k-th largest Walsh averages, k the largest with
 * P(W+ <= k - 1) <= (1 - level) / 2 under the untied null with n pairs
 * (the interval that inverts the signed-rank test).  When even k = 1 is
 * too wide a tail (n < 6 at 95%), k = 1: [min, max] of the Walsh averages,
 * with the confidence that gives.  All n differences count, zeros too.
 */
void ft_hodges_lehmann(const double *d, size_t n, double level,
		       struct ft_hl *hl)
{
	size_t nw = n * (n + 1) / 2, i, j, k = 0, len;
	unsigned int *r2;
	double *wa, *dist, cum = 0, alpha = (1.0 - level) / 2.0;

	memset(hl, 0, sizeof(*hl));
	if (!n) {
		hl->est = hl->lo = hl->hi = NAN;
		return;
	}
	wa = ft_xcalloc(nw, sizeof(*wa));
	for (i = 0, k = 0; i < n; i++)
		for (j = i; j < n; j++)
			wa[k++] = (d[i] + d[j]) / 2.0;
	qsort(wa, nw, sizeof(*wa), ft_dbl_cmp);
	hl->est = ft_quantile(wa, nw, 0.5);

	r2 = ft_xcalloc(n, sizeof(*r2));
	for (i = 0; i < n; i++)
		r2[i] = (unsigned int)(2 * (i + 1));
	dist = ft_signrank_dist(r2, n, &len);
	/* dist is indexed by 2 W+; P(W+ <= t) sums the even entries */
	for (k = 0; 2 * k < len; k++) {
		if (cum + dist[2 * k] > alpha)
			break;
		cum += dist[2 * k];
	}
	/* k = number of W+ values in the tail, i.e. P(W+ <= k - 1) = cum */
	if (k < 1) {
		k = 1;
		cum = dist[0];
	}
	hl->lo = wa[k - 1];
	hl->hi = wa[nw - k];
	hl->level = 1.0 - 2.0 * cum;
	free(dist);
	free(r2);
	free(wa);
}

/*
 * Arm A against arm B over n pairs (a[i], b[i]): each arm's summary, the
 * signed-rank test and Hodges-Lehmann interval of the paired differences
 * (ratio: of the log ratios, the estimate and interval then as B/A), the
 * verdict and the smallest effect these pairs could detect.
 */
void ft_paired(const double *a, const double *b, size_t n, bool ratio,
	       struct ft_paired *res)
{
	double *d = ft_xcalloc(n, sizeof(*d));
	size_t i;

	memset(res, 0, sizeof(*res));
	ft_summarise(a, n, &res->s[0]);
	ft_summarise(b, n, &res->s[1]);
	for (i = 0; i < n; i++)
		d[i] = ratio ? log(b[i] / a[i]) : b[i] - a[i];
	ft_wilcoxon(d, n, &res->w);
	ft_hodges_lehmann(d, n, FT_STATS_LEVEL, &res->hl);
	res->ratio = ratio;
	res->est = ratio ? exp(res->hl.est) : res->hl.est;
	res->lo = ratio ? exp(res->hl.lo) : res->hl.lo;
	res->hi = ratio ? exp(res->hl.hi) : res->hl.hi;
	/* the interval must agree with the test */
	res->verdict = 0;
	if (res->w.p < FT_STATS_ALPHA && res->hl.lo > 0)
		res->verdict = 1;
	else if (res->w.p < FT_STATS_ALPHA && res->hl.hi < 0)
		res->verdict = -1;
	/*
	 * Smallest detectable effect: half the interval's width.  A true effect
	 * of that size moves an interval this wide just clear of "no change"
	 * (detected about half the time); smaller effects are not shown.
	 */
	res->can_detect = res->w.p_min < FT_STATS_ALPHA;
	if (ratio) {
		res->detect = exp((res->hl.hi - res->hl.lo) / 2) - 1;
	} else if (res->s[0].median != 0) {
		res->detect = (res->hl.hi - res->hl.lo) / 2 / fabs(res->s[0].median);
	} else {
		res->detect = (res->hl.hi - res->hl.lo) / 2;
		res->detect_abs = true;
	}
	free(d);
}
