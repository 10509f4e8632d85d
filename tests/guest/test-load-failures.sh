#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every registration step of module init fails in turn, in the TEST-ONLY
# build of tests/inject/load-failures.patch (insmod ... fail_at=STEP):
# the load must fail with that step's errno, leave nothing registered (no
# debugfs directory, no kprobe, no livepatch, no module, the kernel's
# fault-around window unchanged) and print no kernel error (the console
# gate checks the whole boot too).  A normal load works afterwards.
. "$(dirname "$0")/../lib.sh"

# STEP:INSMOD'S TEXT FOR THE ERRNO:THE STEP'S OWN ERROR MESSAGE (kmod
# words ENOENT "Unknown symbol in module", EINVAL "Invalid parameters")
steps=(
	"kprobe:Unknown symbol in module:cannot probe workingset_eviction: -2"
	"kretprobe:Unknown symbol in module:cannot probe folio_referenced: -2"
	"debugfs:Cannot allocate memory:cannot create debugfs directory: -12"
	"livepatch:Invalid parameters:cannot enable the livepatch: -22"
	"pre_patch:Cannot allocate memory:cannot enable the livepatch: -12"
)
per_step=9
echo "1..$(( ${#steps[@]} * per_step + 3 ))"

# The injection build for the running kernel (stock: build/inject, the
# debug-kernel lane: build/debug/inject).
ko=""
for k in "$FT_REPO/build/inject/foliotune.ko" "$FT_REPO/build/debug/inject/foliotune.ko"; do
	[ -r "$k" ] && modinfo -F vermagic "$k" | grep -q "^$(uname -r) " && ko=$k
done
check "load-failures: a TEST-ONLY injection build for $(uname -r) (make test-modules)" test -n "$ko"
[ -n "$ko" ] || ko=/nonexistent

kprobes=/sys/kernel/debug/kprobes/list
fa=/sys/kernel/debug/fault_around_bytes
ft_unload
fa0=$(cat "$fa")
for s in "${steps[@]}"; do
	IFS=: read -r step errno msg <<< "$s"
	mark=$(dmesg_mark)
	out=$(insmod "$ko" fail_at="$step" 2>&1)
	rc=$?
	kmsg=$(dmesg_since "$mark")
	check "load-failures: $step: insmod fails" test "$rc" -ne 0
	check "load-failures: $step: insmod says '$errno'" grep -qF "$errno" <<< "$out"
	check "load-failures: $step: the failure was injected there" \
		grep -q "TEST-ONLY: injected failure at $step\$" <<< "$kmsg"
	check "load-failures: $step: the step reported it ($msg)" grep -qF "foliotune: $msg" <<< "$kmsg"
	check "load-failures: $step: no debugfs directory left" test ! -e "$FT_DEBUGFS"
	check "load-failures: $step: no kprobe left" \
		bash -c "! grep -E 'workingset_eviction|folio_referenced' $kprobes"
	check "load-failures: $step: no livepatch left" ft_livepatch_gone
	check "load-failures: $step: module gone" ft_module_gone
	check_eq "load-failures: $step: kernel fault_around_bytes unchanged" "$fa0" "$(cat "$fa")"
	bad=$(grep -E 'BUG|Oops|WARNING|Call Trace|general protection' <<< "$kmsg")
	[ -n "$bad" ] && not_ok "load-failures: $step: kernel errors" "$(head -3 <<< "$bad" | tr '\n' '|')"
done

# Nothing stale: the same build loads normally without fail_at, and unloads.
check "load-failures: the injection build loads without fail_at" ft_load "$ko"
check "load-failures: ... and unloads" ft_unload
