#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# foliotune ab against the real module, on the file2m workload of
# bench/unmap-guest.sh: a clean file of FT_AB_SIZE_MB read into 2 MiB page
# cache folios (MADV_HUGEPAGE), mapped 2 MiB-aligned by a process with THP
# disabled (so each folio is 512 PTEs in one page table) and reclaimed with
# memory.reclaim of its memcg; the metric is the reclaim's own time.
#
#  - unmap_batch=2 (one PTE at a time, what 0 is on 6.12) against 1: "B
#    faster" with p < 0.05, and the premise from the counters:
#    unmap_batch_order9 moved in B's runs and in no A run;
#  - A/A (--aa, unmap_batch=1 in both arms): "no difference".  By the exact
#    test's construction a false alarm has probability at most 5%, too often
#    for a suite that runs at every landing: a difference found is put to a
#    second, independent A/A, and only a difference found twice fails (at
#    most 0.25% by chance; a bias of ab's own, such as arms that do not run
#    alike, shows in both);
#  - SIGINT while an A run runs: exit 130, the knobs restored, the runs done
#    kept in the file.
# Every ab report is printed as diagnostics (the smallest detectable effect
# of each run is in it).
# quiet: its verdicts time a 20 ms reclaim; with a second test box on the
# other core (and the builds around it) its spread grew past what 8 pairs
# can tell apart (B/A 0.73, p 0.55; tests/run.sh runs it alone).
. "$(dirname "$0")/../lib.sh"
plan 14
ft=$FT_REPO/userspace/foliotune
RB=$FT_REPO/tests/progs/ft_reclaim_bench
w=$(mktemp -d)
# kmemleak's automatic scan (a debug kernel's, when its scan thread runs)
# takes a CPU for seconds at a time, in some runs and not in others:
# paused while this test times runs, resumed on exit.  Only a running
# thread is paused: "scan=on" would start one in a kernel that has none
# (the debug lane's: DEBUG_KMEMLEAK_AUTO_SCAN off, rel-leaks scans itself).
kml=/sys/kernel/debug/kmemleak
kml_paused=
if [ -w "$kml" ] && pgrep -x kmemleak > /dev/null; then
	echo scan=off > "$kml" && kml_paused=1
	echo "# kmemleak's automatic scan paused while runs are timed"
fi
trap 'rm -rf "$w"; [ -z "$kml_paused" ] || echo scan=on > "$kml"' EXIT
# Linux 7's per-PTE unmap costs about twice foliotune's batches per 2 MiB
# folio (6.12's: several times), and 64 MiB of it (0.03 s against 0.016 s,
# one outlier of 0.12 s) was too little to beat a loaded host's noise in 8
# pairs: 256 MiB there.
SIZE=${FT_AB_SIZE_MB:-64}
ft_linux7 && SIZE=${FT_AB_SIZE_MB:-256}
PAIRS=${FT_AB_PAIRS:-8}
# perl -e "$NOTHP" CMD...: exec CMD with PR_SET_THP_DISABLE (prctl is
# syscall 157, PR_SET_THP_DISABLE 41), as bench/unmap-guest.sh does.
# shellcheck disable=SC2016  # perl code
NOTHP='syscall(157, 41, 1, 0, 0, 0) == 0 or die "prctl: $!"; exec { $ARGV[0] } @ARGV or die "exec: $!"'
# Each run from the same state: no page cache of earlier runs.
cat > "$w/file2m.sh" <<EOF
sync
echo 3 > /proc/sys/vm/drop_caches
exec perl -e '$NOTHP' "$RB" -d "$FT_XFS" -s "$SIZE" -H -U 0 -R
EOF

# jq-less JSON: py EXPR FILE prints EXPR over the report of an ab file.
py() {
	"$ft" -j compare "$2" > "$w/report.json" &&
		python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
res = {x['name']: x for x in r['results']}
print($1)" "$w/report.json"
}

ft_load "$FT_KO" || { not_ok "ab: load the module" "ft_load failed"; exit 1; }
check "ab: perl and ft_reclaim_bench present" test -x "$RB" -a -n "$(command -v perl)"
echo 1 > "$FT_DEBUGFS/unmap_batch"

# ---- unmap_batch 2 (one PTE at a time) against 1
"$ft" ab -o "$w/ab.txt" -k unmap_batch=2,1 -n "$PAIRS" -w 1 -t \
	-m '^reclaim_seconds ([0-9.]+)' -N reclaim_seconds -- sh "$w/file2m.sh" > "$w/out" 2>&1
rc=$?
sed 's/^/# /' "$w/out"
check_eq "ab file2m: exit status" 0 "$rc"
check_eq "ab file2m: reclaim_seconds verdict" "B faster" "$(py "res['reclaim_seconds']['verdict']" "$w/ab.txt")"
check "ab file2m: p < 0.05" python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 0.05)" \
	"$(py "res['reclaim_seconds']['wilcoxon']['p']" "$w/ab.txt")"
# premise: batching ran in B (order-9 batches), and never in A
c="res['foliotune/unmap_batch_order9']"
check_eq "ab file2m: unmap_batch_order9 moved in every B run and no A run" "0 True" \
	"$(py "'%d %s' % (${c}['A']['max'], ${c}['B']['min'] > 0)" "$w/ab.txt")"
check_eq "ab file2m: unmap_batch restored" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
check_eq "ab file2m: every pair recorded" "$PAIRS" "$(grep -c '^ab_run .* A$' "$w/ab.txt")"

# ---- A/A: the noise floor
# aa N: A/A number N into $w/aa.txt; sets rc and v (its verdict)
aa() {
	rm -f "$w/aa.txt"
	"$ft" ab -o "$w/aa.txt" --aa -a unmap_batch=1 -n "$PAIRS" -w 1 -t \
		-m '^reclaim_seconds ([0-9.]+)' -N reclaim_seconds -- sh "$w/file2m.sh" > "$w/out" 2>&1
	rc=$?
	sed "s/^/# A\/A $1: /" "$w/out"
	v=$(py "res['reclaim_seconds']['verdict']" "$w/aa.txt")
}
nodiff="no difference these runs can show: the smallest effect they could detect is "
aa 1
if [ "$rc" = 0 ] && [[ $v != "$nodiff"*% ]]; then
	echo "# A/A 1 found a difference ($v): a second A/A decides"
	aa 2
fi
check_eq "ab --aa: exit status" 0 "$rc"
case $v in
"$nodiff"*%) ok "ab --aa: $v" ;;
*) not_ok "ab --aa: no difference" "verdict: $v" ;;
esac
check_eq "ab --aa: the same settings in both arms" "unmap_batch=1 reclaim_probes=1" \
	"$(sed -n 's/^arm B //p' "$w/aa.txt")"

# ---- SIGINT during the fourth run (pair 2, arm A: unmap_batch=0)
rm -f "$w/count"
"$ft" ab -o "$w/int.txt" -k unmap_batch=0,1 -n 4 -w 0 -- \
	sh -c "echo run >> '$w/count'; sleep 3" > "$w/out" 2>&1 &
bg=$!
loop_until 60 sh -c "[ \$(cat '$w/count' 2>/dev/null | wc -l) -ge 4 ]"
knob_during=$(cat "$FT_DEBUGFS/unmap_batch")
kill -INT $bg
wait $bg
rc=$?
sed 's/^/# /' "$w/out"
check_eq "ab SIGINT: arm A's setting was in force (premise)" 0 "$knob_during"
check_eq "ab SIGINT: exit 130" 130 "$rc"
check_eq "ab SIGINT: unmap_batch restored" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
# runs 1-3 whole, run 4 marked interrupted (left out of the statistics)
check_eq "ab SIGINT: the runs done kept, the interrupted one marked" "4 1 1" \
	"$(grep -c '^ab_run ' "$w/int.txt") $(grep -c '^interrupted ' "$w/int.txt") $(grep -c '^ab_interrupted ' "$w/int.txt")"
ft_unload
