#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# analyze (was: stats): the statistics of ab on values measured elsewhere
# (the benchmark reports use it); it runs nothing, so neither root nor
# the module.

load helpers

@test "analyze: samples and pairs, without root or module" {
	FOLIOTUNE_SYSROOT=$T/nothing FOLIOTUNE_ASSUME_UID=1000 ft analyze "$FIX/stats.in"
	expect 0
	golden analyze.txt
	# an outlier by position
	expect 0 "^boot	samples	5	10.1	.*	4$" "^two	samples	2	.*	-$"
	# too few pairs says so
	expect 0 "^five	pairs	5	.*	few	with 5 pairs no difference can be shown at p < 0.05 (6 are needed)	0.9375$" \
		"^faults	pairs	6	.*	B-A	.*	few	with 6 pairs, 3 of them differing, no difference can be shown at p < 0.05"
	# no difference, with the smallest effect
	expect 0 "^spin	pairs	8	.*	none	no difference these runs can show: the smallest effect they could detect is [0-9.]*%	0.9609$"
	# each interval's exact level, as ab prints it: 96.9% at 6 pairs, 96.1% at 8, 93.8% at 5
	expect 0 "^# NAME	pairs	.*	TEXT	CI_LEVEL$" "^latency	pairs	6	.*	0.9688$"
}

@test "analyze -j from standard input" {
	FOLIOTUNE_SYSROOT=$T/nothing FOLIOTUNE_ASSUME_UID=1000 ft -j analyze < "$FIX/stats.in"
	expect 0
	golden analyze.json
}

@test "analyze -t: the ab fixture's pairs give ab's verdicts" {
	awk '$1 == "wall_seconds" { w = $2 } $1 == "ab_run" { p = $3; a = $4 } $1 == "metric" { v[p, a] = w; m[p, a] = $2; if (p > n) n = p }
		END { for (i = 1; i <= n; i++) print "wall_seconds", v[i, "A"], v[i, "B"]
		      for (i = 1; i <= n; i++) print "ops_per_s", m[i, "A"], m[i, "B"] }' "$FIX/ab.txt" > "$T/stats-ab.in"
	ft analyze -t "$T/stats-ab.in"
	expect 0 "^wall_seconds	pairs	6	2.016	1.706	B/A	0.8465[0-9]*	0.8380[0-9]*	0.8613[0-9]*	0.03125	lower	B faster	0.9688$" \
		"^ops_per_s	pairs	6	1007.5	1207.5	B/A	1.1985[0-9]*	.*	0.03125	higher	B slower	0.9688$"
}

@test "analyze: malformed input refused, a missing file, two files" {
	printf 'x 1\nx 1 2\n' > "$T/stats-mixed.in"
	ft analyze "$T/stats-mixed.in"
	expect 1 "stats-mixed.in:2: x has a sample on line 1 and a pair here"
	printf 'x 1 2 3\n' > "$T/stats-4.in"
	ft analyze < "$T/stats-4.in"
	expect 1 "-:1: expected NAME VALUE or NAME A B"
	printf 'x 1\nx nan\n' > "$T/stats-nan.in"
	ft analyze - < "$T/stats-nan.in"
	expect 1 "-:2: 'nan' is not a finite number"
	ft -j analyze "$T/missing.in"
	expect 2 '^{"error":".*missing.in: No such file or directory","errno":2}$'
	ft analyze a b
	expect 1 "at most one FILE"
}

@test "analyze: nothing to analyze is an error, not a header and exit 0" {
	# (a step before it in a pipe printed nothing)
	: > "$T/empty.in"
	ft analyze "$T/empty.in"
	expect 1 "analyze: $T/empty.in: no values read"
	[ -z "$output" ]
	printf '# only a comment\n\n' > "$T/comment.in"
	ft analyze < "$T/comment.in"
	expect 1 "analyze: -: no values read"
	ft -j analyze < /dev/null
	expect 1 '^{"error":"analyze: -: no values read (expected NAME VALUE or NAME A B lines)","errno":61}$'
}

@test "analyze reads standard input from fd 0, not the path /dev/stdin (the test box has none)" {
	[ "$(id -u)" = 0 ] || skip "needs root and unshare -m"
	unshare -m true 2> /dev/null || skip "needs unshare -m"
	printf 'x 1\nx 2\n' > "$T/two.in"
	# in a mount namespace with an empty /dev
	run unshare -m sh -c 'mount -t tmpfs none /dev && test ! -e /dev/stdin && exec "$0" analyze < "$1"' \
		"$FT_BIN" "$T/two.in"
	[ "$status" = 0 ]
	[[ $output == *"x	samples	2	1.5	"* ]]
}

@test "stats, the old name of analyze for one release: the same output, and a warning" {
	ft stats "$FIX/stats.in"
	expect 0 "^foliotune: warning: 'stats' is now 'analyze'; the old name goes in the next release$"
	golden analyze.txt
}
