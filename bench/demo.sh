#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the README's first command (`make demo`): boot the test box,
# load foliotune with its CLI, and show its results with their verdicts in
# a few minutes (bench/demo-guest.sh says which; each is a `foliotune ab`
# of knob settings in ABBA pairs):
#
#   1. the headline: memcg reclaim of PTE-mapped 2 MiB file folios with both
#      walks batched against stock, and an A/A of stock (the noise floor);
#   2. Yin Fengwei's 2023 MADV_PAGEOUT micro-benchmark, batched unmap;
#   3. app launch under memory pressure, old pre-mapped PTEs.
#
# Every step prints a "[demo  SECONDS] ..." progress line (the guest's) and
# each result a "verdict ..." line (tests/demo-check.sh checks them).  The
# ab files, their reports and each run's output stay in build/demo/ (the
# guest's /tmp is not shared).  A step that fails says so and the script
# exits non-zero: 1 when the guest's step failed, 2 before the boot, or
# the box's own status (harness/vm/boot.sh, vm_why).
# Environment: KVER (the build to boot; default scripts/kernels/
# default-kver), and bench/demo-guest.sh's DEMO_* settings, passed on.
# The figures come from a QEMU TCG guest (software emulation): only the
# ratios within this one boot mean anything.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
KVER=${KVER:-$(cat scripts/kernels/default-kver)}
t0=$(date +%s)
say() { printf '[demo %4ds host] %s\n' $(( $(date +%s) - t0 )) "$*"; }

for f in module/foliotune.ko userspace/foliotune tests/progs/ft_reclaim_bench \
	tests/progs/ft_pageout_bench bench/progs/ft_applaunch; do
	[ -e "$f" ] || { echo "demo: FAILED: $f missing: run make first (make demo builds it)" >&2; exit 2; }
done
out=$PWD/build/demo
# shellcheck source=SCRIPTDIR/../harness/vm/boot.sh
. harness/vm/boot.sh
mkdir -p "$out" || exit 2
say "booting the $KVER test box (QEMU TCG: software emulation, several times slower than the host)"
envs=()
for v in DEMO_PAIRS DEMO_RECLAIM_MB DEMO_PAGEOUT_SECONDS DEMO_APPS DEMO_LIMIT_MB DEMO_PARTS; do
	[ -n "${!v+x}" ] && envs+=(-e "$v=${!v}")
done
# the largest file (a few hundred MiB) stays in the page cache: 4 GiB of
# guest memory, the box's default
vm_boot build/vm/xfs-demo.img 2G -k "$KVER" -t 1200 "${envs[@]}" -- "$PWD/bench/demo-guest.sh $out"
rc=$?
if [ "$rc" = 0 ]; then
	say "done in $(( $(date +%s) - t0 )) s"
else
	why=$(vm_why "$rc") || why="a step in the box failed (its FAILED line above)"
	say "FAILED: test box exit status $rc: $why; the files so far are in $out"
fi
exit "$rc"
