# SPDX-License-Identifier: GPL-2.0
#
# Functions the benchmark reports and bench/plot.sh share, loaded before
# their programs (awk -f bench/report/stats.awk -f PROGRAM.awk): the median
# of the runs of a configuration and the rule that calls a run an outlier,
# defined here only so that the reports name the runs the plots leave out.

# nsort(v, n): sort v[1..n] numerically (insertion sort; n is small)
function nsort(v, n,   i, j, t) {
	for (i = 2; i <= n; i++) {
		t = v[i]
		for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
		v[j + 1] = t
	}
}
# median(v, n): the median of the sorted v[1..n], "" when n is 0
function median(v, n) {
	if (n == 0) return ""
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
# outlier(x, med, n): x, the metric of one of n >= 3 runs whose median is
# med, is 4x off it: the run stalled (or raced ahead).  It barely moves the
# median, so the reports keep it there and name it; the plots leave it out.
function outlier(x, med, n) {
	return n >= 3 && med > 0 && (x < med / 4 || x > med * 4)
}
