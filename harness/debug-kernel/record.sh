#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record.sh CMD... - run the debug-kernel lane's suite (make check-debug) and
# append its result to docs/debug-runs.md: date, commit and the hash of
# the lane's inputs (harness/lanes.sh), kernel build, counts, duration.  CI cannot afford the kernel build, so the repository
# remembers the last full debug run.
# Exit status: CMD's.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
logs=${FT_TEST_LOGS:-$repo/build/test-logs-debug}
mkdir -p "$logs"
out=$logs/run.out
t0=$(date +%s)
start=$(date -u '+%F %H:%M')
# the tree the run tests is the one it starts from (commits made while it
# runs are not in it)
commit=$(git -C "$repo" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
# what harness/lanes.sh compares with the tree to say whether this run is stale
inputs=$("$repo/harness/lanes.sh" hash debug)
"$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
secs=$(( $(date +%s) - t0 ))
counts=$(grep -m1 -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$out" || echo "no totals")
# A partial run says so: only a run of every suite is a full debug run.
[ -n "${FT_GUEST_SUITES:-}" ] && counts="$counts (only: $FT_GUEST_SUITES)"
kernel="${KVER:-?} $(uname_v=$(cat "$(dirname "${FT_KERNEL_IMAGE:-/nonexistent}")/version" 2>/dev/null); echo "${uname_v##* }")"
result=PASS
[ "$rc" = 0 ] || result="FAIL (exit $rc)"
row="| $start | $commit, inputs $inputs | $kernel | $counts | $((secs / 60)) min | $result |"
doc=$repo/docs/debug-runs.md
[ -f "$doc" ] || { echo "record: $doc missing" >&2; exit "$rc"; }
echo "$row" >> "$doc"
echo "# recorded in docs/debug-runs.md: $row"
exit "$rc"
