#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-load-pressure.sh - `foliotune load` and `unload` while tasks sit in
# memcg reclaim (stress-ng's anon and file-backed mmap stressors in a
# 256 MiB memcg with zram swap): both finish within a bound, the load says
# what it waits for while it waits, and the time is split into module init
# (the livepatch's registration: ftrace text patching, the probes) and the
# transition (every task switched, each at a point where no replaced
# function is on its stack).
#
# The bound: the transition retries once a second, and after 15 s
# (kernel/livepatch/transition.c, SIGNALS_TIMEOUT) wakes the tasks that
# still block it with a fake signal; a task in direct reclaim switches when
# it returns to user space.  Under TCG (about 6x slower than the host) a
# reclaim round of these stressors takes seconds, and loads under this
# pressure were seen to take up to 187 s in an earlier session on a busier
# machine: 300 s is the timeout the CLI is given, and the test fails past it.
. "$(dirname "$0")/../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
bound=${FT_LOAD_PRESSURE_BOUND:-300}
cg=ft-load-pressure
w=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	cg_remove "$cg"
	rm -rf "$w" "$FT_XFS/ft-load-pressure"
}
trap cleanup EXIT
plan 10

ft_unload
mark=$(dmesg_mark)
if ! command -v stress-ng > /dev/null; then
	not_ok "load-pressure: stress-ng installed" "apt-get install stress-ng (scripts/deps.sh)"
	exit 0
fi
check "load-pressure: zram swap" ft_zram_swap 1G
mkdir -p "$FT_XFS/ft-load-pressure"
cg_make "$cg" 256M
pgsteal() { awk '$1 == "pgsteal" { print $2 }' "$FT_CG/$cg/memory.stat"; }
# About 400 MB of anon and file-backed memory in 256 MB: always reclaiming.
cg_spawn "$cg" "$w/stress.out" stress-ng --temp-path "$FT_XFS/ft-load-pressure" \
	--timeout $((2 * bound + 120))s --oom-avoid \
	--vm 2 --vm-bytes 120M --vm-keep --mmap 1 --mmap-bytes 160M --mmap-file
pids+=("$SPAWN_PID")
# the premise: reclaim is running in the memcg before the load starts
reclaiming() { [ "$(pgsteal)" -gt 20000 ]; }
loop_until 120 reclaiming
s0=$(pgsteal)
check "load-pressure: the memcg reclaims before the load (pgsteal $s0)" test "${s0:-0}" -gt 20000

t0=$(now_ms)
# FT_KO: the module built for the booted kernel (the debug lane's is not
# the tree's module/foliotune.ko, which load finds without a path)
"$FT_CLI" load -t "$bound" "$FT_KO" > "$w/load.out" 2> "$w/load.err"
rc=$?
t1=$(now_ms)
sed 's/^/# load: /' "$w/load.err" "$w/load.out"
init=$(sed -n 's/.*module initialised in \([0-9.]*\) s.*/\1/p' "$w/load.err")
check_eq "load-pressure: foliotune load under reclaim succeeds within $bound s (took $(( (t1 - t0) / 1000 )) s, module init ${init:-?} s)" 0 "$rc"
check "load-pressure: load says how long module init took" test -n "$init"
# every 5 s of module init or transition: one line that says where it is
waited=$(( (t1 - t0) / 1000 ))
said=$(grep -cE 'module init: [0-9]+ s so far, the kernel is in|livepatch transition: [0-9]+ task\(s\) not yet patched after' "$w/load.err")
# one line a 6 s: the reporter sleeps 5 s, and on a box sharing its core
# the lines drift (5.3 s apart, 51 lines in a 272 s load, on the debug
# kernel beside three other boxes); a reporter that stops saying is short
# by far more
want=$(( waited / 6 - 1 )); [ "$want" -lt 0 ] && want=0
check "load-pressure: a load of $waited s said every 5 s where it was ($said lines, $want or more)" \
	test "$said" -ge "$want"
s1=$(pgsteal)
check "load-pressure: the memcg reclaimed while it loaded (pgsteal +$(( s1 - s0 )))" test "$s1" -gt "$s0"
sleep 5
check "load-pressure: the patched try_to_unmap_one runs under the pressure (unmap_calls $(ft_counter unmap_calls))" \
	test "$(ft_counter unmap_calls)" -gt 0

t0=$(now_ms)
"$FT_CLI" unload -t "$bound" > "$w/unload.out" 2> "$w/unload.err"
rc=$?
t1=$(now_ms)
sed 's/^/# unload: /' "$w/unload.err" "$w/unload.out"
check_eq "load-pressure: foliotune unload under reclaim succeeds within $bound s (took $(( (t1 - t0) / 1000 )) s)" 0 "$rc"
check "load-pressure: stress-ng still running (the pressure lasted)" kill -0 "${pids[0]}"
check_kernel_clean "load-pressure: no kernel errors" "$mark"
