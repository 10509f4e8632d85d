#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The foliotune CLI against the real module: every command and its error
# paths (exit 1 = usage, 2 = runtime), load/unload idempotence, unload while
# a workload runs, record + compare round trip.
. "$(dirname "$0")/../lib.sh"
plan 41
ft=$FT_REPO/userspace/foliotune
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# expect_rc NAME RC CMD...: the command exits with RC.
expect_rc() {
	local name=$1 want=$2; shift 2
	"$@" > "$w/out" 2>&1
	local rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"; else not_ok "$name" "exit $rc, want $want: $(head -c 300 "$w/out" | tr '\n' '|')"; fi
}

ft_unload
expect_rc "cli: status without the module" 0 "$ft" status
grep -q 'not loaded' "$w/out" && ok "cli: status says the module is not loaded" ||
	not_ok "cli: status says the module is not loaded" "$(cat "$w/out")"
expect_rc "cli: get without the module is a runtime error" 2 "$ft" get unmap_batch
expect_rc "cli: unload when not loaded is fine" 0 "$ft" unload
expect_rc "cli: load" 0 "$ft" load "$FT_KO"
check "cli: module and livepatch present" test -d "$FT_LIVEPATCH"
expect_rc "cli: load when loaded is fine" 0 "$ft" load "$FT_KO"
expect_rc "cli: status with the module" 0 "$ft" status
grep -q 'try_to_unmap_one' "$w/out" && ok "cli: status lists the patched function" ||
	not_ok "cli: status lists the patched function" "$(cat "$w/out")"
grep -qi 'supported: *yes' "$w/out" && ok "cli: status says the kernel is supported" ||
	not_ok "cli: status says the kernel is supported" "$(grep -i supported "$w/out")"
expect_rc "cli: status --json" 0 "$ft" -j status
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$w/out" &&
	ok "cli: status --json is JSON" || not_ok "cli: status --json is JSON" "$(head -c 200 "$w/out")"

expect_rc "cli: set unmap_batch off" 0 "$ft" set unmap_batch off
check_eq "cli: knob file reads 0" 0 "$(cat "$FT_DEBUGFS/unmap_batch")"
expect_rc "cli: get unmap_batch" 0 "$ft" get unmap_batch
grep -q '^0' "$w/out" && ok "cli: get prints 0" || not_ok "cli: get prints 0" "$(cat "$w/out")"
expect_rc "cli: set unmap_batch 1" 0 "$ft" set unmap_batch 1
expect_rc "cli: unknown knob is a usage error" 1 "$ft" set no_such_knob 1
expect_rc "cli: bad value is a usage error" 1 "$ft" set unmap_batch 2x
check_eq "cli: knob unchanged after bad input" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
expect_rc "cli: out-of-range bool is a usage error" 1 "$ft" set unmap_batch 7
check_eq "cli: knob unchanged after out-of-range value" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
expect_rc "cli: unknown command is a usage error" 1 "$ft" frobnicate
expect_rc "cli: stat" 0 "$ft" stat
grep -q '^unmap_calls [0-9]' "$w/out" && ok "cli: stat prints counters" || not_ok "cli: stat prints counters" "$(head -3 "$w/out")"
expect_rc "cli: stat -i 1 -c 2" 0 "$ft" stat -i 1 -c 2
# Runtime errors for a reason the message names (not any failure).
check_nobody cli
expect_rc "cli: not root is a runtime error" 2 as_nobody "$ft" set unmap_batch 0
check "cli: not root: the message says root is needed" grep -q 'requires root' "$w/out"
expect_rc "cli: debugfs not mounted is a runtime error" 2 \
	unshare -m sh -c "umount /sys/kernel/debug && $ft get unmap_batch"
check "cli: debugfs not mounted: the message says so" grep -q 'debugfs is not mounted' "$w/out"

# record + compare round trip around a small file workload.
dd if=/dev/urandom of="$w/data" bs=1M count=8 status=none
expect_rc "cli: record with unmap_batch=0" 0 "$ft" record -o "$w/r0" -l stock -s unmap_batch=0 -- \
	sh -c "cat $w/data > /dev/null"
check_eq "cli: record restored the knob" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
check_eq "cli: record file is 0600" 600 "$(stat -c %a "$w/r0")"
expect_rc "cli: record with unmap_batch=1" 0 "$ft" record -o "$w/r1" -l batched -s unmap_batch=1 -- true
expect_rc "cli: compare" 0 "$ft" compare "$w/r0" "$w/r1"
grep -q 'stock' "$w/out" && grep -q 'batched' "$w/out" && ok "cli: compare shows both labels" ||
	not_ok "cli: compare shows both labels" "$(head -5 "$w/out")"
expect_rc "cli: compare of a missing file is a runtime error" 2 "$ft" compare "$w/r0" "$w/nope"

# Unload while a workload keeps reclaiming.
( end=$((SECONDS + 20)); while [ $SECONDS -lt $end ]; do
	cat "$w/data" > /dev/null; echo 1 > /proc/sys/vm/drop_caches; : > "$w/running"; done ) &
load_pid=$!
loop_until 60 test -e "$w/running" || echo "# the workload did not start in 60 s"
expect_rc "cli: unload while a workload runs" 0 "$ft" unload
kill $load_pid 2>/dev/null; wait $load_pid 2>/dev/null
check "cli: module gone after unload" ft_module_gone
expect_rc "cli: unload again is fine" 0 "$ft" unload
