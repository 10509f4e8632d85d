#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verify-proof.sh - make verify-kernel on the running kernel, proved in the
# QEMU test box as a user's own box (tests/own-box/verify-proof-guest.sh): from
# a clean copy of the tree without the header of the kernel the box runs,
# verify it there (no QEMU inside, the source from the cache), then build
# with the local header, load, status, the refusal line of a wrong build,
# unload.  One boot of KVER (default: the default build); the module is
# compiled inside the emulator twice (verify-kernel, make module): about
# 40-60 min under TCG.  Result lines on stdout; exit status 0 iff all passed.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
logs=${FT_TEST_LOGS:-$repo/build/test-logs}
mkdir -p "$logs" build/vm || exit 2
tree=$(mktemp "$repo/build/vm/verify-tree.XXXXXX.tar") || exit 2
trap 'rm -f "$tree"' EXIT
rev=$(git stash create 2>/dev/null)
git archive --prefix=ft/ -o "$tree" "${rev:-HEAD}" || exit 2
rundir_file=$logs/rundir-verify-proof
tests/vm/vmrun.sh -k "$KVER" -q -t "${FT_PROOF_TIMEOUT:-5400}" -l "$logs/console-verify-proof.log" \
	-R "$rundir_file" -s tests/own-box/verify-proof-guest.sh "$tree" > "$logs/verify-proof.out" 2>&1
rc=$?
rundir=$(cat "$rundir_file" 2>/dev/null)
[ -f "$rundir/results.tap" ] && cp "$rundir/results.tap" "$logs/verify-proof.tap" &&
	grep -E '^(not )?ok - ' "$rundir/results.tap"
case $rc in
0) echo "ok - verify proof: boot, run, clean console" ;;
252) echo "not ok - verify proof: console gate found kernel errors (see $logs/console-verify-proof.log)" ;;
*) echo "not ok - verify proof: test box exit status $rc (see $logs/verify-proof.out)" ;;
esac
! grep -q '^not ok' "$rundir/results.tap" 2>/dev/null && [ "$rc" = 0 ]
