#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# unmap.sh - benchmark the batched try_to_unmap_one against the stock
# algorithm (unmap_batch=0) and against no module, in ONE test-box boot.
#
#   make && bench/unmap.sh            (or: make bench-unmap)
#
# Builds nothing: it needs module/foliotune.ko, userspace/foliotune and
# tests/progs/ft_*_bench from `make`.  It makes a scratch xfs image, boots
# the test box once (harness/vm/vmrun.sh) running bench/unmap-guest.sh,
# then bench/report/unmap.py.  Results: bench/results/<date>-<commit>/
# (results.md + raw/).
#
# Environment (passed to the guest):
#   BENCH_REPS (8)  BENCH_SECONDS (10)  BENCH_SIZE_MB (256)  BENCH_ONLY (all)
#   BENCH_OVERHEAD ("seed order0")  BENCH_TRACE_REPS (1)  BENCH_WARMUP (1)
# Host side:
#   BENCH_OUT       results directory (default bench/results/<date>-<commit>)
#   BENCH_TIMEOUT   guest timeout in seconds (default: estimated x3)
#   BENCH_MEM       guest memory (default 4G)
#   BENCH_SCRATCH   where the scratch xfs image goes (default bench/.scratch)
#   BENCH_KERNEL_ARGS  extra guest kernel arguments, e.g. "watchdog_thresh=60"
#                   on a heavily loaded host, where a starved TCG vCPU can trip
#                   the soft-lockup watchdog (and so the console gate, exit 252)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 2
. "$here/bench-lib.sh"

cmdline="$(for v in BENCH_REPS BENCH_SECONDS BENCH_SIZE_MB BENCH_ONLY BENCH_OVERHEAD \
	BENCH_TRACE_REPS BENCH_WARMUP BENCH_MEM BENCH_KERNEL_ARGS BENCH_OUT; do
	[ -n "${!v+x}" ] && printf '%s=%q ' "$v" "${!v}"; done)bench/unmap.sh"
[ $# -gt 0 ] && { echo "unmap.sh takes no arguments (environment only)" >&2; exit 1; }

for f in module/foliotune.ko userspace/foliotune tests/progs/ft_pageout_bench \
	tests/progs/ft_reclaim_bench; do
	[ -e "$f" ] || { echo "unmap.sh: $f missing: run make first" >&2; exit 2; }
done
command -v mkfs.xfs > /dev/null || { echo "unmap.sh: mkfs.xfs missing (xfsprogs)" >&2; exit 2; }

commit=$(bench_commit)
out=$(bench_results_dir "$commit" "") && mkdir -p "$out/raw" || exit 2

reps=${BENCH_REPS:-8}
secs=${BENCH_SECONDS:-10}
size=${BENCH_SIZE_MB:-256}
only=$(echo "${BENCH_ONLY:-all}" | tr ',' ' ')
nb=0
for b in seed filera file2m file2m-shift order0 lazyfree shmem16k shmem64k shmem128k shmem2m shmem2m-pte; do
	case " $only " in *" all "* | *" $b "*) nb=$((nb + 1)) ;; esac
done
nov=0
case " $only " in *" all "* | *" overhead "*) nov=$(echo "${BENCH_OVERHEAD:-seed order0}" | tr ',' ' ' | wc -w) ;; esac
ntr=${BENCH_TRACE_REPS:-1}
case " $only " in *" all "* | *" trace "*) ;; *) ntr=0 ;; esac
# TCG cost per run, from a smoke run on a loaded 2-CPU host: about 8 s + 43 ms
# per MB for the reclaim benchmarks (writing and mapping the object dominates),
# BENCH_SECONDS + 10 s for `seed` (Yin Fengwei's MADV_PAGEOUT loop); an unload/reload pair about 30 s.
per_run=$(( 8 + size * 43 / 1000 ))
[ "$per_run" -lt $((secs + 10)) ] && per_run=$((secs + 10))
est=$(( 90 + (${BENCH_WARMUP:-1} + reps * 2 + ntr * 2) * nb * per_run + reps * nov * (2 * per_run + 30) ))
timeout_s=${BENCH_TIMEOUT:-$(( est * 3 ))}

accel=$(bench_accel)
bench_host_start "$out" "$cmdline" "$commit" "$accel" "${BENCH_MEM:-4G}" "$est" "$timeout_s"
echo "kernel_args ${BENCH_KERNEL_ARGS:-}" >> "$out/raw/host-meta.txt"

# the guest loads (and, in the overhead phase, reloads) the private copy
bench_scratch xfs ko
bench_host_files "$out" module/foliotune.ko userspace/foliotune tests/progs/ft_pageout_bench \
	tests/progs/ft_reclaim_bench
img_mb=$(( size * 2 + 1024 > 2048 ? size * 2 + 1024 : 2048 ))

echo "unmap.sh: $cmdline"
echo "unmap.sh: results in $out; estimated $((est / 60)) min under $accel, timeout $timeout_s s"
export BENCH_REPS=$reps BENCH_SECONDS=$secs BENCH_SIZE_MB=$size
bench_boot_guest "$out" "${img_mb}M" "${BENCH_MEM:-4G}" "$timeout_s" "$here/unmap-guest.sh" \
	BENCH_REPS BENCH_SECONDS BENCH_SIZE_MB BENCH_ONLY BENCH_OVERHEAD BENCH_TRACE_REPS BENCH_WARMUP
rc=$?

if ! "$here/report/unmap.py" "$out" && [ "$rc" = 0 ]; then
	rc=2
fi
echo "unmap.sh: $out/results.md (to commit it, first bench/pack.sh $out)"
exit "$rc"
