#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reclaim-guest.sh OUTDIR - the arms of unmap_batch and referenced_batch
# under the classic LRU and MGLRU, inside the test box.
#
# Started by bench/reclaim.sh (one boot); writes raw files only, into
# OUTDIR/raw/ (bench/report/reclaim.py turns them into OUTDIR/results.md).
#
# Setup: scratch xfs on /dev/vda (FT_SCRATCH_DEV), zram swap, foliotune
# loaded.  Configurations (bench/reclaim-arms.sh; every run
# also -s reclaim_probes=0):
#
#   stock  unmap_batch=0 referenced_batch=0 (the kernel's own code)
#   unmap  1 0     refs  0 1     both  1 1       (foliotune's batching)
#   pte    2 2     unmap-pte 2 0     refs-pte 0 2  (one PTE at a time)
#
# For rep = 1..BENCH_REPS: per LRU mode (odd reps in BENCH_LRU's order, even
# reps reversed; /sys/kernel/mm/lru_gen/enabled written, read back, checked)
# and workload, the configurations, odd reps in BENCH_ARMS's order, even
# reps reversed, so a linear drift favours none and stock's pair with each
# is ABBA.  Every run is
#
#   foliotune record -l RUN.CONFIG -s unmap_batch=U -s referenced_batch=R \
#       -s reclaim_probes=0 -o raw/RUN.CONFIG.REP.rec -- CMD
#
# with RUN = WORKLOAD-MB-LRU (e.g. file2m-1024-classic); its .out holds the
# benchmark's output and the lru_gen/enabled value read before and after the
# run (lru_gen_before, lru_gen_after).  Then the trace phase: the
# BENCH_TRACE_WORKLOADS, every LRU mode and configuration once per trace rep,
# under one bpftrace session with kprobe + kretprobe on the module's
# foliotune_folio_referenced_one and foliotune_try_to_unmap_one: calls, ns
# and max ns per folio order and run (RUN.trace-CONFIG.REP.bt).  Last, under
# MGLRU, the look session: the stock configuration of the same workloads
# under a bpftrace session of its own that also times the kernel's
# lru_gen_look_around(), called once per PTE (RUN.look-stock.REP.bt).  The
# original lru_gen/enabled value is restored at the end.
#
# Environment:
#   BENCH_WORKLOADS  NAME:MB words (default "file2m:1024 filera:1024");
#                    NAME file2m (PTE-mapped 2 MiB file folios) or filera
#                    (default readahead: Baolin Wang's workload)
#   BENCH_LRU        "classic mglru" (default), or one of them
#   BENCH_REPS       repetitions (default 6)
#   BENCH_WARMUP     1 (default): one unrecorded stock run of each workload first
#   BENCH_TRACE_REPS   bpftrace runs per workload, LRU mode and config (default 1; 0 = none)
#   BENCH_TRACE_WORKLOADS  workloads of the trace phase (default file2m:1024;
#                    need not be among BENCH_WORKLOADS)
#   BENCH_LOOK_REPS  runs per trace workload of the look session (default 1;
#                    0 = none; only with mglru in BENCH_LRU)
#   BENCH_ARMS       the configurations, stock first (default: all on Linux 7,
#                    those without a 2 on 6.12: bench/reclaim-arms.sh)
set -uo pipefail

out=${1:?usage: reclaim-guest.sh OUTDIR}
repo=${FT_REPO:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=SCRIPTDIR/bench-lib.sh
. "$repo/bench/bench-lib.sh"
bench_guest_init "$out"
# shellcheck source=SCRIPTDIR/reclaim-arms.sh
. "$repo/bench/reclaim-arms.sh"

WORKLOADS=$(echo "${BENCH_WORKLOADS:-file2m:1024 filera:1024}" | tr ',' ' ')
LRUS=$(echo "${BENCH_LRU:-classic mglru}" | tr ',' ' ')
REPS=${BENCH_REPS:-6}
WARMUP=${BENCH_WARMUP:-1}
TRACE_REPS=${BENCH_TRACE_REPS:-1}
LOOK_REPS=${BENCH_LOOK_REPS:-1}
TRACE_WORKLOADS=$(echo "${BENCH_TRACE_WORKLOADS-file2m:1024}" | tr ',' ' ')
CONFIGS=$(echo "${BENCH_ARMS:-$(bench_reclaim_configs "$(uname -r)")}" | tr ',' ' ')

FT=$repo/userspace/foliotune
RB=$repo/tests/progs/ft_reclaim_bench
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
BT=$raw/reclaim-time.bt
BTL=$raw/reclaim-look.bt

say() { echo "bench: $*"; [ -w /dev/kmsg ] && echo "foliotune-bench: $*" > /dev/kmsg; return 0; }
die() { say "FATAL: $*"; echo "fatal $*" >> "$raw/guest-meta.txt"; exit 2; }

[ -x "$FT" ] || die "$FT missing: run make on the host"
[ -x "$RB" ] || die "$RB missing: run make on the host"
[ -r "$FT_KO" ] || die "$FT_KO missing: run make on the host"
command -v perl > /dev/null || die "perl missing (file2m needs it)"
[ -w "$LRU_GEN" ] || die "$LRU_GEN missing: no MGLRU in this kernel"
for l in $LRUS; do
	case $l in classic | mglru) ;; *) die "BENCH_LRU: '$l' is neither classic nor mglru" ;; esac
done
for c in $CONFIGS; do
	bench_reclaim_knobs "$c" > /dev/null || die "BENCH_ARMS: '$c' is none of $BENCH_RECLAIM_ARMS"
done
[ "${CONFIGS%% *}" = stock ] || die "BENCH_ARMS must start with stock, the configuration the others pair with"
maxmb=0
for w in $WORKLOADS $TRACE_WORKLOADS; do
	case $w in
	file2m:[0-9]* | filera:[0-9]*) [ "${w#*:}" -gt "$maxmb" ] && maxmb=${w#*:} ;;
	*) die "workload '$w': not file2m:MB or filera:MB" ;;
	esac
done
lru_gen_orig=$(cat "$LRU_GEN")

# ---- setup -------------------------------------------------------------
[ "$FT_SCRATCH_DEV" = /dev/vda ] && modprobe virtio_blk 2>/dev/null
modprobe xfs || die "modprobe xfs"
loop_until 10 test -b "$FT_SCRATCH_DEV" || die "no $FT_SCRATCH_DEV (scratch xfs image)"
mkdir -p "$FT_XFS"
mount "$FT_SCRATCH_DEV" "$FT_XFS" || die "mount $FT_SCRATCH_DEV $FT_XFS"
# nothing here swaps (clean file pages are dropped, not swapped); the swap
# is there so that the box's own anon memory can go rather than fail a run
ft_zram_swap 1024M || die "zram swap"
ft_unload
ft_load "$FT_KO" || die "ft_load"
[ -r "$FT_DEBUGFS/vmstat" ] || die "no $FT_DEBUGFS/vmstat"
[ -w "$FT_DEBUGFS/referenced_batch" ] || die "no knob referenced_batch: this foliotune.ko is older"

teardown() {
	echo "$lru_gen_orig" > "$LRU_GEN" 2>/dev/null ||
		say "could not restore $LRU_GEN to $lru_gen_orig"
	ft_unload || say "ft_unload failed"
	ft_zram_swapoff
	umount "$FT_XFS" 2>/dev/null
}
trap teardown EXIT

{
	bench_guest_meta
	echo "reps $REPS"
	echo "workloads $WORKLOADS"
	echo "lru_modes $LRUS"
	echo "configs $CONFIGS"
	echo "trace_reps $TRACE_REPS"
	echo "trace_workloads $TRACE_WORKLOADS"
	echo "warmup $WARMUP"
	echo "read_ahead_kb $(cat "$FT_RA")"
	echo "thp_enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	echo "lru_gen $lru_gen_orig"
	echo "swap $(awk 'NR > 1 { print $1, $3 "kB" }' /proc/swaps | tr '\n' ' ')"
	echo "module_build $(tr '\n' ' ' < "$FT_DEBUGFS/build")"
	echo "module_file $FT_KO"
	echo "kprobes_with_module $(awk '{ print $2 ":" $3 ":" $4 }' /sys/kernel/debug/kprobes/list 2>/dev/null | tr '\n' ' ')"
} > "$raw/guest-meta.txt"
# the box must hold the largest file in page cache with room to spare
need_kb=$(( maxmb * 1024 + 1024 * 1024 ))
[ "$(awk '/^MemTotal/ { print $2 }' /proc/meminfo)" -ge "$need_kb" ] ||
	die "MemTotal below ${need_kb} kB, what a ${maxmb} MiB file needs: raise BENCH_MEM"

# lru_set classic|mglru: write lru_gen/enabled (only when it changes: a
# write costs about 0.5 s under TCG) and check that it took effect.
lru_set() {
	local now
	now=$(cat "$LRU_GEN")
	case $1 in
	classic)
		[ "$now" = 0x0000 ] || echo n > "$LRU_GEN" || die "write n to $LRU_GEN"
		[ "$(cat "$LRU_GEN")" = 0x0000 ] || die "$LRU_GEN reads $(cat "$LRU_GEN") after writing n" ;;
	mglru)
		[ "$now" != 0x0000 ] || echo y > "$LRU_GEN" || die "write y to $LRU_GEN"
		[ "$(cat "$LRU_GEN")" != 0x0000 ] || die "$LRU_GEN reads 0x0000 after writing y" ;;
	esac
}

# workload_cmd NAME:MB: the command line of one workload in CMD.
workload_cmd() {
	local mb=${1#*:}
	case ${1%%:*} in
	# 2 MiB folios (MADV_HUGEPAGE readahead), 2 MiB-aligned (-U 0) and yet
	# PTE-mapped: with THP disabled for the process do_set_pmd() refuses the
	# PMD mapping, so each folio is one run of 512 PTEs in one page table.
	file2m) CMD=(perl -e "$BENCH_NOTHP" "$RB" -d "$FT_XFS" -s "$mb" -H -U 0 -x 0.8 -R) ;;
	# Baolin Wang's: a clean file, default readahead folios, 80% reclaimed
	filera) CMD=("$RB" -d "$FT_XFS" -s "$mb" -x 0.8 -R) ;;
	*) return 1 ;;
	esac
}

# knobs CONFIG: the -s options of CONFIG in SET.
knobs() {
	local k
	k=$(bench_reclaim_knobs "$1") || return 1
	SET=(-s "unmap_batch=${k% *}" -s "referenced_batch=${k#* }" -s reclaim_probes=0)
}

# run_one WORKLOAD LRU CONFIG TAG [PHASE]: one recorded run (with PHASE: a
# trace run, announced to bpftrace, named RUN.trace-CONFIG.TAG).
run_one() {
	local w=$1 lru=$2 config=$3 tag=$4 phase=${5:-} run c base rc
	workload_cmd "$w" || return 1
	knobs "$config" || return 1
	run=${w%%:*}-${w#*:}-$lru
	c=$config
	[ -n "$phase" ] && c=${TRACE_LABEL:-trace}-$config
	base=$raw/$run.$c.$tag
	rm -f "$base.rec" "$base.out" "$base.bt"
	lru_set "$lru"
	bench_quiesce
	say "$run $c $tag${phase:+ (phase $phase)}"
	[ -n "$phase" ] && bench_trace_phase "$raw" "$phase" "$run.$c.$tag"
	{
		echo "lru_gen_before $(cat "$LRU_GEN")"
		"$FT" record -l "$run.$c" -o "$base.rec" "${SET[@]}" -- "${CMD[@]}" 2>&1
		rc=$?
		echo "lru_gen_after $(cat "$LRU_GEN")"
		echo "record_exit $rc"
	} > "$base.out"
	[ -n "$phase" ] && bench_marker 0
	grep -E '^(not ok|reclaim_seconds|record_exit [1-9])' "$base.out" | sed 's/^/    /'
}

# in_order REP "WORDS": WORDS, reversed on even reps.
in_order() {
	if [ $(($1 % 2)) = 1 ]; then echo "$2"; else echo "$2" | tr ' ' '\n' | tac | tr '\n' ' '; fi
}

t_start=$(date +%s)
if [ "$WARMUP" = 1 ]; then
	for w in $WORKLOADS; do
		run_one "$w" "${LRUS%% *}" stock warmup
	done
fi
for rep in $(seq 1 "$REPS"); do
	for lru in $(in_order "$rep" "$LRUS"); do
		for w in $WORKLOADS; do
			for c in $(in_order "$rep" "$CONFIGS"); do
				run_one "$w" "$lru" "$c" "$rep"
			done
		done
	done
done
echo "timed_phase_seconds $(( $(date +%s) - t_start ))" >> "$raw/guest-meta.txt"

# ---- trace: time inside both replacements, by folio order ---------------
{
	cat <<'EOF'
/*
 * Time per call of the module's folio_referenced_one and try_to_unmap_one
 * replacements (never the livepatched originals), keyed by phase (the run,
 * announced by getpriority(4000 + PHASE)) and folio order.  arg0 is the
 * folio in both: order = _flags_1 & 0xff (offset 64 = sizeof(struct page))
 * when PG_head (bit 6) is set, else 0 (6.12 include/linux/mm.h
 * folio_order()).  The two never nest (separate rmap walks).
 */
tracepoint:syscalls:sys_enter_getpriority
/args->which >= 4000 && args->which < 5000/
{
	/*
	 * A run's end (phase 0): print its maps and clear them, so that every
	 * run's figures are out before the next, whatever becomes of
	 * bpftrace's exit.
	 */
	if (args->which == 4000 && @phase > 0) {
		print(@ref_calls); print(@ref_ns); print(@ref_max_ns);
		print(@unmap_calls); print(@unmap_ns); print(@unmap_max_ns);
		clear(@ref_calls); clear(@ref_ns); clear(@ref_max_ns);
		clear(@unmap_calls); clear(@unmap_ns); clear(@unmap_max_ns);
	}
	@phase = args->which - 4000;
	printf("phase %d\n", @phase);
}
EOF
	bench_bt_time foliotune_folio_referenced_one ref_ r
	bench_bt_time foliotune_try_to_unmap_one unmap_ u
	cat <<'EOF'
END
{
	clear(@ref_calls); clear(@ref_ns); clear(@ref_max_ns);
	clear(@unmap_calls); clear(@unmap_ns); clear(@unmap_max_ns);
EOF
	bench_bt_time_end r
	bench_bt_time_end u
	printf '\tclear(@phase);\n}\n'
} > "$BT"

if [ "$TRACE_REPS" -gt 0 ] && [ -n "$TRACE_WORKLOADS" ]; then
	if ! command -v bpftrace > /dev/null; then
		say "bpftrace missing: no trace phase"
		echo "trace_error bpftrace missing in the guest" >> "$raw/guest-meta.txt"
	else
		echo "bpftrace $(bpftrace --version)" >> "$raw/guest-meta.txt"
		t0=$(date +%s)
		funcs=(foliotune_folio_referenced_one foliotune_try_to_unmap_one)
		if ! bench_trace_start "$BT" "$raw" "${funcs[@]}"; then
			say "bpftrace did not attach to ${funcs[*]}"
			echo "trace_error bpftrace did not attach (raw/trace-bpftrace.log)" >> "$raw/guest-meta.txt"
		else
			grep foliotune_ /sys/kernel/debug/kprobes/list > "$raw/trace-kprobes.txt"
			say "bpftrace attached after $BENCH_BTTRIES polls: $(tr '\n' ';' < "$raw/trace-kprobes.txt")"
			id=0
			for rep in $(seq 1 "$TRACE_REPS"); do
				for lru in $(in_order "$rep" "$LRUS"); do
					for w in $TRACE_WORKLOADS; do
						for c in $(in_order "$rep" "$CONFIGS"); do
							id=$((id + 1))
							run_one "$w" "$lru" "$c" "$rep" "$id"
						done
					done
				done
			done
			# in two smoke boots under TCG bpftrace once did not exit
			# after SIGINT (the guest idle, no kernel report): the maps
			# are out after every run, so wait 2 min at most
			if ! bench_trace_stop "$raw" 120; then
				say "bpftrace did not exit 120 s after SIGINT: killed"
				echo "trace_warning bpftrace did not exit 120 s after SIGINT (killed; its maps were printed after every run)" >> "$raw/guest-meta.txt"
			fi
		fi
		echo "trace_phase_seconds $(( $(date +%s) - t0 ))" >> "$raw/guest-meta.txt"
	fi
fi

# ---- look: MGLRU's lru_gen_look_around() inside the reference walk -------
# A session of its own: its probes fire once per PTE, and their cost would
# swell the MGLRU reference times of the trace phase above.
{
	cat <<'EOF'
/*
 * Inside the reference walk of the stock configuration under MGLRU: the
 * time in the module's folio_referenced_one replacement, and in the
 * kernel's lru_gen_look_around(), which it calls for every PTE.  The
 * walk's time outside look-around is what a batched MGLRU walk that keeps
 * stock's look-arounds could save.
 */
tracepoint:syscalls:sys_enter_getpriority
/args->which >= 4000 && args->which < 5000/
{
	if (args->which == 4000 && @phase > 0) {
		print(@ref_calls); print(@ref_ns);
		print(@look_calls); print(@look_ns);
		clear(@ref_calls); clear(@ref_ns); clear(@ref_max_ns);
		clear(@look_calls); clear(@look_ns);
	}
	@phase = args->which - 4000;
	printf("phase %d\n", @phase);
}
EOF
	# @ref_max_ns is cleared unprinted: the look runs report calls and time
	bench_bt_time foliotune_folio_referenced_one ref_ r
	cat <<'EOF'
/*
 * MGLRU's per-PTE call inside the reference walk (vmlinux's own function,
 * called by the replacement for every PTE): keyed by its result, 1 = the
 * PTE was young and up to 64 neighbours were looked at, 0 = not young.
 * What a batched MGLRU walk could save is the reference walk's time
 * outside these calls.
 */
kprobe:lru_gen_look_around
/@phase > 0/
{
	@lt0[tid] = nsecs;
}
kretprobe:lru_gen_look_around
/@lt0[tid]/
{
	$d = nsecs - @lt0[tid];
	@look_calls[@phase, retval & 0xff] = count();
	@look_ns[@phase, retval & 0xff] = sum($d);
	@look_max_ns[@phase, retval & 0xff] = max($d);
	delete(@lt0[tid]);
}
END
{
	clear(@ref_calls); clear(@ref_ns); clear(@ref_max_ns);
	clear(@look_calls); clear(@look_ns);
EOF
	bench_bt_time_end r
	printf '\tclear(@lt0);\n\tclear(@phase);\n}\n'
} > "$BTL"
if [ "$LOOK_REPS" -gt 0 ] && [ -n "$TRACE_WORKLOADS" ] && [[ " $LRUS " == *" mglru "* ]] &&
	command -v bpftrace > /dev/null; then
	t0=$(date +%s)
	# the trace phase's raw session files stay; this session's get look-*
	[ -f "$raw/trace-all.bt" ] && mv "$raw/trace-all.bt" "$raw/trace-all.keep"
	[ -f "$raw/trace-phases.txt" ] && mv "$raw/trace-phases.txt" "$raw/trace-phases.keep"
	[ -f "$raw/trace-bpftrace.log" ] && mv "$raw/trace-bpftrace.log" "$raw/trace-bpftrace.keep"
	if ! bench_trace_start "$BTL" "$raw" foliotune_folio_referenced_one lru_gen_look_around; then
		say "bpftrace did not attach to lru_gen_look_around"
		echo "look_error bpftrace did not attach (raw/look-bpftrace.log)" >> "$raw/guest-meta.txt"
	else
		id=0
		for rep in $(seq 1 "$LOOK_REPS"); do
			for w in $TRACE_WORKLOADS; do
				id=$((id + 1))
				TRACE_LABEL=look run_one "$w" mglru stock "$rep" "$id"
			done
		done
		bench_trace_stop "$raw" 120 ||
			echo "look_warning bpftrace did not exit 120 s after SIGINT (killed)" >> "$raw/guest-meta.txt"
	fi
	mv "$raw/trace-all.bt" "$raw/look-all.bt" 2>/dev/null
	mv "$raw/trace-phases.txt" "$raw/look-phases.txt" 2>/dev/null
	mv "$raw/trace-bpftrace.log" "$raw/look-bpftrace.log" 2>/dev/null
	[ -f "$raw/trace-all.keep" ] && mv "$raw/trace-all.keep" "$raw/trace-all.bt"
	[ -f "$raw/trace-phases.keep" ] && mv "$raw/trace-phases.keep" "$raw/trace-phases.txt"
	[ -f "$raw/trace-bpftrace.keep" ] && mv "$raw/trace-bpftrace.keep" "$raw/trace-bpftrace.log"
	echo "look_phase_seconds $(( $(date +%s) - t0 ))" >> "$raw/guest-meta.txt"
fi

# ---- teardown (the EXIT trap restores lru_gen/enabled) -------------------
echo "guest_seconds $(( $(date +%s) - t_start ))" >> "$raw/guest-meta.txt"
echo "lru_gen_restored $lru_gen_orig" >> "$raw/guest-meta.txt"
say "done: $raw"
