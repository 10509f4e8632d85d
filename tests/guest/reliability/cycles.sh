#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability: what patches kernel text while reclaim runs - knobs that
# flip a static key, and load/unload cycles under reclaim-heavy,
# self-verifying workloads.  Its own boot (tests/run.sh: guest_suite
# reliability-cycles -t 1800 -- tests/guest/reliability/cycles.sh).
#
#   Every livepatch transition also re-patches the kernel's cond_resched
#   static calls (sched_dynamic_klp_enable/disable: thousands of
#   text_poke_bp() call sites).  Multi-threaded TCG got that cross-modifying
#   code wrong ("Oops: int3", also on the stock kernel re-patching the same
#   static calls through /sys/kernel/debug/sched/preempt, see
#   tests/guest/reliability/README.md); the test box runs single-threaded TCG.
#
# Part 1 (the knobs that patch text): ft_integrity with EVERY knob flipped
# at random every 10-100 ms, fault_around_mkold and fault_around_auto
# included: they toggle a static key inside foliotune_try_to_unmap_one(),
# i.e. text_poke_bp() of a site that reclaim is executing.
#
# Part 2: each cycle: insmod + transition, random values for every knob
# (static-key flips while the workloads reclaim), 0.1-0.5 s of
# the replacement running, and on, up to 2.5 s more, until the arm has
# handled a large folio (unmap_batch turns through its arms: the cycles
# with 1 must batch, those with 2 must not and take unmap_nobatch_off, those
# with 0 must not batch either and run the kernel's own code: on 6.12 what
# 2 does, on Linux 7 its own runs, unmap_kernel_*), disable + transition +
# rmmod.  Every load and
# unload must finish within FT_REL_BOUND_S (default 60), nothing may be left
# behind (debugfs directory, /sys/kernel/livepatch/foliotune, the module),
# and both workloads' data must verify at the end.  Prints min/median/p90/max
# load and unload times.
#
# FT_REL_CYCLES (default 30; FT_REL_MODE=long: 500) and FT_REL_DURATION
# (seconds; stop early when it runs out, at least 30 cycles are still
# required) set the length.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"

bound=${FT_REL_BOUND_S:-60}
if [ "$FT_REL_MODE" = long ]; then cycles=${FT_REL_CYCLES:-500}; else cycles=${FT_REL_CYCLES:-30}; fi
duration=${FT_REL_DURATION:-0}
min_cycles=$(( cycles < 30 ? cycles : 30 ))
xfs=$FT_XFS
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

if [ "$FT_REL_MODE" = long ]; then
	cases="file-* tmpfs-* anon-* lazyfree-*"
else
	cases="file-pte2m file-thp-shared-dirty file-fork-private-dirty file-mremap-part file-uffd-wp file-mlock-part file-truncate-race tmpfs-pte2m anon-mthp64-fork lazyfree-redirty"
fi
case_args=()
for c in $cases; do case_args+=(-c "$c"); done
# zram; part 1: the ft_integrity cases and 8 lines; part 2: 11 lines.
plan $((1 + $("$FT_REPO/tests/progs/ft_integrity" -r memcg,pageout "${case_args[@]}" -P) + 8 + 11))
if [ ! -x "$FT_RELBIN" ]; then
	not_ok "cycles: ft_rel built" "$FT_RELBIN missing (make progs)"
	exit 0
fi
check "cycles: zram swap" ft_zram_swap 1G
ft_unload
for d in "$FT_CG"/ft-*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done

# ---- 1. every knob flipping under ft_integrity ---------------------------------

mark=$(dmesg_mark)
if ft_load; then
	ft_counters_snapshot "$w/c0"
	knob_flipper_start "$w/flips"
	"$FT_REPO/tests/progs/ft_integrity" -d "$xfs" -b /sys/block/vda/queue/read_ahead_kb \
		-s 8 -r memcg,pageout -T 240 -U flip "${case_args[@]}" > "$w/integ" 2>&1
	rc=$?
	knob_flipper_stop
	sed -n -e 's|^ok - |ok - cycles: flip-all/|p' -e 's|^not ok - |not ok - cycles: flip-all/|p' "$w/integ"
	grep -q '^not ok' "$w/integ" || [ "$rc" = 0 ] ||
		not_ok "cycles: flip-all: ft_integrity" "exit $rc without a failing case: $(tail -3 "$w/integ" | tr '\n' '|')"
	grep '^refused' "$w/flips" | head -5 | sed 's/^/# /'
	tail -1 "$w/flips" > "$w/flips.last"
	read -r _ flips _ refused _ rounds _ period < "$w/flips.last"
	echo "# flip-all: $flips knob writes in $rounds rounds, mean period $period ms; knobs:" \
		"$(for f in "$FT_DEBUGFS"/*; do knob_random_value "${f##*/}" > /dev/null && printf '%s ' "${f##*/}"; done)"
	check_eq "cycles: flip-all: no valid knob write refused" 0 "${refused:-?}"
	check "cycles: flip-all: knobs flipped (${flips:-0} writes)" test "${flips:-0}" -gt 0
	echo "# flip-all: counters moved: $(ft_counter_moves "$w/c0")"
	rel_identities "cycles: flip-all" "$w/c0" order0
	rel_batched "cycles: flip-all" "$w/c0" flip
	check "cycles: flip-all: unload" ft_unload
else
	not_ok "cycles: flip-all: load" "insmod failed"
fi
check_kernel_clean "cycles: flip-all: kernel log clean" "$mark"

# ---- 2. load/unload cycles under reclaim ----------------------------------------

mark=$(dmesg_mark)
cg_make ft-rel-cycles 20M
# Two verified workloads: one limited by the memcg (16 MB file + 8 MB anon
# in 20 MB: reclaim from memory.max all the time), one MADV_PAGEOUTing its
# own 16 + 8 MB every iteration; both run until told to stop.
# At nice 19: the transition itself (insmod, the sysfs write, the klp work)
# is CPU-bound text patching and would otherwise share the vCPUs with
# two CPU hogs; the workloads still sit in reclaim whenever it runs.
cg_spawn ft-rel-cycles "$w/load1" nice -n 19 "$FT_RELBIN" mapload "$xfs" 16 1000000
load1=$SPAWN_PID
nice -n 19 "$FT_RELBIN" mapload "$xfs" 16 1000000 > "$w/load2" 2>&1 &
load2=$!
sleep 2
: > "$w/load_ms"; : > "$w/unload_ms"
bad=0 leftovers=0 t0=$(date +%s) calls=0
# arm_counters ARM: what moves when unmap_batch=ARM handles a large folio:
# a batch; unmap_nobatch_off; the kernel's own code, on Linux 7 its runs,
# on 6.12 per PTE as 2
arm_counters() {
	case $1 in
	1) echo unmap_batches ;;
	2) echo unmap_nobatch_off ;;
	*) if ft_linux7; then echo unmap_kernel_batches unmap_kernel_single_ptes
	   else echo unmap_nobatch_off; fi ;;
	esac
}
arm_evidence() {
	local c s=0
	for c in $(arm_counters "$1"); do s=$((s + $(ft_counter "$c"))); done
	echo "$s"
}
# Each window's counter moves, one line per window, in $w/armN by the
# unmap_batch arm it took (counted from after the knob writes).
# arm_sum ARM COUNTER...: their moves summed over ARM's windows
arm_sum() {
	awk -v want=" ${*:2} " '{ for (i = 1; i < NF; i += 2) if (index(want, " " $i " ")) s += $(i + 1) }
		END { print s + 0 }' "$w/arm$1"
}
# arm_windows ARM: how many windows took ARM
arm_windows() { wc -l < "$w/arm$1"; }
: > "$w/arm0"; : > "$w/arm1"; : > "$w/arm2"
for i in $(seq "$cycles"); do
	if [ "$duration" -gt 0 ] && [ $(( $(date +%s) - t0 )) -ge "$duration" ] && [ "$i" -gt "$min_cycles" ]; then
		echo "# duration of $duration s reached after $((i - 1)) cycles"
		break
	fi
	if ! ms=$(ft_load_timed "$bound"); then
		bad=$((bad + 1)); echo "# cycle $i: load failed or slower than $bound s ($ms)"
		ft_unload; continue
	fi
	echo "$ms" >> "$w/load_ms"
	for f in "$FT_DEBUGFS"/*; do
		v=$(knob_random_value "${f##*/}") && echo "$v" > "$f"
	done
	# every arm, whatever the draw, in a new order each three cycles: the
	# workloads' iterations are seconds long, and a fixed rotation can meet
	# the same phase of them in every window of one arm
	[ $(((i - 1) % 3)) = 0 ] && read -r -a arms <<< "$(shuf -e 0 1 2 | xargs)"
	echo "${arms[(i - 1) % 3]}" > "$FT_DEBUGFS/unmap_batch"
	# a call already running when the knob flipped ends in its old mode
	sleep 0.1
	ub=$(cat "$FT_DEBUGFS/unmap_batch")
	ft_counters_snapshot "$w/k0"
	e0=$(arm_evidence "$ub")
	sleep "$(printf '0.%03d' $((RANDOM % 400 + 100)))"
	# large folios meet reclaim seconds apart on a slow kernel: wait for one
	for _ in $(seq 25); do [ "$(arm_evidence "$ub")" = "$e0" ] || break; sleep 0.1; done
	ft_counters_snapshot "$w/k1"
	calls=$((calls + $(ft_counter unmap_calls)))
	{ ft_counter_moves "$w/k0" "$w/k1"; echo; } >> "$w/arm$ub"
	echo "# cycle $i: unmap_batch=$ub: $(rel_delta "$w/k0" "$w/k1" unmap_calls) calls," \
		"$(rel_delta "$w/k0" "$w/k1" unmap_nobatch_small) of order-0 folios," \
		"$(rel_delta "$w/k0" "$w/k1" unmap_batches) batches"
	if ! ms=$(ft_unload_timed "$bound"); then
		bad=$((bad + 1)); echo "# cycle $i: unload did not finish within $bound s ($ms)"
		break
	fi
	echo "$ms" >> "$w/unload_ms"
	ft_nothing_left || { leftovers=$((leftovers + 1)); echo "# cycle $i: left behind:" \
		"$(ls -d "$FT_DEBUGFS" "$FT_LIVEPATCH" /sys/module/foliotune 2>/dev/null | tr '\n' ' ')"; }
	[ $((i % 50)) = 0 ] && echo "# $i cycles, $(( $(date +%s) - t0 )) s"
done
kill -TERM "$load1" "$load2" 2>/dev/null
wait "$load1"; rc1=$?
wait "$load2"; rc2=$?
cg_remove ft-rel-cycles
n=$(wc -l < "$w/unload_ms")
echo "# cycles: $n in $(( $(date +%s) - t0 )) s; the replacement ran $calls times while loaded"
for a in 1 2 0; do
	echo "# cycles: the unmap_batch=$a windows moved:" \
		"$(awk '{ for (i = 1; i < NF; i += 2) if ($i ~ /^unmap_/) s[$i] += $(i + 1) }
			END { for (k in s) printf "%s +%d ", k, s[k] }' "$w/arm$a")"
done
check_eq "cycles: load/unload cycles under reclaim, none failed" "0" "$bad"
check "cycles: at least $min_cycles cycles completed ($n)" test "$n" -ge "$min_cycles"
check_eq "cycles: nothing left behind after any unload (debugfs, livepatch, module)" 0 "$leftovers"
echo "# cycles: load (insmod + transition) ms: $(stats_ms < "$w/load_ms")"
echo "# cycles: unload (disable + transition + rmmod) ms: $(stats_ms < "$w/unload_ms")"
max=$(sort -n "$w/unload_ms" | tail -1)
if [ -n "$max" ] && [ "$max" -le $((bound * 1000)) ]; then
	ok "cycles: every unload finished within $bound s (max $max ms, median $(stats_ms < "$w/unload_ms" | awk '{ print $6 }') ms)"
else
	not_ok "cycles: every unload finished within $bound s" "max ${max:-none} ms"
fi
check "cycles: the replacement ran while loaded (unmap_calls summed over cycles: $calls)" test "$calls" -gt 0
n1=$(arm_windows 1) calls1=$(arm_sum 1 unmap_calls) batches1=$(arm_sum 1 unmap_batches)
n2=$(arm_windows 2) calls2=$(arm_sum 2 unmap_calls) batches2=$(arm_sum 2 unmap_batches) \
	off2=$(arm_sum 2 unmap_nobatch_off)
n0=$(arm_windows 0) calls0=$(arm_sum 0 unmap_calls) batches0=$(arm_sum 0 unmap_batches) \
	off0=$(arm_sum 0 unmap_nobatch_off) kruns0=$(arm_sum 0 unmap_kernel_batches unmap_kernel_single_ptes)
check "cycles: the $n1 cycles with unmap_batch=1 batched (unmap_batches +$batches1 over $calls1 calls)" \
	test "$n1" -gt 0 -a "$batches1" -gt 0
check "cycles: the $n2 cycles with unmap_batch=2 did not (unmap_batches +$batches2, unmap_nobatch_off +$off2 over $calls2 calls)" \
	test "$n2" -gt 0 -a "$batches2" = 0 -a "$off2" -gt 0
if ft_linux7; then
	check "cycles: the $n0 cycles with unmap_batch=0 ran the kernel's own code (its runs +$kruns0; unmap_batches +$batches0, unmap_nobatch_off +$off0 over $calls0 calls)" \
		test "$n0" -gt 0 -a "$batches0" = 0 -a "$off0" = 0 -a "$kruns0" -gt 0
else
	check "cycles: the $n0 cycles with unmap_batch=0 did not batch: 6.12's own code is per PTE (unmap_batches +$batches0, unmap_nobatch_off +$off0 over $calls0 calls)" \
		test "$n0" -gt 0 -a "$batches0" = 0 -a "$off0" -gt 0
fi
sed 's/^/# memcg workload: /' "$w/load1" | tail -3
sed 's/^/# pageout workload: /' "$w/load2" | tail -3
check_eq "cycles: memcg-reclaimed workload data intact" 0 "$rc1"
check_eq "cycles: MADV_PAGEOUT workload data intact" 0 "$rc2"
check_kernel_clean "cycles: kernel log clean" "$mark"
ft_zram_swapoff
