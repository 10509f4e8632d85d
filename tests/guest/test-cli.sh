#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The foliotune CLI against the real module: every command and its error
# paths (exit 1 = usage, 2 = runtime), load/unload idempotence, unload while
# a workload reclaims through the replacement, record + compare round trip.
. "$(dirname "$0")/../lib.sh"
plan 56
ft=$FT_REPO/userspace/foliotune
w=$(mktemp -d)
cg=/sys/fs/cgroup/ft-cli
trap 'rm -rf "$w"; [ -d "$cg" ] && rmdir "$cg"' EXIT

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
# status names each walk's arm (docs/batching.md): 1 foliotune's batching,
# 2 one PTE at a time, 0 the kernel's own code (per PTE on 6.12)
echo 2 > "$FT_DEBUGFS/referenced_batch"
"$ft" status > "$w/out" 2>&1
check "cli: status names unmap_batch=1 foliotune's batching" \
	grep -qE "^  unmap_batch +1  0\|1\|2 \(foliotune's batching\)$" "$w/out"
check "cli: status names referenced_batch=2 one PTE at a time" \
	grep -qE "^  referenced_batch +2  0\|1\|2 \(one PTE at a time\)$" "$w/out"
echo 0 > "$FT_DEBUGFS/referenced_batch"
"$ft" status > "$w/out" 2>&1
if ft_linux7; then want="the kernel's own code"; else want="the kernel's own code: one PTE at a time on 6.12"; fi
check "cli: status names referenced_batch=0 $want" \
	grep -qF "0|1|2 ($want)" "$w/out"
echo 1 > "$FT_DEBUGFS/referenced_batch"
expect_rc "cli: unknown knob is a usage error" 1 "$ft" set no_such_knob 1
expect_rc "cli: bad value is a usage error" 1 "$ft" set unmap_batch 2x
check_eq "cli: knob unchanged after bad input" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
expect_rc "cli: out-of-range arm is a usage error" 1 "$ft" set unmap_batch 7
check_eq "cli: knob unchanged after out-of-range value" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
expect_rc "cli: unknown command is a usage error" 1 "$ft" frobnicate
expect_rc "cli: counters" 0 "$ft" counters
grep -q '^unmap_calls [0-9]' "$w/out" && ok "cli: counters prints counters" || not_ok "cli: counters prints counters" "$(head -3 "$w/out")"
expect_rc "cli: counters -i 1 -c 2" 0 "$ft" counters -i 1 -c 2
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

# Unload while workloads keep reclaiming through try_to_unmap_one():
# ft_rel mapload reads, rewrites and MADV_PAGEOUTs its mapped xfs file
# (and anon pages) in a loop, in a memcg whose memory.high is below what
# it maps, and verifies every page.  memory.high, not memory.max: with
# memory.max a charge once ran out of reclaim retries beside 10 MB of
# clean, unmapped file THPs, and the OOM kill failed the run.  A sampler
# keeps the last unmap_calls it could read; the module's files go at
# rmmod, after the transition, so a last value above the one read as the
# unload started proves the replacement ran during it.
rel=$FT_REPO/tests/progs/ft_rel
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$cg" && echo 22M > "$cg/memory.high"
sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" mapload "$3" 16 120' sh "$cg" "$rel" "$FT_XFS" \
	> "$w/mapload" 2>&1 &
load_pid=$!
# mapload's folios are large (few unmap calls a pass) and its pageouts
# come between long verify passes; a pager of a 4 MB file keeps calls
# coming (two of them, without pauses, starved the unpatching transition
# for 116 s in the box).
dd if=/dev/urandom of="$FT_XFS/ft-cli-pager" bs=1M count=4 status=none
python3 "$(dirname "$0")/pte-bits/pte_bits.py" pager "$FT_XFS/ft-cli-pager" 120 > /dev/null 2>&1 &
pager=$!
c_start=$(ft_counter unmap_calls)
calls_moved() { [ "$(ft_counter unmap_calls)" -gt "$((c_start + 16))" ]; }
loop_until 60 calls_moved || echo "# the workload did not reach try_to_unmap_one in 60 s"
# A quick transition can fall between two of the workloads' calls (90 ->
# 90 once): up to three unloads, reloading between them, until one ran
# while a call did.
unload_rc=0 unloads=0
for attempt in 1 2 3; do
	rm -f "$w/calls"
	( while v=$(awk '$1 == "unmap_calls" { print $2 }' "$FT_DEBUGFS/vmstat" 2>/dev/null) && [ -n "$v" ]; do
		echo "$v" > "$w/calls.new" && mv "$w/calls.new" "$w/calls"; sleep 0.02; done ) &
	sampler=$!
	loop_until 10 test -s "$w/calls"
	c0=$(ft_counter unmap_calls)
	"$ft" unload > "$w/unload.out" 2>&1 || unload_rc=$?
	unloads=$attempt
	wait $sampler 2>/dev/null
	c1=$(cat "$w/calls")
	[ "${c1:-0}" -gt "${c0:-0}" ] && break
	[ $attempt = 3 ] || "$ft" load "$FT_KO" > /dev/null 2>&1 || break
done
check_eq "cli: unload while a workload runs ($unloads unload(s))" 0 "$unload_rc"
kill "$pager" 2>/dev/null; wait "$pager" 2>/dev/null
rm -f "$FT_XFS/ft-cli-pager"
kill -TERM $load_pid 2>/dev/null; wait $load_pid; rc=$?
sed 's/^/# mapload: /' "$w/mapload" | tail -3
check "cli: the workload ran try_to_unmap_one during the unload (unmap_calls $c0 -> $c1 in the last of $unloads)" \
	test "${c1:-0}" -gt "${c0:-0}"
check_eq "cli: the workload's data intact across the unload" 0 "$rc"
check "cli: module gone after unload" ft_module_gone
expect_rc "cli: unload again is fine" 0 "$ft" unload

# What a script meets first, on the real box.
expect_rc "cli: -V prints the version and exits 0" 0 "$ft" -V
check "cli: -V is one line, the version" grep -qx 'foliotune [0-9][0-9.]*' "$w/out"
# The box has no /dev/stdin: analyze reads standard input from fd 0.
printf 'x %s %s\n' 10 5 11 5 12 6 10 5 11 6 12 5 | "$ft" analyze -t > "$w/out" 2>&1
check "cli: analyze reads a pipe in the box (no /dev/stdin here: $(test -e /dev/stdin && echo present || echo absent))" \
	grep -q '^x	pairs	6	.*	B faster	' "$w/out"
: | "$ft" analyze > "$w/out" 2>&1
check_eq "cli: analyze of an empty pipe is an error" 1 "$?"
# record passes its command's status on, the record kept
"$ft" record -o "$w/r3" -- sh -c 'exit 3' > "$w/out" 2>&1
check_eq "cli: record exits with its command's status" 3 "$?"
check "cli: ... and keeps the record" grep -qx 'exit_code 3' "$w/r3"
# A module file built for another build, on this supported kernel: the
# vermagic of another verified release of the same length (the debug
# kernel's has none: a made-up one), patched into a copy; load says so and
# how to build one, and loads nothing.
rel=$(uname -r)
other=$(cd "$FT_REPO/module/verified" && ls | sed 's/\.h$//' | grep -vx -e "$rel" -e '.*-ftdebug' |
	awk -v n=${#rel} 'length($0) == n' | head -1)
[ -n "$other" ] || other=0${rel#?}
perl -0777 -pe "s/vermagic=\\Q$rel\\E /vermagic=$other /" "$FT_KO" > "$w/other.ko"
check "cli: a copy of the module with another build's vermagic ($other, not $rel)" \
	test "$other" != "$rel" -a "${#other}" = "${#rel}" -a -n "$(grep -al "vermagic=$other " "$w/other.ko")"
expect_rc "cli: load of a module file for another build: a runtime error" 2 "$ft" load "$w/other.ko"
check "cli: ... which says so and how to build one for this kernel" \
	grep -q "^foliotune: cannot load $w/other.ko: it was built for kernel $other, not this one ($rel, which foliotune supports); build and install it for this kernel: sudo make install" "$w/out"
check "cli: ... and loads nothing" ft_module_gone
