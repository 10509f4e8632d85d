#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-proof.sh - the test box is a real machine from its own point of
# view: inside it, from a clean copy of the tree (tracked files as they are
# now, no build/), make install, foliotune load from another directory,
# a CI-sized make check-box, a short make bench-box, then make uninstall;
# every step checked (tests/own-box/qemu-proof-guest.sh).  One boot; the module
# is compiled inside the emulator (about 20 min of the run under TCG).
# Result lines on stdout; exit status 0 iff all passed.
#   FT_PROOF_TESTS   the main-suite tests check-box runs (default below)
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
logs=${FT_TEST_LOGS:-$repo/build/test-logs}
mkdir -p "$logs" build/vm || exit 2
tree=$(mktemp "$repo/build/vm/proof-tree.XXXXXX.tar") || exit 2
trap 'rm -f "$tree"' EXIT
# tracked files of the working tree, committed or not
rev=$(git stash create 2>/dev/null)
git archive --prefix=ft/ -o "$tree" "${rev:-HEAD}" || exit 2
rundir_file=$logs/rundir-box-proof
tests/vm/vmrun.sh -k "$KVER" -q -t "${FT_PROOF_TIMEOUT:-5400}" -l "$logs/console-box-proof.log" \
	-R "$rundir_file" -e "FT_PROOF_TESTS=${FT_PROOF_TESTS:-test-lifecycle test-knobs test-cli}" \
	-s tests/own-box/qemu-proof-guest.sh "$tree" > "$logs/box-proof.out" 2>&1
rc=$?
rundir=$(cat "$rundir_file" 2>/dev/null)
[ -f "$rundir/results.tap" ] && cp "$rundir/results.tap" "$logs/box-proof.tap" &&
	grep -E '^(not )?ok - ' "$rundir/results.tap"
case $rc in
0) echo "ok - box proof: boot, run, clean console" ;;
252) echo "not ok - box proof: console gate found kernel errors (see $logs/console-box-proof.log)" ;;
*) echo "not ok - box proof: test box exit status $rc (see $logs/box-proof.out)" ;;
esac
! grep -q '^not ok' "$rundir/results.tap" 2>/dev/null && [ "$rc" = 0 ]
