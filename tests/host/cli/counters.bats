#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# counters (was: stat): the module's counters, or their deltas every
# interval.

load helpers

@test "counters, -j" {
	ft counters
	expect 0
	golden counters.txt
	ft -j counters
	expect 0
	golden counters.json
}

@test "counters -i -c: the deltas of each interval" {
	ft counters -i 0.1 -c 2
	# interval lengths depend on host load (valgrind, a busy CI): any
	expect 0 "^# interval 1 ([0-9.]* s" "^# interval 2 ([0-9.]* s" "^unmap_calls 0$"
	[ "$(grep -c '^# interval' "$T/out")" = 2 ]
	ft -j counters -i 0.1 -c 3
	expect 0 '^{"interval":3,"seconds":[0-9.]*,"deltas":{"loads":0,'
	[ "$(wc -l < "$T/out")" = 3 ]
}

@test "counters: usage errors" {
	ft counters -c 2
	expect 1 "needs -i/--interval"
	ft counters -i 0
	expect 1 "invalid interval '0'"
	ft counters -i soon
	expect 1 "invalid interval 'soon'"
	ft counters -i 1 -c 0
	expect 1 "invalid count '0'"
	ft counters now
	expect 1 "counters: unexpected argument 'now'"
}

@test "stat, the old name of counters for one release: the same command, and a warning" {
	ft stat
	expect 0 "^foliotune: warning: 'stat' is now 'counters'; the old name goes in the next release$"
	golden counters.txt
	ft -j stat -x
	expect 1 '^{"error":"counters: invalid option -- '"'"'x'"'"'","errno":22}$'
	ft help stat
	grep -q '^Usage: foliotune \[-j\] counters ' "$T/out"
}
