#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# suite.sh [TEST...] - runs inside the test box: prepares the scratch xfs
# (virtio disk /dev/vda, or $FT_SCRATCH_DEV) and runs each tests/guest/test-*.sh (or the ones
# named), appending their result lines to $FT_RUNDIR/results.tap so that
# the host sees everything that ran even if the guest dies.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
results=${FT_RUNDIR:?}/results.tap
: > "$results"

# The host attaches the scratch xfs as the first virtio disk (a test box
# of make check-box: a loop device, FT_SCRATCH_DEV).
[ "$FT_SCRATCH_DEV" = /dev/vda ] && modprobe virtio_blk
modprobe xfs
if [ -b "$FT_SCRATCH_DEV" ] && mkdir -p "$FT_XFS" && mount "$FT_SCRATCH_DEV" "$FT_XFS"; then
	echo "ok - suite: scratch xfs mounted at $FT_XFS" >> "$results"
else
	echo "not ok - suite: scratch xfs # no $FT_SCRATCH_DEV or mount failed" >> "$results"
fi

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=("$here"/test-*.sh)
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	start=$(date +%s.%N)
	echo "# $name"
	bash "$t" 2>&1 | tee -a "$results"
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || echo "not ok - $name: script exit status $rc" | tee -a "$results"
	printf '# %s took %.1f s\n' "$name" "$(echo "$(date +%s.%N) - $start" | bc)" | tee -a "$results"
	ft_unload >/dev/null 2>&1
done
mountpoint -q "$FT_XFS" && umount "$FT_XFS"
exit 0
