#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# unmap-guest.sh OUTDIR - the batched-unmap benchmarks, inside the test box.
#
# Started by bench/unmap.sh (one boot); writes raw files only, into
# OUTDIR/raw/ (bench/report/unmap.py turns them into OUTDIR/results.md).
#
# Setup: scratch xfs on /dev/vda (FT_SCRATCH_DEV), zram swap, foliotune loaded.  Then, for
# rep = 1..BENCH_REPS and every benchmark, one stock (unmap_batch=0) and one
# batched (unmap_batch=1) run, in ABBA order (odd reps stock first, even reps
# batched first) so a linear drift favours neither.  Every run is
#
#   foliotune record -l BENCH.CONFIG -s unmap_batch=X -o raw/BENCH.CONFIG.REP.rec -- CMD
#
# (counter deltas + wall time; the benchmark's own output in .out).  Then the
# overhead phase: for the BENCH_OVERHEAD benchmarks, module loaded with
# unmap_batch=0 ("modstock") against no module at all ("nomod": unload, run,
# reload), alternating the same way.  Last the trace phase: runs under one
# bpftrace session (kprobe + kretprobe on the module's own
# foliotune_try_to_unmap_one), ns per call by folio order; kept apart from the
# timed runs so the probes do not perturb them.
#
# Environment:
#   BENCH_REPS      repetitions per configuration (default 8)
#   BENCH_SECONDS   run time of `seed`, Yin Fengwei's
#                   MADV_PAGEOUT micro-benchmark; default 10)
#   BENCH_SIZE_MB   object size of the reclaim benchmarks (default 256)
#   BENCH_ONLY      benchmarks to run, comma/space separated (default: all of
#                   seed filera file2m file2m-shift order0 lazyfree shmem16k
#                   shmem64k shmem128k shmem2m shmem2m-pte, plus the phases overhead and
#                   trace)
#   BENCH_OVERHEAD  benchmarks of the overhead phase (default "seed order0")
#   BENCH_TRACE_REPS  bpftrace runs per benchmark and mode (default 1; 0 = none)
#   BENCH_WARMUP    1 (default): one unrecorded stock run of each benchmark first
set -uo pipefail

out=${1:?usage: unmap-guest.sh OUTDIR}
repo=${FT_REPO:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=SCRIPTDIR/bench-lib.sh
. "$repo/bench/bench-lib.sh"
bench_guest_init "$out"

REPS=${BENCH_REPS:-8}
SECS=${BENCH_SECONDS:-10}
SIZE=${BENCH_SIZE_MB:-256}
ALL="seed filera file2m file2m-shift order0 lazyfree shmem16k shmem64k shmem128k shmem2m shmem2m-pte"
ONLY=$(echo "${BENCH_ONLY:-all}" | tr ',' ' ')
case " $ONLY " in *" all "*) ONLY="$ONLY $ALL overhead trace" ;; esac
OVERHEAD=$(echo "${BENCH_OVERHEAD:-seed order0}" | tr ',' ' ')
TRACE_REPS=${BENCH_TRACE_REPS:-1}
WARMUP=${BENCH_WARMUP:-1}

FT=$repo/userspace/foliotune
PO=$repo/tests/progs/ft_pageout_bench
RB=$repo/tests/progs/ft_reclaim_bench
RA=$FT_RA
BT=$raw/unmap-time.bt

say() { echo "bench: $*"; [ -w /dev/kmsg ] && echo "foliotune-bench: $*" > /dev/kmsg; return 0; }
die() { say "FATAL: $*"; echo "fatal $*" >> "$raw/guest-meta.txt"; exit 2; }
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

for f in "$FT" "$PO" "$RB"; do
	[ -x "$f" ] || die "$f missing: run make on the host"
done
[ -r "$FT_KO" ] || die "$FT_KO missing: run make on the host"
command -v perl > /dev/null || die "perl missing (file2m needs it)"

# ---- setup -------------------------------------------------------------
[ "$FT_SCRATCH_DEV" = /dev/vda ] && modprobe virtio_blk 2>/dev/null
modprobe xfs || die "modprobe xfs"
loop_until 10 test -b "$FT_SCRATCH_DEV" || die "no $FT_SCRATCH_DEV (scratch xfs image)"
mkdir -p "$FT_XFS"
mount "$FT_SCRATCH_DEV" "$FT_XFS" || die "mount $FT_SCRATCH_DEV $FT_XFS"
zram_mb=$(( SIZE * 2 > 1024 ? SIZE * 2 : 1024 ))
ft_zram_swap "${zram_mb}M" || die "zram swap"
ft_unload
ft_load "$FT_KO" || die "ft_load"
[ -r "$FT_DEBUGFS/vmstat" ] || die "no $FT_DEBUGFS/vmstat"

{
	bench_guest_meta
	echo "reps $REPS"
	echo "seconds $SECS"
	echo "size_mb $SIZE"
	echo "only $ONLY"
	echo "overhead $OVERHEAD"
	echo "trace_reps $TRACE_REPS"
	echo "read_ahead_kb $(cat $RA)"
	echo "thp_enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	echo "lru_gen $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo -)"
	echo "swap $(awk 'NR > 1 { print $1, $3 "kB" }' /proc/swaps | tr '\n' ' ')"
	echo "module_build $(tr '\n' ' ' < "$FT_DEBUGFS/build")"
	echo "module_file $FT_KO"
	# what else the loaded module hooks (disarmed: reclaim_probes=0 in every run)
	echo "kprobes_with_module $(awk '{ print $2 ":" $3 ":" $4 }' /sys/kernel/debug/kprobes/list 2>/dev/null | tr '\n' ' ')"
} > "$raw/guest-meta.txt"

# ---- benchmarks --------------------------------------------------------
# bench_cmd NAME: the command line of one benchmark in CMD.
bench_cmd() {
	case $1 in
	seed)      CMD=("$PO" -d "$FT_XFS" -t "$SECS" -R) ;;
	filera)    CMD=("$RB" -d "$FT_XFS" -s "$SIZE" -R) ;;
	# 2 MiB folios (MADV_HUGEPAGE readahead), 2 MiB-aligned (-U 0) and yet
	# PTE-mapped: with THP disabled for the process do_set_pmd() refuses the
	# PMD mapping (readahead still allocates order 9), so each folio is one
	# run of 512 PTEs in one page table.
	file2m)    CMD=(perl -e "$BENCH_NOTHP" "$RB" -d "$FT_XFS" -s "$SIZE" -H -U 0 -R) ;;
	# not aligned (ft_reclaim_bench's default VA shift of 64 KiB): each folio
	# straddles a page-table boundary: runs of 496 + 16 PTEs.
	file2m-shift) CMD=("$RB" -d "$FT_XFS" -s "$SIZE" -H -R) ;;
	order0)    CMD=("$RB" -d "$FT_XFS" -s "$SIZE" -b "$RA" -B 0 -R) ;;
	lazyfree)  CMD=("$RB" -s "$SIZE" -L -R) ;;
	shmem16k)  CMD=("$RB" -s "$SIZE" -M shmem -z 16 -R) ;;
	shmem64k)  CMD=("$RB" -s "$SIZE" -M shmem -z 64 -R) ;;
	shmem128k) CMD=("$RB" -s "$SIZE" -M shmem -z 128 -R) ;;
	shmem2m)   CMD=("$RB" -s "$SIZE" -M shmem -z 2048 -R) ;;
	# the same folios re-mapped by PTEs (ft_reclaim_bench -P: zap, THP off
	# for the process, touch again): runs of 512 in one page table.
	shmem2m-pte) CMD=("$RB" -s "$SIZE" -M shmem -z 2048 -P -R) ;;
	*) return 1 ;;
	esac
}

# run_one BENCH CONFIG TAG: one recorded run; CONFIG stock|batched|modstock|nomod.
run_one() {
	local bench=$1 config=$2 tag=$3 base set=() rc
	bench_cmd "$bench" || { say "unknown benchmark $bench"; return 1; }
	# reclaim_probes=0: these benchmarks read no pgpgoutclean/pageref_*,
	# and record would otherwise arm the probes (their cost in every mode).
	case $config in
	stock | modstock) set=(-s unmap_batch=0 -s reclaim_probes=0) ;;
	batched) set=(-s unmap_batch=1 -s reclaim_probes=0) ;;
	nomod) ft_loaded && { say "nomod run with the module loaded"; return 1; } ;;
	esac
	base=$raw/$bench.$config.$tag
	rm -f "$base.rec" "$base.out"
	bench_quiesce
	say "$bench $config $tag"
	"$FT" record -l "$bench.$config" -o "$base.rec" "${set[@]}" -- "${CMD[@]}" \
		> "$base.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] || say "$bench $config $tag: foliotune record exit $rc"
	grep -E '^(not ok|loops_per_sec|reclaim_seconds)' "$base.out" | sed 's/^/    /'
}

# pair BENCH REP A B: configurations A and B, in ABBA order over the reps.
pair() {
	if [ $(($2 % 2)) = 1 ]; then
		run_one "$1" "$3" "$2"; run_one "$1" "$4" "$2"
	else
		run_one "$1" "$4" "$2"; run_one "$1" "$3" "$2"
	fi
}

benches=()
for b in $ALL; do
	want "$b" && benches+=("$b")
done
t_start=$(date +%s)

if [ "$WARMUP" = 1 ]; then
	for b in "${benches[@]}"; do
		run_one "$b" stock warmup
	done
fi

for rep in $(seq 1 "$REPS"); do
	for b in "${benches[@]}"; do
		pair "$b" "$rep" stock batched
	done
done
echo "timed_phase_seconds $(( $(date +%s) - t_start ))" >> "$raw/guest-meta.txt"

# ---- overhead: module loaded (unmap_batch=0) vs not loaded ---------------
nomod_run() {
	ft_unload || die "ft_unload"
	run_one "$1" nomod "$2"
	ft_load "$FT_KO" || die "ft_load (reload)"
}
if want overhead; then
	t0=$(date +%s)
	for rep in $(seq 1 "$REPS"); do
		for b in $OVERHEAD; do
			if [ $((rep % 2)) = 1 ]; then
				nomod_run "$b" "$rep"; run_one "$b" modstock "$rep"
			else
				run_one "$b" modstock "$rep"; nomod_run "$b" "$rep"
			fi
		done
	done
	echo "overhead_phase_seconds $(( $(date +%s) - t0 ))" >> "$raw/guest-meta.txt"
fi

# ---- trace: time inside foliotune_try_to_unmap_one -----------------------
# One bpftrace session for the whole phase (bench/bench-lib.sh, bench_trace_*):
# each run announced by a marker syscall, the output split into
# BENCH.trace-MODE.REP.bt afterwards.
{
	cat <<'EOF'
/*
 * Time per call of the module's try_to_unmap_one replacement (never the
 * livepatched original), keyed by phase and folio order.  arg0 is the folio:
 * order = _flags_1 & 0xff (offset 64 = sizeof(struct page)) when PG_head
 * (bit 6) is set, else 0 (6.12 include/linux/mm.h folio_order()).
 */
tracepoint:syscalls:sys_enter_getpriority
/args->which >= 4000 && args->which < 5000/
{
	@phase = args->which - 4000;
	printf("phase %d\n", @phase);
}
EOF
	bench_bt_time foliotune_try_to_unmap_one "" ""
	printf 'END\n{\n'
	bench_bt_time_end ""
	printf '\tclear(@phase);\n}\n'
} > "$BT"

trace_one() {
	local bench=$1 config=$2 rep=$3 id=$4 x base
	[ "$config" = batched ] && x=1 || x=0
	bench_cmd "$bench" || return 1
	base=$raw/$bench.trace-$config.$rep
	rm -f "$base.rec" "$base.out" "$base.bt"
	bench_quiesce
	say "$bench trace-$config $rep (phase $id)"
	bench_trace_phase "$raw" "$id" "$bench.trace-$config.$rep"
	"$FT" record -l "$bench.trace-$config" -o "$base.rec" -s "unmap_batch=$x" -s reclaim_probes=0 -- "${CMD[@]}" \
		> "$base.out" 2>&1
	bench_marker 0
	grep -E '^(not ok|loops_per_sec|reclaim_seconds)' "$base.out" | sed 's/^/    /'
}
if want trace && [ "$TRACE_REPS" -gt 0 ]; then
	if ! command -v bpftrace > /dev/null; then
		say "bpftrace missing: no trace phase"
		echo "trace_error bpftrace missing in the guest" >> "$raw/guest-meta.txt"
	else
		echo "bpftrace $(bpftrace --version)" >> "$raw/guest-meta.txt"
		t0=$(date +%s)
		if ! bench_trace_start "$BT" "$raw" foliotune_try_to_unmap_one; then
			say "bpftrace did not attach to foliotune_try_to_unmap_one"
			echo "trace_error bpftrace did not attach (raw/trace-bpftrace.log)" >> "$raw/guest-meta.txt"
		else
			grep foliotune_try_to_unmap_one /sys/kernel/debug/kprobes/list > "$raw/trace-kprobes.txt"
			say "bpftrace attached after $BENCH_BTTRIES polls: $(tr '\n' ';' < "$raw/trace-kprobes.txt")"
			id=0
			for rep in $(seq 1 "$TRACE_REPS"); do
				for b in "${benches[@]}"; do
					if [ $((rep % 2)) = 1 ]; then set -- stock batched; else set -- batched stock; fi
					for m in "$@"; do
						id=$((id + 1))
						trace_one "$b" "$m" "$rep" "$id"
					done
				done
			done
			# @calls[PHASE, ORDER]: N  ->  BENCH.trace-MODE.REP.bt: @calls[ORDER]: N
			bench_trace_stop "$raw"
		fi
		echo "trace_phase_seconds $(( $(date +%s) - t0 ))" >> "$raw/guest-meta.txt"
	fi
fi

# ---- teardown ----------------------------------------------------------
echo "guest_seconds $(( $(date +%s) - t_start ))" >> "$raw/guest-meta.txt"
ft_unload || say "ft_unload failed"
ft_zram_swapoff
umount "$FT_XFS"
say "done: $raw"
