# SPDX-License-Identifier: GPL-2.0
#
# bench/plot.sh leaves stalled runs out of its figures: "BENCH.CONFIG.REP
# METRIC VALUE" lines in, the same lines out but those of an outlier of
# BENCH.CONFIG (stats.awk, the runs unmap-report.sh warns about), which are
# named on stderr.  Needs stats.awk.

{ split($1, p, "."); g = p[1] "." p[2]; n[g]++; v[g, n[g]] = $3; line[NR] = $0; grp[NR] = g; x[NR] = $3 }
END {
	for (g in n) {
		m = n[g]
		for (i = 1; i <= m; i++) y[i] = v[g, i]
		nsort(y, m); med[g] = median(y, m)
	}
	for (r = 1; r <= NR; r++) {
		g = grp[r]
		if (outlier(x[r], med[g], n[g]))
			printf "plot.sh: left out %s (%s against a median of %s)\n", line[r], x[r], med[g] > "/dev/stderr"
		else print line[r]
	}
}
