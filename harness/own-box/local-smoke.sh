#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# local-smoke.sh KO OUTDIR - the smoke suite (tests/guest/smoke-suite.sh) on this
# machine against the module KO: make verify-kernel's boot stage when it
# verifies the running kernel (scripts/kernels/verify.sh, local mode), as
# scripts/kernels/smoke.sh is in the QEMU test box.  The machine must pass
# box_preflight (harness/own-box/box-lib.sh: FT_TEST_BOX=1, root, no lockdown, swap
# or FT_BOX_ZRAM=1, ...).  A scratch xfs on a loop device, as make
# check-box; the console gate on the kernel log of the run.  Writes
# OUTDIR/smoke.tap, smoke.out and dmesg.txt; exit 0 only if something
# passed, nothing failed and the log is clean.  Prints "N passed".
set -u
. "$(dirname "$0")/box-lib.sh"
ko=${1:?usage: local-smoke.sh KO OUTDIR}
out=${2:?usage: local-smoke.sh KO OUTDIR}
box_preflight verify
cd "$FT_BOX_REPO" || exit 2
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
rm -rf "$out/smoke" "$out/smoke.tap"
trap box_teardown EXIT
trap 'exit 130' INT TERM
box_setup > "$out/setup.out" 2>&1 || {
	cat "$out/setup.out" >&2
	echo "smoke: no scratch xfs on a loop device (see $out/setup.out)" >&2
	exit 1
}
export FT_KO=$ko FT_RUNDIR=$out/smoke
mkdir -p "$FT_RUNDIR"
# stdout carries only the result line, which verify.sh reads
box_log "verify-kernel: smoke suite with $ko" >&2
bash tests/guest/smoke-suite.sh > "$out/smoke.out" 2>&1
rc=$?
cp "$FT_RUNDIR/results.tap" "$out/smoke.tap" 2>/dev/null
box_teardown
trap - EXIT
box_dmesg "$out/dmesg.txt"
passed=$(grep -c '^ok - ' "$out/smoke.tap" 2>/dev/null)
failed=$(grep -c '^not ok - ' "$out/smoke.tap" 2>/dev/null)
gate=clean
harness/vm/console-gate.sh "$out/dmesg.txt" > "$out/gate.txt" 2>&1 || gate=dirty
if [ "$rc" != 0 ] || [ "${failed:-0}" != 0 ] || [ "${passed:-0}" = 0 ] || [ "$gate" != clean ]; then
	grep '^not ok' "$out/smoke.tap" 2>/dev/null | head -10 >&2
	echo "smoke: failed (exit $rc, ${passed:-0} passed, ${failed:-0} failed, kernel log $gate; $out/)" >&2
	exit 1
fi
echo "$passed passed"
