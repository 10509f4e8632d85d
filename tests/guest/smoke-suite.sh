#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# smoke-suite.sh - the short suite that proves foliotune on one more kernel build
# (make verify-kernel, make check-kernels), inside the test box, from the
# existing tests:
#   test-knobs        every knob rejects bad input and keeps its state
#   test-faultaround  up to its auto-mode part (FT_FA_NO_AUTO=1): knob rules, restore, the PTE
#                     age after one read fault per fault_around_mkold mode,
#                     the usefulness counters, integrity while knobs flip
#                     (the auto mode's convergence is timing-dependent under
#                     a busy TCG host and proves nothing build-specific)
#   test-referenced   the batched folio_referenced_one(): reclaim's decisions
#                     on folios of known accessed bits are stock's, with the
#                     counters that prove the batches (classic LRU and MGLRU)
#   integrity/integrity-boot.sh
#                     integrity cases with batching on, off and flipping, and
#                     the order-9 batch whose counters prove batching happened
#   then: unloading leaves no module, livepatch, debugfs dir or changed
#   fault_around_bytes behind.
# FT_SMOKE_CASES overrides the integrity cases.  Results: $FT_RUNDIR/results.tap.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
results=$FT_RUNDIR/results.tap
fa_before=$(cat /sys/kernel/debug/fault_around_bytes)

FT_FA_NO_AUTO=1 bash "$here/suite.sh" "$here/test-knobs.sh" "$here/test-faultaround.sh" \
	"$here/test-referenced.sh"

mkdir -p "$FT_XFS"
if mount "$FT_SCRATCH_DEV" "$FT_XFS"; then
	FT_CASES=${FT_SMOKE_CASES:-"file-mmap-private-clean file-ra-shared-dirty file-pte2m tmpfs-huge-unaligned"} \
		bash "$here/integrity/integrity-boot.sh" 2>&1 | tee -a "$results"
	umount "$FT_XFS"
else
	echo "not ok - smoke: scratch xfs for the unmap cases # mount failed" | tee -a "$results"
fi

{
	ft_unload
	check "smoke: after unload no foliotune module" sh -c '! grep -q "^foliotune " /proc/modules'
	check "smoke: after unload no livepatch" test ! -e "$FT_LIVEPATCH"
	check "smoke: after unload no debugfs dir" test ! -e "$FT_DEBUGFS"
	check_eq "smoke: after unload fault_around_bytes as at boot" "$fa_before" \
		"$(cat /sys/kernel/debug/fault_around_bytes)"
} 2>&1 | tee -a "$results"
exit 0
