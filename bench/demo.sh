#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the README's first command (`make demo`): boot the test box,
# load foliotune with its CLI, and show the headline result in a few
# minutes (about 2 under single-threaded TCG, measured on a busy 2-CPU host):
#
#   - Yin Fengwei's 2023 MADV_PAGEOUT micro-benchmark with
#     unmap_batch=0 (stock algorithm) and =1 (batched), alternating, each
#     run recorded with `foliotune record`: loops/s side by side and
#     `foliotune compare` of the counters;
#   - a short app-launch run (the 2016 fault-around thread's workload) with
#     stock 64K fault-around, fault_around_mkold=2 and 4K.
#
# Every step prints a "[demo  SECONDS] ..." progress line (the guest half is
# bench/demo-guest.sh).  Records and outputs stay in build/demo/ (the
# guest's /tmp is not shared).  Environment: DEMO_REPS (6), DEMO_SECONDS
# (5), DEMO_APPS (8), DEMO_LIMIT_MB (40), DEMO_FA (1; 0: unmap part only).
# The figures come from a QEMU TCG guest (software emulation): only the
# ratios within this one boot mean anything.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
KVER=${KVER:-$(cat scripts/kernels/default-kver)}
t0=$(date +%s)
say() { printf '[demo %4ds host] %s\n' $(( $(date +%s) - t0 )) "$*"; }

for f in module/foliotune.ko userspace/foliotune tests/progs/ft_pageout_bench bench/progs/ft_applaunch; do
	[ -e "$f" ] || { echo "demo: $f missing: run make first (make demo builds it)" >&2; exit 2; }
done
out=$PWD/build/demo
. tests/vm/boot.sh
mkdir -p "$out" || exit 2
rm -f "$out"/*.rec "$out"/*.out
say "booting the $KVER test box (QEMU TCG: software emulation, several times slower than the host)"
envs=()
for v in DEMO_REPS DEMO_SECONDS DEMO_APPS DEMO_LIMIT_MB DEMO_FA; do
	[ -n "${!v+x}" ] && envs+=("$v=${!v}")
done
# vmrun -- CMD: the guest's environment is its own, so pass DEMO_* inline.
vm_boot build/vm/xfs-demo.img 1G -k "$KVER" -- "${envs[*]} $PWD/bench/demo-guest.sh $out"
rc=$?
say "test box exit status $rc after $(( $(date +%s) - t0 )) s"
exit "$rc"
