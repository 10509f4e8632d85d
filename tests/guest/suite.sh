#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# suite.sh [TEST...] - runs inside the test box: prepares the scratch xfs
# (virtio disk /dev/vda, or $FT_SCRATCH_DEV) and runs each tests/guest/test-*.sh (or the ones
# named), appending their result lines to $FT_RUNDIR/results.tap so that
# the host sees everything that ran even if the guest dies.
#
# Plans.  Every test script (tests/guest/test-*.sh, integrity/integrity-boot.sh,
# reliability/*.sh, and any new one) prints its TAP plan "1..N" before its
# first result line: N is the number of "ok - "/"not ok - " lines it will
# print, known before it runs anything (count the checks; for loops, compute
# it; lib.sh's `plan N` prints it).  A check whose setup fails still prints
# its line, as "not ok - NAME # why".  In results.tap this file writes:
#   # scripts: NAME...           the scripts this boot will run, first
#   # plan: suite 1              its own line (the scratch xfs)
#   # plan: NAME N               in place of each script's "1..N"
#   ...the script's result lines...
#   ok - NAME: N results as planned, exit 0     one line per script, or
#   not ok - NAME # M results, planned N / no plan line / exit status S
# A script thus contributes N + 1 lines.  tests/run.sh computes each boot's
# plan from these lines (sum of the plans, one line per listed script, one
# for the boot itself), so a script that dies or skips checks is noticed,
# and a missing results.tap fails the boot.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
results=${FT_RUNDIR:?}/results.tap
: > "$results"

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=("$here"/test-*.sh)
names=()
for t in "${tests[@]}"; do names+=("$(basename "$t" .sh)"); done
echo "# scripts: ${names[*]}" >> "$results"
echo "# plan: suite 1" >> "$results"

# The host attaches the scratch xfs as the first virtio disk (a test box
# of make check-box: a loop device, FT_SCRATCH_DEV).
[ "$FT_SCRATCH_DEV" = /dev/vda ] && modprobe virtio_blk
modprobe xfs
if [ -b "$FT_SCRATCH_DEV" ] && mkdir -p "$FT_XFS" && mount "$FT_SCRATCH_DEV" "$FT_XFS"; then
	echo "ok - suite: scratch xfs mounted at $FT_XFS" >> "$results"
else
	echo "not ok - suite: scratch xfs # no $FT_SCRATCH_DEV or mount failed" >> "$results"
fi

for i in "${!tests[@]}"; do
	t=${tests[$i]} name=${names[$i]}
	start=$(date +%s.%N)
	echo "# $name"
	side=$(mktemp /tmp/ft-plan.XXXXXX)
	bash "$t" 2>&1 | plan_filter "$name" "$side" | tee -a "$results"
	rc=${PIPESTATUS[0]}
	read -r planned counted < "$side"
	rm -f "$side"
	plan_verdict "$name" "$planned" "$counted" "$rc" | tee -a "$results"
	printf '# %s took %.1f s\n' "$name" "$(echo "$(date +%s.%N) - $start" | bc)" | tee -a "$results"
	ft_unload >/dev/null 2>&1
done
mountpoint -q "$FT_XFS" && umount "$FT_XFS"
exit 0
