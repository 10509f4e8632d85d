#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# smoke.sh KVER KO OUTDIR - boot KVER in the test box with a scratch xfs and
# run tests/guest/smoke-suite.sh against the module KO.  Writes OUTDIR/smoke.tap
# and OUTDIR/console.log; exit 0 only if the box ran, the console is clean,
# something passed and nothing failed.  Prints "N passed" on success.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
kver=${1:?usage: smoke.sh KVER KO OUTDIR}
ko=${2:?usage: smoke.sh KVER KO OUTDIR}
out=${3:?usage: smoke.sh KVER KO OUTDIR}
mkdir -p "$out"
rm -f "$out/smoke.tap" "$out/rundir"
. harness/vm/boot.sh
vm_boot "$out/xfs.img" 1G -k "$kver" -q -t 1800 -e "FT_KO=$ko" -l "$out/console.log" \
	-R "$out/rundir" -s tests/guest/smoke-suite.sh
rc=$?
tap=$(cat "$out/rundir" 2>/dev/null)/results.tap
[ -f "$tap" ] && cp "$tap" "$out/smoke.tap"
passed=$(grep -c '^ok - ' "$out/smoke.tap" 2>/dev/null)
failed=$(grep -c '^not ok - ' "$out/smoke.tap" 2>/dev/null)
if [ "$rc" != 0 ] || [ "${failed:-0}" != 0 ] || [ "${passed:-0}" = 0 ]; then
	grep '^not ok' "$out/smoke.tap" 2>/dev/null | head -10 >&2
	echo "smoke $kver: failed (vmrun exit $rc, ${passed:-0} passed, ${failed:-0} failed; $out/)" >&2
	exit 1
fi
echo "$passed passed"
