# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# harness/own-box/box-lib.sh - shared by make check-box and make bench-box, which run
# the test-box suites and benchmarks on the machine itself (docs/own-box.md).
#
# Settings (environment):
#   FT_TEST_BOX=1     required: this machine may be reclaimed, livepatched,
#                     poisoned (and, if something goes wrong, crash)
#   FT_BOX_SCRATCH    file to back the scratch xfs (default: a file in a
#                     private tmpfs); an existing file is refused
#   FT_BOX_SCRATCH_MB size of the scratch xfs (default 2048)
#   FT_BOX_ZRAM=1     allow a zram swap device (the unmap suite and the
#                     benchmarks need swap; without it the machine's own
#                     active swap is used)
#   FT_BOX_LOGS       log and results directory (check-box; default
#                     build/box-logs/<UTC time>)
# Testing only: FT_BOX_ROOT prefixes /proc and /sys, FT_BOX_UID replaces
# the effective uid, so that host tests can fake every refusal.

FT_BOX_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
box_root=${FT_BOX_ROOT:-}

# refuse WHAT MESSAGE: one line on stderr, exit 2.
refuse() { echo "$1: refusing to start: $2" >&2; exit 2; }

# box_preflight check|bench|verify: every reason not to touch this machine,
# before anything is built, mounted, loaded or written.  verify (make
# verify-kernel on the running kernel, harness/own-box/local-smoke.sh) skips the
# support check: the build it verifies is not supported yet.
box_preflight() {
	local what=$1-box rel why mode sb controllers
	[ "$1" = verify ] && what=verify-kernel
	[ "${FT_TEST_BOX:-}" = 1 ] ||
		refuse "$what" "it livepatches the running kernel, reclaims memory through cgroups and drops caches on THIS machine; set FT_TEST_BOX=1 on a test box you can afford to crash (docs/own-box.md)"
	[ "${FT_BOX_UID:-$(id -u)}" = 0 ] ||
		refuse "$what" "it must run as root (sudo FT_TEST_BOX=1 make $what)"
	rel=$(cat "$box_root/proc/sys/kernel/osrelease" 2>/dev/null)
	if [ "$1" != verify ]; then
		# the one support check: release and version string
		why=$("$FT_BOX_REPO/scripts/kernels/support.sh" "$rel" \
			"$(cat "$box_root/proc/sys/kernel/version" 2>/dev/null)" 2>&1 >/dev/null) ||
			refuse "$what" "$why"
		[ "${KVER:-$rel}" = "$rel" ] ||
			refuse "$what" "the running kernel is $rel but KVER=$KVER: make $what KVER=$rel"
	fi
	mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$box_root/sys/kernel/security/lockdown" 2>/dev/null)
	[ -z "$mode" ] || [ "$mode" = none ] ||
		refuse "$what" "the kernel is locked down (lockdown=$mode): it refuses the unsigned foliotune module and its debugfs knobs"
	# efivars: 4 bytes of attributes, then the value
	sb=$(od -An -tu1 -j4 -N1 "$box_root"/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a9f3ae7fc9 2>/dev/null | tr -d ' ')
	[ "$sb" != 1 ] ||
		refuse "$what" "Secure Boot is on: the kernel refuses the unsigned foliotune module"
	[ "$(cat "$box_root/sys/module/module/parameters/sig_enforce" 2>/dev/null)" != Y ] ||
		refuse "$what" "module.sig_enforce=1: the kernel refuses the unsigned foliotune module"
	controllers=$(cat "$box_root/sys/fs/cgroup/cgroup.controllers" 2>/dev/null) ||
		refuse "$what" "no cgroup v2 at /sys/fs/cgroup (the suites reclaim through memory cgroups: boot with systemd.unified_cgroup_hierarchy=1)"
	case " $controllers " in *" memory "*) ;; *)
		refuse "$what" "the cgroup v2 memory controller is not available at /sys/fs/cgroup" ;;
	esac
	if [ "${FT_BOX_ZRAM:-}" = 1 ]; then
		[ ! -e "$box_root/sys/block/zram0" ] ||
			refuse "$what" "FT_BOX_ZRAM=1 but /dev/zram0 exists already: the suites would reset it (unset FT_BOX_ZRAM to use the machine's swap)"
	elif [ "$(wc -l < "$box_root/proc/swaps")" -le 1 ]; then
		refuse "$what" "no swap is active: allow a zram swap device with FT_BOX_ZRAM=1, or activate swap"
	fi
	[ -z "${FT_BOX_SCRATCH:-}" ] || [ ! -e "$FT_BOX_SCRATCH" ] ||
		refuse "$what" "FT_BOX_SCRATCH=$FT_BOX_SCRATCH exists: name a new file (it is overwritten with a scratch xfs and removed)"
	local t
	for t in mkfs.xfs losetup; do
		command -v "$t" > /dev/null || refuse "$what" "$t is missing (apt-get install xfsprogs mount)"
	done
	return 0
}

# ---- setup and teardown (after the preflight) ----------------------------
box_tmpfs='' box_img='' box_loop='' box_xfs='' box_mark='' box_zram=0 box_damon=''

box_log() { echo "box: $*"; [ -w /dev/kmsg ] && echo "foliotune-box: $*" > /dev/kmsg; return 0; }

# box_setup: scratch xfs on a loop device; FT_* for the suites.
box_setup() {
	local mb=${FT_BOX_SCRATCH_MB:-2048}
	if [ -n "${FT_BOX_SCRATCH:-}" ]; then
		box_img=$FT_BOX_SCRATCH
	else
		box_tmpfs=$(mktemp -d /tmp/ft-box-tmpfs.XXXXXX) || return 1
		mount -t tmpfs -o size=$((mb + 64))M ft-box "$box_tmpfs" || return 1
		box_img=$box_tmpfs/scratch.img
	fi
	truncate -s "${mb}M" "$box_img" && mkfs.xfs -q -f "$box_img" || return 1
	# without udev's static nodes (/dev/loop-control) nothing loads loop
	modprobe loop 2>/dev/null
	box_loop=$(losetup -f --show "$box_img") || return 1
	box_xfs=$(mktemp -d /tmp/ft-box-xfs.XXXXXX) || return 1
	# this tree's module, CLI and programs, whatever the caller exported
	export FT_REPO=$FT_BOX_REPO FT_KO=$FT_BOX_REPO/module/foliotune.ko
	export FT_WRONG_KO=$FT_BOX_REPO/build/wrong-build/foliotune.ko
	export FT_SCRATCH_DEV=$box_loop FT_XFS=$box_xfs
	export FT_RA=/sys/block/${box_loop##*/}/queue/read_ahead_kb
	if [ "${FT_BOX_ZRAM:-}" = 1 ]; then
		export FT_ZRAM=1
		lsmod | grep -q '^zram ' || box_zram=1	# loaded by us: unloaded after
	else
		export FT_ZRAM=0
	fi
	box_mark=ft-box-$(date +%s)-$$
	echo "$box_mark" > /dev/kmsg
	box_log "scratch xfs $box_img on $box_loop, mounted at $box_xfs by the suites"
}

# box_damon_off: DAMON_STAT off until box_teardown, if it runs (Debian's
# Linux 7 builds start it at boot): its kdamond ages PTEs and calls every
# MMU notifier behind the suites' backs (docs/qemu-test-box.md, where the
# test boxes boot with it off).  The benchmarks leave it as it is.
box_damon_off() {
	local f=$box_root/sys/module/damon_stat/parameters/enabled

	[ "$(cat "$f" 2>/dev/null)" = Y ] || return 0
	echo N > "$f" || return 1
	box_damon=$f
	box_log "DAMON_STAT off for the run (on again after it)"
}

# box_dmesg FILE: the kernel log since box_setup.
box_dmesg() { dmesg | sed -n "/$box_mark/,\$p" > "$1"; }

# box_teardown: leave the machine as it was (best effort, idempotent).
box_teardown() {
	# shellcheck source=../../tests/lib.sh
	. "$FT_BOX_REPO/tests/lib.sh"
	ft_unload > /dev/null 2>&1
	[ -n "$box_xfs" ] && { mountpoint -q "$box_xfs" && umount "$box_xfs"; rmdir "$box_xfs"; }
	[ -n "$box_loop" ] && losetup -d "$box_loop"
	if [ -n "$box_tmpfs" ]; then
		umount "$box_tmpfs" && rmdir "$box_tmpfs"
	elif [ -n "$box_img" ]; then
		rm -f "$box_img"
	fi
	if [ "${FT_ZRAM:-0}" = 1 ]; then
		ft_zram_swapoff
		[ "$box_zram" = 1 ] && rmmod zram 2>/dev/null
	fi
	[ -n "$box_damon" ] && echo Y > "$box_damon"
	box_xfs='' box_loop='' box_tmpfs='' box_img='' box_damon=''
	return 0
}
