#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reclaim.sh - benchmark the arms of unmap_batch and referenced_batch (the
# kernel's own code, foliotune's batching, one PTE at a time; the
# configurations of bench/reclaim-arms.sh) under the classic
# LRU and MGLRU, in ONE test-box boot of kernel KVER, and write
# bench/results/<date>-<commit>-reclaim/results.md.
#
#   make && bench/reclaim.sh            (or: make bench-reclaim)
#   KVER=7.3.4+deb13-amd64 make bench-reclaim     (Linux 7: all three arms)
#
# Builds nothing: it needs module/foliotune.ko, userspace/foliotune and
# tests/progs/ft_reclaim_bench from `make`.  It makes a scratch xfs image,
# boots the test box once (harness/vm/vmrun.sh) running
# bench/reclaim-guest.sh, then bench/report/reclaim.py.
#
# Environment (passed to the guest; see reclaim-guest.sh):
#   BENCH_WORKLOADS ("file2m:1024 filera:1024")  NAME:MB words
#   BENCH_LRU ("classic mglru")  BENCH_REPS (6, the fewest pairs that can show a difference at p < 0.05)  BENCH_WARMUP (1)
#   BENCH_TRACE_REPS (1)  BENCH_TRACE_WORKLOADS ("file2m:1024"; "" = no trace phase)
#   BENCH_LOOK_REPS (1; the MGLRU look-around session, 0 = none)
#   BENCH_ARMS      the configurations, stock first (default: all seven on
#                   Linux 7, the four without one PTE at a time on 6.12,
#                   where that is the kernel's own code)
# Host side:
#   KVER            the kernel the box boots (default: the default build,
#                   scripts/kernels/default-kver); module/foliotune.ko must
#                   be built for it (make KVER=...)
#   BENCH_BESIDE    a results directory of the same benchmark on another
#                   kernel (e.g. 6.12's beside 7.3.4's): its table goes next
#                   to this one (reclaim.py --beside)
#   BENCH_OUT       results directory (default bench/results/<date>-<commit>-reclaim);
#                   it must be inside this repository: the box writes it
#                   through the repository's share (the rest of the host is
#                   read-only to it)
#   BENCH_TIMEOUT   guest timeout in seconds (default: estimated x3)
#   BENCH_MEM       guest memory (default 4G, or the largest file + 3 GiB
#                   when that is more: 5G for the default 2 GiB filera)
#   BENCH_SCRATCH   where the scratch xfs image goes (default bench/.scratch)
#   BENCH_KERNEL_ARGS  extra guest kernel arguments, e.g. "watchdog_thresh=60"
#
# Duration: printed before the boot (TCG: about 8 s + 43 ms per MB and run,
# bench/unmap.sh's model).  Smoke run (a few minutes):
#   BENCH_REPS=1 BENCH_WORKLOADS="file2m:64 filera:64" BENCH_TRACE_WORKLOADS=file2m:64 \
#   BENCH_OUT=build/reclaim-smoke bench/reclaim.sh
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 2
. "$here/bench-lib.sh"
# shellcheck source=reclaim-arms.sh
. "$here/reclaim-arms.sh"

kver=${KVER:-$(cat scripts/kernels/default-kver)}
export BENCH_ARMS=${BENCH_ARMS:-$(bench_reclaim_configs "$kver")}
VARS="BENCH_WORKLOADS BENCH_LRU BENCH_REPS BENCH_WARMUP BENCH_TRACE_REPS BENCH_TRACE_WORKLOADS BENCH_LOOK_REPS BENCH_ARMS"
cmdline="$(for v in KVER $VARS BENCH_MEM BENCH_KERNEL_ARGS BENCH_OUT BENCH_BESIDE; do
	[ -n "${!v+x}" ] && printf '%s=%q ' "$v" "${!v}"; done)bench/reclaim.sh"
[ $# -gt 0 ] && { echo "reclaim.sh takes no arguments (environment only)" >&2; exit 1; }

for f in module/foliotune.ko userspace/foliotune tests/progs/ft_reclaim_bench; do
	[ -e "$f" ] || { echo "reclaim.sh: $f missing: run make first" >&2; exit 2; }
done
grep -qa referenced_batch module/foliotune.ko ||
	{ echo "reclaim.sh: module/foliotune.ko has no referenced_batch knob: rebuild it (make)" >&2; exit 2; }
arms=$(echo "$BENCH_ARMS" | tr ',' ' ')
for c in $arms; do
	k=$(bench_reclaim_knobs "$c") || { echo "reclaim.sh: BENCH_ARMS: '$c' is none of $BENCH_RECLAIM_ARMS" >&2; exit 1; }
	case $k in *2*) grep -qa unmap_calls_pte module/foliotune.ko ||
		{ echo "reclaim.sh: BENCH_ARMS: $c needs the knobs' arm 2, which this module/foliotune.ko lacks: rebuild it" >&2; exit 2; } ;;
	esac
done
[ "${arms%% *}" = stock ] || { echo "reclaim.sh: BENCH_ARMS must start with stock, the configuration the others pair with" >&2; exit 1; }
if [ -n "${BENCH_BESIDE:-}" ] && [ ! -d "$BENCH_BESIDE" ]; then
	echo "reclaim.sh: BENCH_BESIDE=$BENCH_BESIDE: no such directory" >&2
	exit 1
fi
command -v mkfs.xfs > /dev/null || { echo "reclaim.sh: mkfs.xfs missing (xfsprogs)" >&2; exit 2; }

workloads=$(echo "${BENCH_WORKLOADS:-file2m:1024 filera:1024}" | tr ',' ' ')
lrus=$(echo "${BENCH_LRU:-classic mglru}" | tr ',' ' ')
twork=$(echo "${BENCH_TRACE_WORKLOADS-file2m:1024}" | tr ',' ' ')
reps=${BENCH_REPS:-6}
ntr=${BENCH_TRACE_REPS:-1}
nlook=${BENCH_LOOK_REPS:-1}
for v in reps ntr nlook; do
	[[ ${!v} =~ ^[0-9]+$ ]] || { echo "reclaim.sh: BENCH_REPS, BENCH_TRACE_REPS and BENCH_LOOK_REPS are numbers" >&2; exit 1; }
done
nlru=0
for l in $lrus; do
	case $l in classic | mglru) nlru=$((nlru + 1)) ;;
	*) echo "reclaim.sh: BENCH_LRU: '$l' is neither classic nor mglru" >&2; exit 1 ;; esac
done
[ "$nlru" -gt 0 ] || { echo "reclaim.sh: BENCH_LRU is empty" >&2; exit 1; }
# TCG cost per run, measured on an idle 2-CPU host (2026-12-03: 17 s per
# 1 GiB run, quiescing included): about 4 s + 13 ms per MB (writing and
# mapping the file dominates).  Timed: per rep configurations x LRU modes x workloads;
# warm-up one run per workload; trace: the same per trace rep and trace
# workload, plus about 60 s for bpftrace to attach.
run_s() { echo $(( 4 + ${1#*:} * 13 / 1000 )); }	# run_s WORKLOAD:MB
maxmb=0 timed=0 warm=0 trace=0 nconf=$(wc -w <<<"$arms")
for w in $workloads $twork; do
	case $w in
	file2m:[0-9]* | filera:[0-9]*) ;;
	*) echo "reclaim.sh: workload '$w': not file2m:MB or filera:MB" >&2; exit 1 ;;
	esac
	mb=${w#*:}
	[ "$mb" -gt "$maxmb" ] && maxmb=$mb
done
for w in $workloads; do
	per=$(run_s "$w")
	timed=$(( timed + reps * nconf * nlru * per ))
	warm=$(( warm + ${BENCH_WARMUP:-1} * per ))
done
for w in $twork; do trace=$(( trace + ntr * nconf * nlru * $(run_s "$w") )); done
[ "$ntr" -gt 0 ] && [ -n "$twork" ] && trace=$(( trace + 60 ))
# the look session: one stock run per look rep and trace workload, MGLRU only
if [ "$nlook" -gt 0 ] && [ -n "$twork" ] && [[ " $lrus " == *" mglru "* ]]; then
	for w in $twork; do trace=$(( trace + nlook * $(run_s "$w") )); done
	trace=$(( trace + 60 ))
fi
est=$(( 90 + timed + warm + trace ))
timeout_s=${BENCH_TIMEOUT:-$(( est * 3 ))}
mem_mb=$(( maxmb + 3072 > 4096 ? maxmb + 3072 : 4096 ))
mem=${BENCH_MEM:-$(( (mem_mb + 1023) / 1024 ))G}

commit=$(bench_commit)
out=$(bench_results_dir "$commit" -reclaim) && mkdir -p "$out/raw" || exit 2
case $out/ in
"$repo"/*) ;;
*) echo "reclaim.sh: BENCH_OUT=$out is outside $repo: the box could not write it" >&2; exit 1 ;;
esac

accel=$(bench_accel)
bench_host_start "$out" "$cmdline" "$commit" "$accel" "$mem" "$est" "$timeout_s"
{
	# plot.py leaves this raw/ out of the unmap figures (its configurations
	# include one named stock)
	echo "benchmark reclaim"
	echo "kernel_args ${BENCH_KERNEL_ARGS:-}"
	echo "estimate_timed_seconds $timed"
	echo "estimate_trace_seconds $trace"
	# the session whose table goes beside this one's (reclaim.py)
	[ -n "${BENCH_BESIDE:-}" ] && echo "beside $(realpath --relative-to="$repo" "$BENCH_BESIDE")"
} >> "$out/raw/host-meta.txt"

bench_scratch reclaim-xfs ko
bench_host_files "$out" module/foliotune.ko userspace/foliotune tests/progs/ft_reclaim_bench
# one file at a time lives on the disk (each run deletes its own)
img_mb=$(( maxmb * 2 + 1024 > 2048 ? maxmb * 2 + 1024 : 2048 ))

echo "reclaim.sh: $cmdline"
echo "reclaim.sh: results in $out"
echo "reclaim.sh: estimated $((est / 60)) min under $accel (timed runs $((timed / 60)) min, warm-up $((warm / 60)) min," \
	"trace phase $((trace / 60)) min), timeout $timeout_s s, guest memory $mem"
# shellcheck disable=SC2086  # VARS: a list of names
bench_boot_guest "$out" "${img_mb}M" "$mem" "$timeout_s" "$here/reclaim-guest.sh" $VARS
rc=$?

if ! "$here/report/reclaim.py" "$out" && [ "$rc" = 0 ]; then
	rc=2
fi
echo "reclaim.sh: $out/results.md (to commit it, first bench/pack.sh $out)"
exit "$rc"
