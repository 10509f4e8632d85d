#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability, debug-kernel lane only: nothing leaks over load/unload
# cycles.  Its own boot (tests/run.sh: guest_suite rel-leaks, run when
# FT_LEAK_KO names tests/modules/ft_leak_test.ko built for a kernel with
# DEBUG_KMEMLEAK, harness/debug-kernel/debug.config).
#
# 1. The scan can fail: ft_leak_test.ko leaks 64 bytes at load, marked
#    "ft-leak-test"; two scans must report them, with ft_leak_test_plant in
#    the backtrace.
# 2. Everything suspected so far (boot, the planted leak) is marked seen
#    (kmemleak "clear"), so the last scan reports only what came later.
# 3. Cycles of what allocates and frees in foliotune: insmod and the
#    livepatch transition, a random valid value for every knob (the auto
#    tuner's delayed work, the kprobes enabled and disabled: reclaim_probes
#    and fault_around_auto alternate so both ways run), every debugfs file
#    read, the CLI's status and stat, while two workloads reclaim through
#    the replacement (ft_rel mapload: memcg limit and MADV_PAGEOUT); then
#    disable, transition, rmmod.
# 4. kmemleak needs an object unreferenced for 5 s (its minimum age) and
#    unchanged across two scans: wait, scan twice; nothing may be reported.
#
# FT_LEAK_CYCLES (default 8) sets the number of cycles.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"

kml=/sys/kernel/debug/kmemleak
cycles=${FT_LEAK_CYCLES:-8}
bound=${FT_REL_BOUND_S:-120}
xfs=$FT_XFS
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# kmemleak_scan: two scans, the first after the minimum age has passed.
kmemleak_scan() {
	sleep 6
	echo scan > "$kml" && echo scan > "$kml"
}

plan 13
if [ ! -w "$kml" ] || [ ! -r "${FT_LEAK_KO:-}" ]; then
	not_ok "leaks: kmemleak in this kernel and FT_LEAK_KO" \
		"$kml writable: $([ -w "$kml" ] && echo yes || echo no), FT_LEAK_KO '${FT_LEAK_KO:-}'"
	exit 0
fi
ok "leaks: kmemleak in this kernel ($kml) and the planted-leak module"
ft_unload

# ---- 1. the scan finds a planted leak -------------------------------------------

mark=$(dmesg_mark)
if insmod "$FT_LEAK_KO"; then
	kmemleak_scan
	cat "$kml" > "$w/planted"
	if grep -q 'ft-leak-test' "$w/planted" && grep -q 'ft_leak_test_plant' "$w/planted"; then
		ok "leaks: a scan reports the planted leak (its mark, ft_leak_test_plant)"
	else
		not_ok "leaks: a scan reports the planted leak (its mark, ft_leak_test_plant)" \
			"$(grep -c '^unreferenced object' "$w/planted") reports, none of it"
		head -40 "$w/planted" | sed 's/^/# /'
	fi
	echo clear > "$kml"
	check "leaks: unload the planted-leak module" rmmod ft_leak_test
else
	not_ok "leaks: a scan reports the planted leak" "insmod $FT_LEAK_KO failed"
	not_ok "leaks: unload the planted-leak module" "not loaded"
fi

# ---- 2. suspects from before the cycles are marked seen -----------------------

kmemleak_scan
echo clear > "$kml"
before=$(grep -c '^unreferenced object' "$kml")
check_eq "leaks: no suspect left unmarked before the cycles" 0 "$before"

# ---- 3. load/unload cycles under reclaim ------------------------------------------

check "leaks: zram swap" ft_zram_swap 1G
cg_make ft-rel-leaks 20M
cg_spawn ft-rel-leaks "$w/load1" nice -n 19 "$FT_RELBIN" mapload "$xfs" 16 1000000
load1=$SPAWN_PID
nice -n 19 "$FT_RELBIN" mapload "$xfs" 16 1000000 > "$w/load2" 2>&1 &
load2=$!
sleep 2
bad=0 done_n=0 calls=0 batches=0 armed=0 stepped=0
for i in $(seq "$cycles"); do
	if ! ms=$(ft_load_timed "$bound"); then
		bad=$((bad + 1)); echo "# cycle $i: load failed or slower than $bound s ($ms)"
		ft_unload; continue
	fi
	for f in "$FT_DEBUGFS"/*; do
		v=$(knob_random_value "${f##*/}") && echo "$v" > "$f"
	done
	# Both ways of what registers or queues something, whatever the draw.
	echo $((i % 2)) > "$FT_DEBUGFS/reclaim_probes"
	echo $((i % 2)) > "$FT_DEBUGFS/fault_around_auto"
	echo 1 > "$FT_DEBUGFS/unmap_batch"
	sleep 1
	for f in "$FT_DEBUGFS"/*; do cat "$f" > /dev/null; done
	"$FT_CLI" status > /dev/null 2>&1
	"$FT_CLI" counters > /dev/null 2>&1
	calls=$((calls + $(ft_counter unmap_calls)))
	batches=$((batches + $(ft_counter unmap_batches)))
	# The odd cycles' premises: the kprobes armed, the tuner stepping.
	if [ $((i % 2)) = 1 ]; then
		grep -v '\[DISABLED\]' /sys/kernel/debug/kprobes/list | grep -q workingset_eviction &&
			armed=$((armed + 1))
		[ "$(awk '$1 == "steps" { print $2 }' "$FT_DEBUGFS/fault_around_auto_state")" -gt 0 ] &&
			stepped=$((stepped + 1))
	fi
	if ! ms=$(ft_unload_timed "$bound"); then
		bad=$((bad + 1)); echo "# cycle $i: unload did not finish within $bound s ($ms)"
		break
	fi
	done_n=$i
done
kill -TERM "$load1" "$load2" 2>/dev/null
wait "$load1"; rc1=$?
wait "$load2"; rc2=$?
cg_remove ft-rel-leaks
check_eq "leaks: $cycles load/unload cycles, none failed" "0 $cycles" "$bad $done_n"
odd=$(( (done_n + 1) / 2 ))
check_eq "leaks: the $odd odd cycles armed the kprobes (reclaim_probes=1)" "$odd" "$armed"
check_eq "leaks: the $odd odd cycles ran the auto tuner (steps > 0)" "$odd" "$stepped"
check "leaks: the replacement ran and batched in the cycles (unmap_calls $calls, unmap_batches $batches)" \
	test "$calls" -gt 0 -a "$batches" -gt 0
check_eq "leaks: memcg-reclaimed workload data intact" 0 "$rc1"
check_eq "leaks: MADV_PAGEOUT workload data intact" 0 "$rc2"
ft_zram_swapoff

# ---- 4. nothing leaked ----------------------------------------------------------------

kmemleak_scan
cat "$kml" > "$w/after"
n=$(grep -c '^unreferenced object' "$w/after")
if [ "$n" = 0 ]; then
	ok "leaks: kmemleak reports nothing after $done_n load/unload cycles"
else
	not_ok "leaks: kmemleak reports nothing after $done_n load/unload cycles" "$n unreferenced objects"
	head -60 "$w/after" | sed 's/^/# /'
fi
check_kernel_clean "leaks: kernel log clean" "$mark"
