#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# compare: records side by side, the first the baseline; one ab file: its
# report.

load helpers

@test "compare two records (the 2016 fault-around report's table), and it points to ab" {
	ft compare "$FIX/stock.txt" "$FIX/mkold1.txt"
	expect 0
	golden compare.txt
	# two single runs: no spread (a note: not in -j)
	grep -qx "foliotune: one run each shows no spread: whether B differs from A is what 'foliotune ab' answers (pairs of runs, with statistics)" "$T/err"
	ft -j compare "$FIX/stock.txt" "$FIX/mkold1.txt"
	expect 0
	golden compare.json
	[ -z "$stderr" ]
}

@test "compare three records: no note" {
	ft compare "$FIX/stock.txt" "$FIX/mkold1.txt" "$FIX/nomodule.txt"
	expect 0
	golden compare3.txt
	[ -z "$stderr" ]
}

@test "compare --only: a regex that names no counter is an error; none that moved, a result" {
	ft compare --only 'refault|fault$' "$FIX/stock.txt" "$FIX/mkold1.txt"
	expect 0
	golden compare-only.txt
	ft compare --only 'no_such_counter' "$FIX/stock.txt" "$FIX/mkold1.txt"
	expect 1 "^foliotune: compare: --only 'no_such_counter' matches no counter of these records$"
	[ -z "$output" ]
	ft compare --only '^pgfault$' "$FIX/stock.txt" "$FIX/mkold1.txt"
	expect 0 "^(no counter matching --only '^pgfault\$' moved)$"
}

@test "compare warns when the records' env lines differ: not the load, nor a knob a record sets" {
	{ cat "$FIX/stock.txt"; printf 'env kernel_release 6.12.117+deb12-amd64\nenv cpus 2\nenv knob unmap_batch 1\nenv knob fault_around_mkold 0\nenv loadavg_before 0.1 0.2 0.3\n'; } > "$T/env-a.txt"
	{ cat "$FIX/mkold1.txt"; printf 'env kernel_release 6.12.117+deb12-amd64\nenv cpus 4\nenv knob unmap_batch 0\nenv knob fault_around_mkold 1\nenv loadavg_before 3.1 2.2 1.3\n'; } > "$T/env-b.txt"
	ft compare "$T/env-a.txt" "$T/env-b.txt"
	expect 0 "^foliotune: warning: the records differ in env cpus: 2 (stock), 4 (fault_around_mkold=1)$" \
		"^foliotune: warning: the records differ in env knob unmap_batch: 1 (stock), 0 (fault_around_mkold=1)$" \
		"^foliotune: warning: their figures may differ for that reason, not for the settings compared$"
	[ "$(grep -c 'differ in env' "$T/err")" = 2 ]
	cp "$T/out" "$T/env.out"
	ft compare "$FIX/stock.txt" "$FIX/mkold1.txt"
	cmp -s "$T/out" "$T/env.out"	# the table is the same
	ft -j compare "$T/env-a.txt" "$T/env-b.txt"
	expect 0 '"env_differences":\[{"key":"cpus","values":\["2","4"\]},{"key":"knob unmap_batch","values":\["1","0"\]}\]'
	ft compare "$T/env-a.txt" "$T/env-a.txt"
	refute grep -q warning "$T/err"
}

@test "compare: errors" {
	ft compare "$FIX/stock.txt"
	expect 1 "at least two"
	ft compare --only '(' "$FIX/stock.txt" "$FIX/mkold1.txt"
	expect 1 "invalid --only regex"
	ft compare "$FIX/stock.txt" "$T/missing.txt"
	expect 2 "missing.txt: No such file or directory"
	ft compare "$FIX/stock.txt" "$FIX/notarecord.txt"
	expect 2 "not a foliotune record"
	ft -j compare "$FIX/stock.txt" "$FIX/v2.txt"
	expect 2 '^{"error":".*v2 is newer than this foliotune reads (v1)","errno":[0-9]*}$'
}

@test "compare of an ab file: its report, text and JSON; alone only" {
	ft compare "$FIX/ab.txt"
	expect 0
	golden ab.txt
	ft -j compare "$FIX/ab.txt"
	expect 0
	golden ab.json
	ft compare "$FIX/ab.txt" "$FIX/stock.txt"
	expect 1 "is compared alone"
}
