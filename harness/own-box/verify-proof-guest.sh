#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verify-proof-guest.sh TREE.tar - inside the test box (harness/own-box/
# verify-proof.sh): the box runs a build the tree has a header for; a clean
# copy of the tree without that header plays a tree that never verified
# it.  The box's root is a tmpfs overlay, so /boot and /var/lib/foliotune
# are the box's own: the build's image is put into /boot as Debian
# installs it.  Each step checked.
set -u
# shellcheck source=SCRIPTDIR/../../tests/lib.sh
. "$FT_REPO/tests/lib.sh"
tar=${1:?usage: verify-proof-guest.sh TREE.tar}
ft_results_start
kver=$(uname -r)
cache=${FT_CACHE:-/var/cache/foliotune}
work=/tmp/ft-verify
log=$FT_RUNDIR/verify-logs
state=/var/lib/foliotune/verified
# the machine's name as the header spells it (scripts/kernels/verified-header.sh)
host=$(tr -cd 'A-Za-z0-9.-' < /proc/sys/kernel/hostname)
[ -n "$host" ] || host=unnamed
mkdir -p "$log" "$work"

proof() {
if ! tar -C "$work" -xf "$tar" || ! cd "$work/ft"; then
	not_ok "verify: unpack the tree" "tar failed"
	return
fi
rm -f "module/verified/$kver.h"
check "verify: the copy of the tree has no header for $kver" test ! -e "module/verified/$kver.h"
out=$(scripts/kernels/support.sh 2>&1)
check "verify: support.sh refuses $kver, naming sudo FT_TEST_BOX=1 make verify-kernel" \
	grep -q "sudo FT_TEST_BOX=1 make verify-kernel" <<< "$out"
cp "$cache/kernels/$kver/image/boot/vmlinuz-$kver" "$cache/kernels/$kver/image/boot/config-$kver" /boot/ ||
	{ not_ok "verify: /boot/vmlinuz-$kver as Debian installs it" "cp failed"; return; }
check "verify: no local header yet" test ! -e "$state/$kver.h"

# 1. the one command
out=$(make -s verify-kernel 2>&1); rc=$?
check "verify: without FT_TEST_BOX=1 it refuses in one line" \
	test "$rc" != 0 -a "$(grep -c 'set FT_TEST_BOX=1' <<< "$out")" = 1
check "verify: ... and writes no header" test ! -e "$state/$kver.h"
t0=$(date +%s)
FT_TEST_BOX=1 FT_BOX_ZRAM=1 FT_BOX_SCRATCH_MB=1024 make verify-kernel > "$log/verify.log" 2>&1
rc=$?
echo "# make verify-kernel took $(( $(date +%s) - t0 )) s"
check_eq "verify: sudo FT_TEST_BOX=1 make verify-kernel" 0 "$rc"
[ "$rc" = 0 ] || tail -20 "$log/verify.log" | sed 's/^/# /'
check "verify: no test box was booted" bash -c "! grep -q vmrun '$log/verify.log'"
check "verify: its smoke suite passed on this machine" grep -q "verified ([0-9]* smoke checks passed); wrote $state/$kver.h" "$log/verify.log"
check "verify: the local header names this machine and the time" \
	grep -qE "^#define FT_VERIFIED_BY	\"on $host \(machine-id sha256 [0-9a-f]{16}\) at " "$state/$kver.h"
check "verify: the tree still has no header for $kver" test ! -e "module/verified/$kver.h"
cp "$state/$kver.h" "$log/" 2>/dev/null

# 2. what dkms runs, then load, status, unload
scripts/dkms-check.sh "$kver" > "$log/dkms-check.log" 2>&1
check_eq "verify: dkms's pre-build hook accepts $kver" 0 "$?"
make module > "$log/module.log" 2>&1
check_eq "verify: make module with the local header" 0 "$?"
check "verify: ... the local header went to kbuild" grep -q "FT_VERIFIED_HEADER=.*/build/verified-$kver.h" "$log/module.log"
mark=$(dmesg_mark)
check "verify: the module loads" ft_load module/foliotune.ko
check "verify: debugfs build says verified locally" grep -q "^verified locally on $host " "$FT_DEBUGFS/build"
out=$(userspace/foliotune status 2>&1)
echo "$out" | sed -n '1,5s/^/# /p'
check "verify: foliotune status says verified locally" grep -q "^verified: *locally on $host " <<< "$out"
check "verify: unload" ft_unload
dmesg_since "$mark" > "$log/dmesg.txt"
check "verify: load and unload left a clean kernel log" harness/vm/console-gate.sh "$log/dmesg.txt"

# 3. the refusal line of a build that expects another kernel names the local verification
make test-modules > "$log/test-modules.log" 2>&1
mark=$(dmesg_mark)
insmod build/wrong-build/foliotune.ko 2>/dev/null
check "verify: a wrong build is refused" ft_module_gone
check "verify: its refusal line says the build was verified locally" \
	grep -q "foliotune: unsupported kernel build: .*(verified locally on $host " <<< "$(dmesg_since "$mark")"
}

proof 2>&1 | tee -a "$results"
ft_unload > /dev/null 2>&1
exit 0
