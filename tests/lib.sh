# SPDX-License-Identifier: GPL-2.0
#
# tests/lib.sh - helpers shared by foliotune's test scripts (host and guest).
# Modelled on tools/testing/selftests/livepatch/functions.sh.
#
# Result lines are TAP without numbers; tests/run.sh numbers and counts them
# (each guest script states its plan first: see tests/guest/suite.sh):
#   ok - NAME
#   not ok - NAME # REASON
#   ok - NAME # SKIP hw: REASON      (only for hardware these machines lack)

FT_REPO=${FT_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
FT_KO=${FT_KO:-$FT_REPO/module/foliotune.ko}
FT_DEBUGFS=/sys/kernel/debug/foliotune
FT_LIVEPATCH=/sys/kernel/livepatch/foliotune
FT_XFS=${FT_XFS:-/mnt/ft-xfs}
# The scratch disk for $FT_XFS: the test box's virtio disk, or the loop
# device of make check-box / bench-box.
FT_SCRATCH_DEV=${FT_SCRATCH_DEV:-/dev/vda}
FT_RA=${FT_RA:-/sys/block/${FT_SCRATCH_DEV##*/}/queue/read_ahead_kb}
export FT_SCRATCH_DEV FT_RA

# plan N: the TAP plan, printed before the first result (tests/guest/suite.sh).
plan() { echo "1..$1"; }

. "$FT_REPO/tests/plan.sh"

# For the plans of scripts that check every debugfs file: the knobs and the
# read-only files include/foliotune.h names.
ft_nr_knobs() { grep -cE '^[[:space:]]*X\([a-z0-9_]+, (BOOL|BYTES|ENUM|UINT),' "$FT_REPO/include/foliotune.h"; }
ft_nr_debugfs_files() { echo $(( $(ft_nr_knobs) + $(grep -c '^#define FOLIOTUNE_[A-Z_]*_FILE' "$FT_REPO/include/foliotune.h") )); }

ok() { echo "ok - $*"; }
not_ok() { local name=$1; shift; echo "not ok - $name # $*"; }

# check NAME CMD...: one result line from a command's exit status.
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else not_ok "$name" "failed: $*"; fi
}

# refused NAME REGEX CMD...: CMD fails and its output says why (REGEX,
# extended).  A command that fails for another reason (a missing tool, a
# wrong path) is not the refusal under test: that is "not ok" too.
refused() {
	local name=$1 re=$2 out rc; shift 2
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" = 0 ]; then
		not_ok "$name" "succeeded: $(head -c 200 <<<"$out" | tr '\n' '|')"
	elif grep -qE "$re" <<<"$out"; then
		ok "$name"
	else
		not_ok "$name" "failed (exit $rc), but not with '$re': $(head -c 200 <<<"$out" | tr '\n' '|')"
	fi
}

# as_nobody CMD...: CMD as uid/gid 65534.  Tests that use it first check
# that it works (check_nobody), so a refusal below is the kernel's.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
check_nobody() { check_eq "$1: setpriv runs commands as uid 65534 (control)" 65534 "$(as_nobody id -u 2>&1)"; }

# check_eq NAME EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected '$2', got '$3'"; fi
}

# log MSG: to the test output, and (its first 900 bytes: a longer kmsg
# record is refused) to the kernel log.
log() {
	local m="foliotune-test: $*"
	echo "# $*"
	[ -w /dev/kmsg ] && echo "${m:0:900}" > /dev/kmsg
	return 0
}

# loop_until SECONDS CMD...: poll every 0.1 s until CMD succeeds.
loop_until() {
	local tries=$(( $1 * 10 )); shift
	while [ "$tries" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

ft_loaded() { [ -d /sys/module/foliotune ]; }
ft_transition_done() { [ ! -e "$FT_LIVEPATCH/transition" ] || [ "$(cat "$FT_LIVEPATCH/transition")" = 0 ]; }
ft_livepatch_gone() { [ ! -d "$FT_LIVEPATCH" ]; }
ft_module_gone() { [ ! -d /sys/module/foliotune ]; }

# ft_load [KO]: insmod and wait for the livepatch transition to finish.
ft_load() {
	insmod "${1:-$FT_KO}" || return 1
	loop_until 60 ft_transition_done
}

# ft_unload: disable the patch (if it is one), wait, rmmod, wait.
ft_unload() {
	ft_loaded || return 0
	if [ -d "$FT_LIVEPATCH" ]; then
		echo 0 > "$FT_LIVEPATCH/enabled" || return 1
		loop_until 60 ft_livepatch_gone || return 1
	fi
	rmmod foliotune || return 1
	loop_until 30 ft_module_gone
}

# ft_counter NAME: current value of one module counter.
ft_counter() { awk -v n="$1" '$1 == n { print $2 }' "$FT_DEBUGFS/vmstat"; }

# ft_linux7: the running kernel is Linux 7 or later, whose own code batches
# the walks foliotune's arms choose between (docs/batching.md); on 6.12
# the kernel's own code (arm 0) is one PTE at a time.
ft_linux7() { [ "$(uname -r | cut -d. -f1)" -ge 7 ]; }

# dmesg_mark / dmesg_since MARK: kernel log lines after a marker.
dmesg_mark() { local m="ft-mark-$RANDOM$RANDOM"; echo "$m" > /dev/kmsg; echo "$m"; }
dmesg_since() { dmesg | sed -n "/$1/,\$p" | tail -n +2; }

# ft_results_start: $results, this boot's $FT_RUNDIR/results.tap, made
# empty, for a guest script that writes its boot's result lines itself
# (not under tests/guest/suite.sh): a missing results.tap fails the boot.
ft_results_start() {
	results=$FT_RUNDIR/results.tap
	: > "$results"
}

# ft_memcg CG THP0: a memcg CG to reclaim in, on the cgroup2 hierarchy
# (mounted if it is not) with the memory controller enabled, and THP at
# "madvise" if it was "never" (THP0, the mode the test saved and restores):
# MADV_HUGEPAGE readahead needs THP not "never".
ft_memcg() {
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p "$1"
	if [ "$2" = never ]; then
		echo madvise > /sys/kernel/mm/transparent_hugepage/enabled
	fi
}
# ft_in_memcg CG COMMAND: COMMAND (a shell command line) run inside memcg
# CG after a sync and dropped caches, so that it starts from a cold page
# cache; its output, stderr included.
ft_in_memcg() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sh -c "echo \$\$ > $1/cgroup.procs && exec $2" 2>&1
}

# ft_zram_swap SIZE: a zram swap device, for tests that need swap.
# FT_ZRAM=0 (a test box whose owner did not allow zram): the machine's own
# swap instead, which must be active.
ft_zram_swap() {
	if [ "${FT_ZRAM:-1}" = 0 ]; then
		[ "$(wc -l < /proc/swaps)" -gt 1 ] && return 0
		echo "no swap active and zram not allowed (FT_ZRAM=0)" >&2
		return 1
	fi
	[ -e /sys/block/zram0 ] || modprobe zram num_devices=1 || return 1
	grep -q '^/dev/zram0 ' /proc/swaps && return 0
	echo "${1:-1G}" > /sys/block/zram0/disksize &&
		mkswap /dev/zram0 > /dev/null && swapon /dev/zram0
}
ft_zram_swapoff() {
	[ "${FT_ZRAM:-1}" = 0 ] && return 0
	grep -q '^/dev/zram0 ' /proc/swaps && swapoff /dev/zram0
	[ -e /sys/block/zram0/reset ] && echo 1 > /sys/block/zram0/reset
	return 0
}
