# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh - one boot of the test box with a fresh scratch disk, and what
# vmrun.sh's own exit codes mean.  Sourced by everything that boots a suite
# or a benchmark: tests/run.sh, soak, the mutation and debug lanes, the
# kernel smoke boots, make demo and the benchmarks.

FT_VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Not vmrun.sh's: the scratch image could not be made, nothing booted.
FT_VM_NO_SCRATCH=253

# vm_boot DISK SIZE VMRUN-ARGS...: boot with DISK, a new xfs image of SIZE
# (truncate's units), as the box's /dev/vda (the suites mount it at
# $FT_XFS).  The image is removed afterwards.  Returns vmrun.sh's status, or
# FT_VM_NO_SCRATCH.
vm_boot() {
	local disk=$1 size=$2 rc
	shift 2
	rm -f "$disk"
	if ! mkdir -p "$(dirname "$disk")" || ! truncate -s "$size" "$disk" ||
	   ! mkfs.xfs -q -f "$disk"; then
		echo "vm_boot: cannot make the scratch xfs $disk" >&2
		rm -f "$disk"
		return "$FT_VM_NO_SCRATCH"
	fi
	"$FT_VM_DIR/vmrun.sh" -d "$disk" "$@"
	rc=$?
	rm -f "$disk"
	return "$rc"
}

# vm_why RC: what a vm_boot status that is not the command's own means, in
# a few words; fails for any other status (the command's).
vm_why() {
	case $1 in
	250) echo "the box died before the command started, retries exhausted" ;;
	251) echo "the kernel crashed or the run timed out" ;;
	252) echo "the console gate found kernel errors" ;;
	"$FT_VM_NO_SCRATCH") echo "no scratch xfs (mkfs.xfs failed)" ;;
	*) return 1 ;;
	esac
}
