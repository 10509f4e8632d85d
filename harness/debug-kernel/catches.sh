#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# catches.sh - the debug-kernel lane must catch a broken foliotune.
# (make check-debug-catches; docs/debug-lane.md.)
#
# Boots the debug kernel with the TEST-ONLY build made with
# tests/mutants/break-rmap.patch (one rmap too few per batched run, build/debug/
# break-rmap/) and runs batched-unmap integrity cases on it.  Passes only if
# the kernel itself reports the damage: the boot ends in a crash (vmrun 251)
# or a console-gate failure (252) with a kernel splat on the console.  The
# first lines of the splat are printed and saved in $logs/catches.txt.
# Environment: the FT_* of tests/run.sh (set by the Makefile), and
# FT_CATCH_CASES (default: the 512- and 16-PTE batch cases).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
KVER=${KVER:?KVER: the debug kernel release}
logs=${FT_TEST_LOGS:-$repo/build/test-logs-debug}
scale=${FT_TIME_SCALE:-4}
broken=$repo/build/debug/break-rmap/foliotune.ko
cases=${FT_CATCH_CASES:-file-pte2m anon-mthp64 tmpfs-pte2m}
mkdir -p "$logs"
out=$logs/catches.txt

if [ ! -r "$broken" ]; then
	echo "not ok - debug lane catches a broken build # $broken missing (make FT_DEBUG_LANE=1 debug-break-rmap)"
	exit 1
fi
if ! modinfo -F vermagic "$broken" | grep -q "^$KVER "; then
	echo "not ok - debug lane catches a broken build # $broken is not built for $KVER"
	exit 1
fi

. harness/vm/boot.sh
vm_opts=(-k "$KVER" -q -t $((600 * scale)))
[ -n "${FT_KERNEL_IMAGE:-}" ] && vm_opts+=(-K "$FT_KERNEL_IMAGE")
[ -n "${FT_GUEST_MODULES:-}" ] && vm_opts+=(-M "$FT_GUEST_MODULES")
log=$logs/console-catches.log
# The workload: the integrity cases with batching on, from the pageout
# source (MADV_PAGEOUT), with zram swap for the anon case.
vm_boot "$repo/build/vm/xfs-catches.img" 1G "${vm_opts[@]}" -l "$log" -e "FT_KO=$broken" -e "FT_CASES=$cases" -- \
	'. tests/lib.sh; modprobe virtio_blk; modprobe xfs; mkdir -p $FT_XFS
	 mount /dev/vda $FT_XFS || { echo "scratch xfs: mount failed"; exit 3; }
	 ft_zram_swap 1G; ft_load || { echo "insmod failed"; exit 3; }
	 echo 1 > $FT_DEBUGFS/unmap_batch
	 FT_SOURCES=pageout bash tests/guest/integrity/integrity.sh' > "$logs/catches.out" 2>&1
rc=$?
splat='kernel BUG|BUG:|WARNING:|page dumped because|Bad page|page_table_check|VM_BUG_ON'
{
	echo "# $(date -u '+%F %T') commit $(git rev-parse --short HEAD 2>/dev/null) vmrun exit $rc"
	echo "# broken module: $broken (tests/mutants/break-rmap.patch), cases: $cases"
	grep -m1 'TEST-ONLY build' "$log" "${log%.log}.dmesg.txt" 2>/dev/null | head -1 | sed 's/^[^:]*://'
	# From the first splat line on: what the kernel said.
	grep -hE -m1 -A24 "$splat" "$log" 2>/dev/null
} > "$out"
if { [ "$rc" = 251 ] || [ "$rc" = 252 ]; } && grep -qE "$splat" "$log"; then
	echo "ok - debug lane catches a broken build (vmrun exit $rc: $(grep -hE -m1 "$splat" "$log" |
		sed 's/^\[ *[0-9.]*\] //'))"
	sed 's/^/# /' "$out" | head -30
	exit 0
fi
echo "not ok - debug lane catches a broken build # vmrun exit $rc, no kernel report (see $log)"
tail -20 "$logs/catches.out" | sed 's/^/# /'
exit 1
