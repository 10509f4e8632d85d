# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# proof-boot.sh - sourced by the proofs that treat the QEMU test box as a
# user's own machine (qemu-proof.sh, verify-proof.sh), which it puts at the
# top of the tree: $repo, the build it boots $KVER (default: the default
# build) and the log directory $logs (FT_TEST_LOGS, default build/test-logs).
# Returns 2 if it cannot cd there.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo" || return 2
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
logs=${FT_TEST_LOGS:-$repo/build/test-logs}

# proof_boot NAME LABEL GUEST [VMRUN-OPTION...]: one boot of $KVER running
# GUEST on a copy of the tree (its tracked files as they are now, committed
# or not, no build/); logs as $logs/{console-,rundir-}NAME*; prints the
# guest's result lines and one "LABEL: boot, run, clean console" line.
# Returns 0 iff all passed.
proof_boot() {
	local name=$1 label=$2 guest=$3 tree rev rc rundir
	shift 3
	mkdir -p "$logs" build/vm || return 2
	tree=$(mktemp "$repo/build/vm/$name-tree.XXXXXX.tar") || return 2
	# shellcheck disable=SC2064  # the name is fixed now
	trap "rm -f '$tree'" EXIT
	rev=$(git stash create 2>/dev/null)
	git archive --prefix=ft/ -o "$tree" "${rev:-HEAD}" || return 2
	harness/vm/vmrun.sh -k "$KVER" -q -t "${FT_PROOF_TIMEOUT:-5400}" -l "$logs/console-$name.log" \
		-R "$logs/rundir-$name" "$@" -s "$guest" "$tree" > "$logs/$name.out" 2>&1
	rc=$?
	rundir=$(cat "$logs/rundir-$name" 2>/dev/null)
	[ -f "$rundir/results.tap" ] && cp "$rundir/results.tap" "$logs/$name.tap" &&
		grep -E '^(not )?ok - ' "$rundir/results.tap"
	case $rc in
	0) echo "ok - $label: boot, run, clean console" ;;
	252) echo "not ok - $label: console gate found kernel errors (see $logs/console-$name.log)" ;;
	*) echo "not ok - $label: test box exit status $rc (see $logs/$name.out)" ;;
	esac
	! grep -q '^not ok' "$rundir/results.tap" 2>/dev/null && [ "$rc" = 0 ]
}
