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
#    livepatch sysfs files of the module, in foliotune's kernel log lines,
#    or in any CLI output (status, get, stat, stat -i, record, compare, JSON
#    and text, errors included), with kptr_restrict=0 so that %pK would show;
#  - lockdown raised to integrity while loaded: knobs are refused (EPERM),
#    vmstat/build stay readable (read-only debugfs files are allowed),
#    `foliotune get/set/status` fail with exit 2 and say "locked down",
#    `foliotune stat` still works, unload still works, load is refused
#    with a lockdown message.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/reliability/lib-rel.sh"
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
check "security: unprivileged user cannot list the debugfs directory" \
	bash -c "! setpriv --reuid=65534 --regid=65534 --clear-groups ls $FT_DEBUGFS >/dev/null 2>&1"
check "security: unprivileged user cannot read vmstat" \
	bash -c "! setpriv --reuid=65534 --regid=65534 --clear-groups cat $FT_DEBUGFS/vmstat >/dev/null 2>&1"

# ---- no kernel addresses ---------------------------------------------------------

kp0=$(cat /proc/sys/kernel/kptr_restrict)
echo 0 > /proc/sys/kernel/kptr_restrict
# Give the counters some values first.
"$FT_RELBIN" mapload "$FT_XFS" 8 3 > /dev/null 2>&1
scan() {	# NAME FILE: no kernel address in FILE
	local hits
	hits=$(grep -aoE "$addr_re" "$2" | head -3 | tr '\n' ' ')
	if [ -z "$hits" ]; then ok "security: no kernel address in $1"
	else not_ok "security: no kernel address in $1" "found: $hits"; fi
}
for f in "$FT_DEBUGFS"/*; do
	cat "$f" > "$w/f" 2>&1
	scan "debugfs ${f##*/}" "$w/f"
done
find "$FT_LIVEPATCH" -type f -readable -exec sh -c 'for f; do echo "$f: $(cat "$f" 2>&1)"; done' _ {} + > "$w/lp" 2>&1
scan "/sys/kernel/livepatch/foliotune/*" "$w/lp"
i=0
while read -r label cmd; do
	i=$((i + 1))
	# shellcheck disable=SC2086  # the command line is split on purpose
	(cd "$w" && $cmd) > "$w/cli$i" 2>&1
	scan "CLI: $label" "$w/cli$i"
done <<EOF
status              $FT_CLI status
status-json         $FT_CLI -j status
get                 $FT_CLI get unmap_batch
get-json            $FT_CLI -j get unmap_batch
stat                $FT_CLI stat
stat-json           $FT_CLI -j stat
stat-interval       $FT_CLI stat -i 0.5 -c 2
stat-interval-json  $FT_CLI -j stat -i 0.5 -c 2
record              $FT_CLI record -o $w/r1 -l one -s unmap_batch=0 -- $FT_RELBIN mapload $FT_XFS 4 2
record-json         $FT_CLI -j record -o $w/r2 -l two -- true
compare             $FT_CLI compare $w/r1 $w/r2
compare-json        $FT_CLI -j compare $w/r1 $w/r2
error-unknown-knob  $FT_CLI get no_such_knob
error-json          $FT_CLI -j set unmap_batch 7
help                $FT_CLI --help
EOF
cat "$w/r1" "$w/r2" > "$w/records" 2>/dev/null
scan "record files" "$w/records"
ft_unload
dmesg_since "$mark" | grep -E 'foliotune|livepatch' > "$w/dmesg"
scan "foliotune's kernel log lines ($(wc -l < "$w/dmesg") lines)" "$w/dmesg"
"$FT_CLI" status > "$w/st-unloaded" 2>&1; "$FT_CLI" -j get unmap_batch >> "$w/st-unloaded" 2>&1
scan "CLI status/get without the module" "$w/st-unloaded"
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
check "security: under lockdown a knob cannot be read" bash -c "! cat $FT_DEBUGFS/unmap_batch 2>/dev/null"
r=$("$FT_REPO/tests/tools/ft_write" "$FT_DEBUGFS/unmap_batch" 1)
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
"$FT_CLI" stat > "$w/out" 2>&1; rc=$?
check_eq "security: under lockdown 'foliotune stat' (vmstat is read-only) still works" 0 "$rc"
"$FT_CLI" unload > "$w/out" 2>&1; rc=$?
check_eq "security: under lockdown 'foliotune unload' works" 0 "$rc"
check "security: nothing left after the unload under lockdown" ft_nothing_left
# security/lockdown/lockdown.c prints every refusal from one
# pr_notice_ratelimited() site (10 per 5 s): the debugfs refusals above
# used that up, so wait for a new window before the load's refusal.
sleep 6
expect_lockdown "security: under lockdown 'foliotune load' is refused and says locked down" "$FT_CLI" load "$FT_KO"
check "security: nothing registered after the refused load" ft_nothing_left
n=$(dmesg_since "$mark" | grep -c 'Lockdown: .*unsigned module loading is restricted')
check "security: the kernel logged the lockdown refusal" test "$n" -ge 1
