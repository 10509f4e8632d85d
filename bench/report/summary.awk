# SPDX-License-Identifier: GPL-2.0
#
# bench/plot.sh's summary of the runs: "KEY VALUE" lines in, one
# "KEY n min median max" line per KEY out, keys in first-seen order.
# Needs stats.awk.

{ if (!($1 in n)) ord[++k] = $1; v[$1, ++n[$1]] = $2 }
END {
	for (i = 1; i <= k; i++) {
		key = ord[i]; m = n[key]
		for (a = 1; a <= m; a++) x[a] = v[key, a]
		nsort(x, m)
		print key, m, x[1], median(x, m), x[m]
	}
}
