#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability: a kernel booted with lockdown=integrity (tests/run.sh:
# guest_suite reliability-lockdown -a lockdown=integrity --
# tests/guest/reliability/lockdown.sh).  foliotune.ko is unsigned, so
# the kernel must refuse it (EPERM, one "Lockdown:" line), nothing may be
# registered, and the CLI must say plainly what is unavailable: load, get,
# set and status exit 2 with a lockdown message; stat exits 2 too (no module).
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
plan 17
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
lockdown=/sys/kernel/security/lockdown

mode=$(grep -o '\[[a-z]*\]' "$lockdown" 2>/dev/null)
if [ "$mode" != "[integrity]" ] && [ "$mode" != "[confidentiality]" ]; then
	not_ok "lockdown: kernel booted locked down" "$lockdown says '${mode:-nothing}': boot with -a lockdown=integrity"
	exit 0
fi
ok "lockdown: kernel booted with lockdown $mode"

mark=$(dmesg_mark)
err=$(insmod "$FT_KO" 2>&1); rc=$?
check "lockdown: insmod of the unsigned module fails" test "$rc" != 0
case $err in *"Operation not permitted"*|*"Key was rejected"*|*"Required key not available"*)
	ok "lockdown: insmod error is clear ($err)" ;;
*) not_ok "lockdown: insmod error is clear" "insmod said: $err" ;; esac
lines=$(dmesg_since "$mark" | grep -E 'Lockdown|foliotune')
echo "$lines" | sed 's/^/# dmesg: /'
check_eq "lockdown: exactly one kernel line about the refusal" 1 "$(printf '%s\n' "$lines" | grep -c .)"
case $lines in *"Lockdown:"*"unsigned module loading is restricted"*)
	ok "lockdown: the kernel line names lockdown and unsigned modules" ;;
*) not_ok "lockdown: the kernel line names lockdown and unsigned modules" "$lines" ;; esac
check "lockdown: nothing registered (module, debugfs, livepatch)" ft_nothing_left
check "lockdown: taint unchanged by the refused load" \
	bash -c "[ \$(( \$(cat /proc/sys/kernel/tainted) & (4096 | 8192 | 32768) )) = 0 ]"

expect_lockdown() {	# NAME CMD...: exit 2 and a message that says "locked down"
	local name=$1; shift
	"$@" > "$w/out" 2>&1; local rc=$?
	sed 's/^/#   /' "$w/out" | head -12
	if [ "$rc" = 2 ] && grep -qi 'locked down\|lockdown' "$w/out"; then
		ok "$name (exit 2)"
	else
		not_ok "$name" "exit $rc, want 2 with a lockdown message: $(head -c 300 "$w/out" | tr '\n' '|')"
	fi
}
expect_lockdown "lockdown: 'foliotune load' is refused and says locked down" "$FT_CLI" load "$FT_KO"
expect_lockdown "lockdown: 'foliotune -j load' is refused and says locked down" "$FT_CLI" -j load "$FT_KO"
check "lockdown: nothing registered after the CLI load" ft_nothing_left
# status: what it says and how it exits are two separate results.
"$FT_CLI" status > "$w/out" 2>&1; rc=$?
sed 's/^/#   /' "$w/out"
if grep -qi 'locked down\|lockdown' "$w/out"; then ok "lockdown: status says the kernel is locked down"
else not_ok "lockdown: status says the kernel is locked down" "no lockdown in its output"; fi
check_eq "lockdown: status under lockdown exits 2 (runtime error: knobs unavailable)" 2 "$rc"
expect_lockdown "lockdown: 'foliotune get' exits 2 and says locked down" "$FT_CLI" get unmap_batch
expect_lockdown "lockdown: 'foliotune set' exits 2 and says locked down" "$FT_CLI" set unmap_batch 1
"$FT_CLI" counters > "$w/out" 2>&1; rc=$?
check_eq "lockdown: 'foliotune counters' is a runtime error (exit 2: no module)" 2 "$rc"
"$FT_CLI" unload > "$w/out" 2>&1; rc=$?
check_eq "lockdown: 'foliotune unload' with nothing loaded is fine" 0 "$rc"
check_kernel_clean "lockdown: kernel log clean" "$mark"
