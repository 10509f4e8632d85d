#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability: security.  Its own boot (tests/run.sh: guest_suite
# reliability-security -- tests/guest/reliability/security.sh); the
# kernel command line has no lockdown: this suite raises it at runtime at
# the end, with the module loaded.  (reliability/lockdown.sh is the
# boot with lockdown=integrity on the command line.)
#
#  - permissions: knobs 0600, read-only files 0444/0400, everything owned by
#    root, the directory not writable by others;
#  - no kernel addresses (ffff + 12 hex digits) in any debugfs file, in the
#    livepatch sysfs files of the module or in foliotune's kernel log lines,
#    with kptr_restrict=0 so that %pK would show (and the scan must find
#    those /proc/kallsyms shows);
#  - lockdown raised to integrity while loaded: knobs are refused (EPERM),
#    vmstat/build stay readable (read-only debugfs files are allowed),
#    `foliotune get/set/status` fail with exit 2 and say "locked down",
#    `foliotune counters` still works, unload still works, load is refused
#    with a lockdown message.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
# 3 lines per knob, 2 per read-only file, 24 others.
plan $((3 * $(ft_nr_knobs) + 2 * ($(ft_nr_debugfs_files) - $(ft_nr_knobs)) + 24))
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
addr_re='ffff[0-9a-f]{12}'

ft_unload
mark=$(dmesg_mark)
ft_load || { not_ok "security: load" "insmod failed"; exit 0; }

# ---- permissions -----------------------------------------------------------------

check_eq "security: debugfs directory owned by root" 0:0 "$(stat -c %u:%g "$FT_DEBUGFS")"
dmode=$(stat -c %a "$FT_DEBUGFS")
check "security: debugfs directory ($dmode) not writable by group or others" test $(( 0$dmode & 022 )) = 0
for f in "$FT_DEBUGFS"/*; do
	k=${f##*/} m=$(stat -c %a "$f")
	if [ "$m" = 600 ]; then
		ok "security: knob $k is 0600"
		check "security: knob $k is a known knob (include/foliotune.h)" \
			grep -q "X($k," "$FT_REPO/include/foliotune.h"
	else
		case $m in 444|400) ok "security: read-only $k is 0$m" ;;
		*) not_ok "security: $k mode" "0$m: neither a 0600 knob nor 0444/0400 read-only" ;; esac
	fi
	check_eq "security: $k owned by root" 0:0 "$(stat -c %u:%g "$f")"
done
check_nobody security
refused "security: unprivileged user cannot list the debugfs directory" 'Permission denied' \
	as_nobody ls "$FT_DEBUGFS"
refused "security: unprivileged user cannot read vmstat" 'Permission denied' \
	as_nobody cat "$FT_DEBUGFS/vmstat"

# ---- no kernel addresses ---------------------------------------------------------

# What the kernel shows through foliotune: its debugfs files, its livepatch
# sysfs files and its kernel log lines, with kptr_restrict=0 so that a %pK
# would print an address.  (The CLI prints what it reads there and its own
# text: no pointer to scan for.)  The scan must find the addresses that
# /proc/kallsyms shows then, or it proves nothing.
kp0=$(cat /proc/sys/kernel/kptr_restrict)
echo 0 > /proc/sys/kernel/kptr_restrict
# Give the counters some values first.
"$FT_RELBIN" mapload "$FT_XFS" 8 3 > /dev/null 2>&1
# (text symbols: the first lines of kallsyms are per-cpu offsets)
grep -m 50 ' [Tt] ' /proc/kallsyms > "$w/kallsyms"
n=$(grep -acE "$addr_re" "$w/kallsyms")
check "security: the address scan finds the addresses /proc/kallsyms shows ($n of 50 text symbols)" test "$n" -ge 1
for f in "$FT_DEBUGFS"/*; do echo "$f: $(cat "$f" 2>&1)"; done > "$w/shown"
find "$FT_LIVEPATCH" -type f -readable -exec sh -c 'for f; do echo "$f: $(cat "$f" 2>&1)"; done' _ {} + >> "$w/shown" 2>&1
ft_unload
dmesg_since "$mark" | grep -E 'foliotune|livepatch' >> "$w/shown"
hits=$(grep -aoE "$addr_re" "$w/shown" | head -3 | tr '\n' ' ')
if [ -z "$hits" ]; then ok "security: no kernel address in debugfs, livepatch sysfs, kernel log ($(wc -l < "$w/shown") lines)"
else not_ok "security: no kernel address in debugfs, livepatch sysfs, kernel log" "found: $hits"; fi
echo "$kp0" > /proc/sys/kernel/kptr_restrict

# ---- lockdown raised at runtime, module loaded ----------------------------------

lockdown=/sys/kernel/security/lockdown
if [ ! -w "$lockdown" ]; then
	not_ok "security: runtime lockdown" "$lockdown missing (securityfs mounted? CONFIG_SECURITY_LOCKDOWN_LSM)"
	exit 0
fi
ft_load || not_ok "security: load before lockdown" "insmod failed"
echo 0 > "$FT_DEBUGFS/unmap_batch"
mark=$(dmesg_mark)
check "security: raise lockdown to integrity at runtime" sh -c "echo integrity > $lockdown"
check_eq "security: lockdown is integrity" "[integrity]" "$(grep -o '\[[a-z]*\]' "$lockdown")"
refused "security: under lockdown a knob cannot be read" 'Operation not permitted' cat "$FT_DEBUGFS/unmap_batch"
r=$("$FT_REPO/tests/progs/ft_write" "$FT_DEBUGFS/unmap_batch" 1)
check_eq "security: under lockdown a knob write is refused with EPERM" EPERM "$r"
check "security: under lockdown vmstat (read-only) stays readable" \
	awk 'NF == 2 { n++ } END { exit n == 0 }' "$FT_DEBUGFS/vmstat"
expect_lockdown() {	# NAME CMD...: exit 2 and a message that says "locked down"
	local name=$1; shift
	"$@" > "$w/out" 2>&1; local rc=$?
	if [ "$rc" = 2 ] && grep -qi 'locked down\|lockdown' "$w/out"; then
		ok "$name (exit 2: $(grep -i -m1 'lock' "$w/out" | cut -c1-120))"
	else
		not_ok "$name" "exit $rc, want 2 with a lockdown message: $(head -c 300 "$w/out" | tr '\n' '|')"
	fi
}
expect_lockdown "security: under lockdown 'foliotune get' fails and says locked down" "$FT_CLI" get unmap_batch
expect_lockdown "security: under lockdown 'foliotune set' fails and says locked down" "$FT_CLI" set unmap_batch 1
expect_lockdown "security: under lockdown 'foliotune -j get' fails and says locked down" "$FT_CLI" -j get unmap_batch
# status: what it says and how it exits are two separate results.
"$FT_CLI" status > "$w/out" 2>&1; rc=$?
sed 's/^/#   /' "$w/out"
if grep -qi 'locked down\|lockdown' "$w/out"; then ok "security: status says the kernel is locked down"
else not_ok "security: status says the kernel is locked down" "no lockdown in its output"; fi
check_eq "security: status under lockdown exits 2 (runtime error: knobs unavailable)" 2 "$rc"
"$FT_CLI" counters > "$w/out" 2>&1; rc=$?
check_eq "security: under lockdown 'foliotune counters' (vmstat is read-only) still works" 0 "$rc"
"$FT_CLI" unload > "$w/out" 2>&1; rc=$?
check_eq "security: under lockdown 'foliotune unload' works" 0 "$rc"
check "security: nothing left after the unload under lockdown" ft_nothing_left
expect_lockdown "security: under lockdown 'foliotune load' is refused and says locked down" "$FT_CLI" load "$FT_KO"
check "security: nothing registered after the refused load" ft_nothing_left
# security/lockdown/lockdown.c prints every refusal from one
# pr_notice_ratelimited() site (10 per 5 s) that the debugfs refusals above
# may have used up: repeat the refused load until the kernel logs it.
logged() { dmesg_since "$mark" | grep -q 'Lockdown: .*unsigned module loading is restricted'; }
for _ in $(seq 60); do
	logged && break
	"$FT_CLI" load "$FT_KO" > /dev/null 2>&1
	sleep 1
done
check "security: the kernel logged the lockdown refusal" logged
check "security: nothing registered after the repeated refused loads" ft_nothing_left
