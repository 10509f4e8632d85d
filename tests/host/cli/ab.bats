#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# ab: a workload in pairs under two arms' settings, every run recorded
# into one ab file, the knobs restored, the report; ab-plot.sh.  The
# statistics themselves: stats_ref.py against scipy (make check runs it).

load helpers

setup() {
	T=$BATS_TEST_TMPDIR
	R=$T/root U=$T/unloaded
	D=$R/sys/kernel/debug/foliotune
	mk_root "$R" loaded
	mk_root "$U" unloaded
	export FOLIOTUNE_SYSROOT=$R
	echo 0 > "$D/reclaim_probes"
	# A workload whose arms differ: unmap_batches moves by ~1000 with
	# unmap_batch=1 and ~10 without, unmap_single_ptes by noise alike in
	# both arms, unmap_calls by 100 in both (the same delta: not
	# reported); it prints a throughput that B raises, counts its runs in
	# ab-count and notes the knobs in ab-during; FAIL_AT=N: run N exits 3;
	# HANG_AT=N: run N sleeps.
	cat > "$T/ab-work.sh" <<WORK
b=\$(cat "$D/unmap_batch")
n=\$(cat "$T/ab-count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > "$T/ab-count"
echo "\$b \$(cat "$D/reclaim_probes")" >> "$T/ab-during"
awk -v b=\$b -v n=\$n '\$1 == "unmap_batches" { \$2 += b ? 1000 + n : 10 + n }
	\$1 == "unmap_calls" { \$2 += 100 }
	\$1 == "unmap_single_ptes" { \$2 += (n * 7) % 5 }
	{ print }' "$D/vmstat" > "$D/vmstat.new" && mv "$D/vmstat.new" "$D/vmstat"
echo "ops/s: \$((1000 + b * 200 + n))"
[ "\$n" != "\${FAIL_AT:-0}" ] || exit 3
[ "\$n" != "\${HANG_AT:-0}" ] || { touch "$T/ab-hang"; exec sleep 30; }
WORK
}

knobs_restored() {
	[ "$(cat "$D/unmap_batch") $(cat "$D/reclaim_probes")" = "1 0" ] ||
		{ diag "unmap_batch reclaim_probes: $(cat "$D/unmap_batch") $(cat "$D/reclaim_probes")"; return 1; }
}

@test "ab: runs and reports; ABBA, warm-ups alternate, reclaim_probes armed in both arms, knobs restored" {
	ft ab -o "$T/ab1.txt" -k unmap_batch=0,1 -n 6 -w 2 -m 'ops/s: ([0-9]+)' -N ops_per_s -- sh "$T/ab-work.sh"
	expect 0 "^runs:     6 of 6 pairs, ABBA order, 2 warm-up runs" \
		"^ops_per_s " "verdict: B higher" "^foliotune/unmap_batches .* B higher$" \
		"machine-wide: the deltas include every process"
	expect_not "unmap_calls"	# equal deltas are not reported
	[ "$(cat "$T/ab-count") $(grep -c '^ab_run ' "$T/ab1.txt")" = "14 12" ]
	[ "$(cut -d' ' -f1 "$T/ab-during" | tr -d '\n')" = "01011001100110" ]
	refute grep -q ' 0$' "$T/ab-during"
	knobs_restored
	[ "$(grep -c '^# foliotune record v1$' "$T/ab1.txt")" = 12 ]
	grep -q '^env knob unmap_batch 1$' "$T/ab1.txt"
	# compare prints what ab printed
	cp "$T/out" "$T/ab1.out"
	ft compare "$T/ab1.txt"
	cmp -s "$T/out" "$T/ab1.out"
}

@test "ab: a line per run, as hyperfine shows it: how many of all, the time left" {
	ft ab -o "$T/ab1.txt" -k unmap_batch=0,1 -n 6 -w 2 -m 'ops/s: ([0-9]+)' -N ops_per_s -- sh "$T/ab-work.sh"
	[ "$(sed -n 's|^foliotune: run \([0-9]*\)/14 (.*): [0-9.]* s, ops_per_s [0-9]*.*|\1|p' "$T/err" | tr '\n' ' ')" = \
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 " ]
	grep -q '^foliotune: run 2/14 (warm-up, arm B): ' "$T/err"
	grep -q '^foliotune: run 13/14 (pair 6, arm B): .*; ~[0-9]* s left$' "$T/err"
	grep -q '^foliotune: run 14/14 (pair 6, arm A): [0-9.]* s, ops_per_s [0-9]*$' "$T/err"
}

@test "ab: the intervals' exact confidence level everywhere (6 pairs: 96.9%)" {
	ft ab -o "$T/ab1.txt" -k unmap_batch=0,1 -n 6 -w 0 -m 'ops/s: ([0-9]+)' -N ops_per_s -- sh "$T/ab-work.sh"
	grep -q '^96.9% CI; exact Wilcoxon' "$T/out"	# the counters' header
	grep -q '^  B/A [0-9.]*, 96.9% CI ' "$T/out"	# the wall time's
}

@test "ab --prepare CMD: before every run, warm-ups too, under its arm, untimed, out of the deltas and of ab's output" {
	cat > "$T/prep.sh" <<PREP
echo "\$(cat "$D/unmap_batch") \$(cat "$T/ab-count" 2>/dev/null || echo 0)" >> "$T/prep-log"
awk '\$1 == "unmap_calls" { \$2 += 500 } { print }' "$D/vmstat" > "$D/vmstat.new" && mv "$D/vmstat.new" "$D/vmstat"
echo "prepare says hello"
PREP
	ft ab -o "$T/ab-prep.txt" -k unmap_batch=0,1 -n 3 -w 1 -p "sh $T/prep.sh" -- sh "$T/ab-work.sh"
	expect 0 "^prepare:  sh $T/prep.sh (before every run, untimed)$"
	# before each of the 7 runs: the run's arm set, the run not started
	[ "$(tr '\n' ' ' < "$T/prep-log")" = "0 0 0 1 1 2 1 3 0 4 0 5 1 6 " ]
	[ "$(grep -c '^counter foliotune unmap_calls 100$' "$T/ab-prep.txt")" = 6 ]
	refute grep -q 'prepare says hello' "$T/out" "$T/err"
	grep -qx "prepare sh $T/prep.sh" "$T/ab-prep.txt"
}

@test "ab --prepare that fails stops ab: the command never ran, knobs restored" {
	ft ab -o "$T/ab-prepfail.txt" -k unmap_batch=0,1 -n 3 -w 1 -p 'exit 4' -- sh "$T/ab-work.sh"
	expect 2 "^foliotune: warm-up run 1 (arm A) failed: its --prepare command exited with status 4$" \
		"the runs done so far are in $T/ab-prepfail.txt"
	[ ! -e "$T/ab-count" ]
	knobs_restored
	ft ab -o "$T/ab-refused.txt" -k unmap_batch=0,1 -p '' -- true
	expect 1 "ab: empty --prepare command"
}

@test "ab -t: the metric is a time" {
	ft ab -o "$T/ab4.txt" -k unmap_batch=0,1 -n 6 -w 0 -t -m 'ops/s: ([0-9]+)' -- sh "$T/ab-work.sh"
	expect 0 "^metric .*" "verdict: B slower"
}

@test "ab -j --random: JSON, the seed; B keeps the value found for a knob only A sets" {
	ft -j ab -o "$T/ab2.txt" --random=7 -a unmap_batch=0 -a fault_around_bytes=16K -b unmap_batch=1 -n 3 -w 0 -- sh "$T/ab-work.sh"
	expect 0 '^{"file":"' '"order":"random 7"' '"pairs":3,' \
		"cannot reach p < 0.05" '"verdict":"with 3 pairs no difference can be shown at p < 0.05 (6 are needed)"'
	grep -q '^ops/s: ' "$T/err"	# the command's output kept off stdout
	grep -qx 'arm B unmap_batch=1 fault_around_bytes=65536 reclaim_probes=1' "$T/ab2.txt"
	[ "$(cat "$D/fault_around_bytes")" = 65536 ]
}

@test "ab -f: the metric from a file the command writes (the first number; with -m the matching line)" {
	ft ab -o "$T/ab5.txt" -k unmap_batch=0,1 -n 6 -w 0 -f "$T/ab-metric" -- \
		sh -c "sh '$T/ab-work.sh' | sed 's/ops.s: /done in /' > '$T/ab-metric'"
	expect 0 "^metric .*" "verdict: B higher"
	[ "$(sed -n 's/^metric //p' "$T/ab5.txt" | head -2 | tr '\n' ' ')" = "1001 1202 " ]
	rm -f "$T/ab-count"
	ft ab -o "$T/ab6.txt" -k unmap_batch=0,1 -n 3 -w 0 -f "$T/ab-metric" -m 'MB/s ([0-9]+)' -N mbs -- \
		sh -c "sh '$T/ab-work.sh' > '$T/ab-metric'"
	expect 2 "run 1 (pair 1, arm A) failed: no line matching the metric's expression in $T/ab-metric"
}

@test "ab --aa, under sudo: the file is the sudo user's, mode 0600" {
	SUDO_UID=65534 SUDO_GID=65533 ft ab -o "$T/ab3.txt" --aa -a unmap_batch=0 -n 3 -w 0 -- true
	expect 0 "arm B:    unmap_batch=0 reclaim_probes=1 (A/A: the noise floor)"
	[ "$(id -u)" = 0 ] || skip "not root (chown needs root)"
	[ "$(stat -c %u:%g:%a "$T/ab3.txt")" = 65534:65533:600 ]
}

@test "ab: refused before anything runs or changes" {
	local args
	echo 16384 > "$D/fault_around_bytes"
	for args in "-n 2 -k unmap_batch=0,1|at least 3 pairs" \
		    "-k bogus=0,1|unknown knob .bogus." \
		    "-a fault_around_bytes=4M -b unmap_batch=0|out of range 4K..2M" \
		    "-k unmap_batch=0|expected KNOB=VALUE_A,VALUE_B" \
		    "-a unmap_batch=0 -b unmap_batch=0|same settings" \
		    "--aa -a unmap_batch=0 -b unmap_batch=1|give them with -a only" \
		    "-k unmap_batch=0,1 -m (|bad regular expression" \
		    "-k unmap_batch=0,1 -a unmap_batch=1|set twice for arm A" \
		    "-k unmap_batch=0,1 -N ops|need -m or -f" \
		    "-k unmap_batch=0,1 -t|need -m or -f" \
		    "-k unmap_batch=0,1 -n 1001|invalid number .1001. (0..1000)"; do
		# shellcheck disable=SC2086
		ft ab -o "$T/ab-refused.txt" ${args%%|*} -- sh "$T/ab-work.sh"
		expect 1 "${args#*|}"
		[ ! -e "$T/ab-count" ]
		[ ! -e "$T/ab-refused.txt" ]
		[ "$(cat "$D/unmap_batch") $(cat "$D/fault_around_bytes")" = "1 16384" ]
	done
	ft ab -k unmap_batch=0,1
	expect 1 "missing COMMAND"
}

@test "ab: a knob not provided, not root, the module not loaded: runtime errors, no file" {
	ft ab -o "$T/ab-refused.txt" -k fault_around_auto=0,1 -- true
	expect 2 "not provided by this module"
	FOLIOTUNE_ASSUME_UID=1000 ft ab -o "$T/ab-refused.txt" -k unmap_batch=0,1 -- true
	expect 2 "requires root"
	FOLIOTUNE_SYSROOT=$U ft ab -o "$T/ab-refused.txt" -k unmap_batch=0,1 -- true
	expect 2 "^foliotune: the foliotune module is not loaded (try 'foliotune load')$"
	[ "$(wc -l < "$T/err")" = 1 ]
	[ ! -e "$T/ab-refused.txt" ]
}

@test "ab: a failing run stops it, says which run, restores the knobs" {
	FAIL_AT=4 ft ab -o "$T/ab-fail.txt" -k unmap_batch=0,1 -n 3 -w 1 -- sh "$T/ab-work.sh"
	expect 2 "run 3 (pair 2, arm B) failed: the command exited with status 3" \
		"the runs done so far are in $T/ab-fail.txt"
	knobs_restored
	[ "$(cat "$T/ab-count") $(grep -c '^ab_run ' "$T/ab-fail.txt")" = "4 3" ]
	rm -f "$T/ab-count"
	ft ab -o "$T/ab-nometric.txt" -k unmap_batch=0,1 -n 3 -w 0 -m 'MB/s: ([0-9]+)' -- sh "$T/ab-work.sh"
	expect 2 "run 1 (pair 1, arm A) failed: no line matching the metric's expression in the command's output"
}

@test "ab: SIGTERM: knobs restored, the runs done kept and read back, exit 143" {
	local i=0
	HANG_AT=4 ft_bg ab -o "$T/ab-int.txt" -k unmap_batch=0,1 -n 3 -w 0 -- sh "$T/ab-work.sh"
	while [ ! -e "$T/ab-hang" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	kill -TERM "$bg"
	ft_wait
	expect 143 "the runs done so far are in $T/ab-int.txt"
	knobs_restored
	[ "$(grep -c '^ab_run ' "$T/ab-int.txt")" = 4 ]
	grep -q '^ab_interrupted Terminated$' "$T/ab-int.txt"
	ft compare "$T/ab-int.txt"
	expect 0 "^runs:     1 of 3 pairs, ABBA order, 0 warm-up runs, interrupted by Terminated"
}

@test "ab: a knob that cannot be restored: a warning with the command, exit 2" {
	# the last run turns fault_around_mkold's file into a directory
	ft ab -o "$T/ab-nr.txt" -a fault_around_mkold=1 -b fault_around_mkold=2 -n 3 -w 0 -- \
		sh -c "n=\$(cat '$T/ab-count' 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > '$T/ab-count'
		       [ \$n != 6 ] || { rm '$D/fault_around_mkold' && mkdir '$D/fault_around_mkold'; }"
	expect 2 "warning: cannot restore fault_around_mkold to 0: Is a directory (run 'foliotune set fault_around_mkold=0')" \
		"1 setting(s) could not be restored"
}

@test "ab-plot.sh: every complete run of an ab file, by pair and arm; a record refused" {
	command -v gnuplot > /dev/null || { diag "gnuplot missing: run make deps (gnuplot-nox)"; return 1; }
	cp "$FIX/ab.txt" "$T/plot.txt"
	run sh "$FT_SRCDIR/ab-plot.sh" "$T/plot.txt"
	[ "$status" = 0 ]
	[[ $output == *"wrote $T/plot.png, $T/plot.svg ($T/plot.dat: 12 runs)"* ]]
	[ -s "$T/plot.png" ]
	[ -s "$T/plot.svg" ]
	[ "$(awk '{ printf "%s%s=%s/%s ", $1, $2, $3, $4 }' "$T/plot.dat")" = \
		"$(awk '$1 == "wall_seconds" { w = $2 } $1 == "ab_run" { a = $4; p = $3 } $1 == "metric" { printf "%s%s=%s/%s ", p, a, w, $2 }' "$FIX/ab.txt")" ]
	run sh "$FT_SRCDIR/ab-plot.sh" "$FIX/stock.txt" "$T/plot2"
	[ "$status" = 1 ]
	[[ $output == *"not a foliotune ab file"* ]]
}
