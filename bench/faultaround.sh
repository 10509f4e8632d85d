#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# faultaround.sh - reproduce the 2016 linux-mm fault-around measurements
# (Vinayak Menon's app launches under memory pressure, 64K vs 4K; Kirill
# Shutemov's old pre-mapped PTEs) with foliotune's knobs, in ONE test-box
# boot, and write bench/results/<date>-<commit>-faultaround/results.md.
#
#   make && bench/faultaround.sh
#
# Builds nothing: it needs module/foliotune.ko (with the fault-around
# knobs), userspace/foliotune, bench/progs/ft_applaunch, tests/progs/ft_seqread and
# ft_spawn.
# It makes a scratch xfs image, boots the test box once
# (harness/vm/vmrun.sh -s bench/faultaround-guest.sh), then runs
# bench/report/faultaround.py.  Raw files: OUTDIR/raw/.
#
# Environment (passed to the guest; see faultaround-guest.sh):
#   BENCH_REPS (8)      repetitions of every scenario x configuration
#   BENCH_ONLY (all)    scenarios: applaunch (= the four launch-*), seqread,
#                       spawn, launch-zram launch-noswap launch-zram-classic
#                       launch-noswap-classic (comma or space separated)
#   BENCH_CONFIGS       default "stock fa4k mkold1 mkold2 auto auto200 autoage"
#   BENCH_WARMUP (1)    one unrecorded stock run first
#   BENCH_APPS (10) BENCH_APP_MB (6) BENCH_FW_MB (24) BENCH_ANON_MB (3)
#   BENCH_LIMIT_MB (48) BENCH_ROUNDS (2) BENCH_LAUNCH_ARGS (extra ft_applaunch args)
#   BENCH_ZRAM_MB (512) BENCH_SEQ_MB (128) BENCH_SEQ_PATTERNS BENCH_SEQ_PASSES (3)
#   BENCH_SEQ_SECONDS (10)
#   BENCH_AUTO_MAX (64K) BENCH_SPAWN_SECONDS (10)
# Host side:
#   BENCH_OUT       results directory (default bench/results/<date>-<commit>-faultaround)
#   BENCH_TIMEOUT   guest timeout in seconds (default: estimate x 4)
#   BENCH_MEM       guest memory (default 2G)
#   BENCH_SCRATCH   where the scratch xfs image goes (default bench/.scratch)
#
# Duration at the defaults: ~12 min on an idle 2-CPU host under TCG (26 min
# measured at host load average 7-9).  Smoke run (~2-4 min):
#   BENCH_REPS=1 BENCH_ONLY=launch-zram,seqread BENCH_CONFIGS=stock,fa4k bench/faultaround.sh
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 2
. "$here/bench-lib.sh"

VARS="BENCH_REPS BENCH_ONLY BENCH_CONFIGS BENCH_WARMUP BENCH_APPS BENCH_APP_MB BENCH_FW_MB
	BENCH_ANON_MB BENCH_LIMIT_MB BENCH_ROUNDS BENCH_LAUNCH_ARGS BENCH_ZRAM_MB BENCH_SEQ_MB
	BENCH_SEQ_PATTERNS BENCH_SEQ_PASSES BENCH_SEQ_SECONDS BENCH_AUTO_MAX BENCH_SPAWN_SECONDS"
cmdline="$(for v in $VARS BENCH_MEM; do
	[ -n "${!v+x}" ] && printf '%s=%q ' "$v" "${!v}"; done)bench/faultaround.sh"
[ $# -gt 0 ] && { echo "faultaround.sh takes no arguments (environment only)" >&2; exit 1; }

for f in module/foliotune.ko userspace/foliotune bench/progs/ft_applaunch tests/progs/ft_seqread tests/progs/ft_spawn; do
	[ -e "$f" ] || { echo "faultaround.sh: $f missing: run make first" >&2; exit 2; }
done
# The module must have the fault-around knobs (the guest checks the live
# debugfs files again and stops with "fatal" if one is missing).
for k in fault_around_bytes fault_around_mkold fault_around_auto fault_around_auto_max_bytes \
	fa_events fa_pages_mapped_old fa_unmap_old_ptes pageref_activate_vm_exec; do
	grep -qa "$k" module/foliotune.ko ||
		{ echo "faultaround.sh: module/foliotune.ko has no '$k': it predates the fault-around knobs; rebuild it (make)" >&2; exit 2; }
done
command -v mkfs.xfs > /dev/null || { echo "faultaround.sh: mkfs.xfs missing (xfsprogs)" >&2; exit 2; }

commit=$(bench_commit)
out=$(bench_results_dir "$commit" -faultaround) && mkdir -p "$out/raw" || exit 2

# ---- time estimate (TCG, idle 2-CPU host) --------------------------------
# Calibration: the default run took 26 min at host load average 7-9 (other
# test boxes on the same 2 CPUs), with QEMU using 683 s of CPU time, which
# is about what it takes on an idle host: ~12 min.
reps=${BENCH_REPS:-8}
only=" $(echo "${BENCH_ONLY:-all}" | tr ',' ' ') "
nconf=$(echo "${BENCH_CONFIGS:-stock fa4k mkold1 mkold2 auto auto200 autoage}" | tr ',' ' ' | wc -w)
nl=0; ns=0
for s in launch-zram launch-noswap launch-zram-classic launch-noswap-classic; do
	case $only in *" all "* | *" applaunch "* | *" $s "*) nl=$((nl + 1)) ;; esac
done
case $only in *" all "* | *" seqread "*) ns=1 ;; esac
nsp=0
case $only in *" all "* | *" spawn "*) nsp=1 ;; esac
apps=${BENCH_APPS:-10}; rounds=${BENCH_ROUNDS:-2}
# boot + setup: ~70 s + writing the files; per launch run: ~1 s between
# runs + ~0.4 s per launch at the default sizes; per seqread run: ~3 s +
# ~0.005 s per MiB per pattern
per_launch=$(( 1 + apps * rounds * 4 / 10 ))
npat=$(echo "${BENCH_SEQ_PATTERNS:-seq,stride2,stride4,stride16,rand}" | tr ',' ' ' | wc -w)
per_seq=$(( 3 + ${BENCH_SEQ_MB:-128} * npat / 200 + ${BENCH_SEQ_SECONDS:-10} * npat ))
setup=$(( 70 + (${BENCH_FW_MB:-24} + apps * ${BENCH_APP_MB:-6} + ${BENCH_SEQ_MB:-128}) / 20 ))
per_spawn=$(( 2 + ${BENCH_SPAWN_SECONDS:-10} ))
est=$(( setup + (reps * nconf + ${BENCH_WARMUP:-1}) * (nl * per_launch + ns * per_seq + nsp * per_spawn) ))
timeout_s=${BENCH_TIMEOUT:-$(( est * 4 ))}

accel=$(bench_accel)
bench_host_start "$out" "$cmdline" "$commit" "$accel" "${BENCH_MEM:-2G}" "$est" "$timeout_s"

bench_scratch fa-xfs

echo "faultaround.sh: $cmdline"
echo "faultaround.sh: results in $out; estimated $((est / 60)) min $((est % 60)) s under $accel, timeout $timeout_s s"
args=()
for v in $VARS; do
	[ -n "${!v+x}" ] && args+=("$v=${!v}")
done
bench_boot "$out" "$BENCH_IMG" 2G -m "${BENCH_MEM:-2G}" -c 2 -t "$timeout_s" \
	-s "$here/faultaround-guest.sh" "$out" "${args[@]}"
rc=$?

if ! "$here/report/faultaround.py" "$out" > /dev/null && [ "$rc" = 0 ]; then
	rc=2
fi
[ -f "$out/results.md" ] && cat "$out/results.md"
echo "faultaround.sh: $out/results.md (to commit it, first bench/pack.sh $out)"
exit "$rc"
