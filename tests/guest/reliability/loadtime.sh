#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability: loading and unloading under memory pressure, phase by phase,
# against the kernel's own floor.  The load of a held-out stress run that
# took 188 s to load foliotune: stress-ng's vm, mmap, mremap, pageswap and
# fork stressors in a 256 MiB memcg (memory.high: reclaim and throttling,
# no OOM kills) with zram swap, ft_rel mapload (verified) reclaiming
# beside them.  Under it, in turns, foliotune and the kernel's own
# livepatch selftest module (test_klp_livepatch.ko, `make klp-floor`: one
# patched function, cmdline_proc_show(), which nobody runs) are loaded and
# unloaded.  Kprobe events on the module loader and the livepatch core,
# and trace markers where the test starts and sees the end, time each
# phase:
#   exec      the loader's start up to finit_module() (under load with one
#             vCPU: mostly waiting for the CPU)
#   read      finit_module() up to load_module() (the .ko read)
#   module    load_module() up to the module's init (copy, relocations)
#   init      the module's init up to klp_enable_patch() (foliotune: its
#             kprobes and debugfs files)
#   klp       klp_enable_patch() up to the first klp_patch_object()
#             (the patch's klp relocations, sysfs)
#   ftrace    klp_patch_object(): the ftrace handlers registered
#   resched+  sched_dynamic_klp_enable(): every cond_resched() call site
#             re-pointed at klp_cond_resched(), one text_poke_bp() each
#   tasks     until every task switched (klp_try_complete_transition(),
#             retried every second; fake signals after 15 s)
#   resched-  sched_dynamic_klp_disable(): the preemption model's static
#             calls written back (under preempt=voluntary, Debian's: every
#             preempt_schedule() site and its two siblings set to "full"
#             and back, __sched_dynamic_update())
#   complete  klp_complete_transition()
#   after     up to the loader seeing the transition end (the rest of the
#             init; for an unload: the module's removal)
# and the text_poke_bp() calls of the two resched phases (an unload has
# exec, resched+, tasks, resched-, complete, after).  Per load: bounded
# (FT_LT_BOUND, default 600 s), the phases account for the time (premise
# of the attribution), the memcg reclaiming during it (reclaim scans,
# steals or refaults in its memory.stat), nothing left after the unload.
# Across the loads: the part of a load that is the patch's own (module,
# init, klp, ftrace, tasks, complete) no larger for foliotune than for the
# floor beyond its spread, the mapload data intact, a clean kernel log.
# The numbers: docs/testing.md, "Loading under load".
#
# Its own boot (two vCPUs, as the held-out run; with one vCPU a
# text_poke_bp() syncs no other CPU).  FT_REL_MODE=long: 5 rounds instead
# of 2.  FT_LT_FLOOR: the floor module (default build/klp-floor/).
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
floor=${FT_LT_FLOOR:-$FT_REPO/build/klp-floor/test_klp_livepatch.ko}
bound=${FT_LT_BOUND:-600}
if [ "$FT_REL_MODE" = long ]; then rounds=5; else rounds=2; fi
T=/sys/kernel/tracing
cg=ft-rel-loadtime
w=$(mktemp -d)
spids=()
cleanup() {
	local p
	for p in "${spids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	echo 0 > "$T/events/ftlt/enable" 2>/dev/null
	echo > "$T/kprobe_events" 2>/dev/null
	[ -d /sys/kernel/livepatch/test_klp_livepatch ] &&
		echo 0 > /sys/kernel/livepatch/test_klp_livepatch/enabled
	loop_until 600 test ! -d /sys/kernel/livepatch/test_klp_livepatch
	rmmod test_klp_livepatch 2>/dev/null
	cg_remove "$cg"
	ft_zram_swapoff
	rm -rf "$w" "$FT_XFS/ft-loadtime"
}
trap cleanup EXIT
# 4 setup lines, 4 per load (2 modules a round), 4 at the end
plan $((4 + rounds * 2 * 4 + 4))

check "loadtime: zram swap" ft_zram_swap 1G
check "loadtime: the kernel's livepatch selftest module for $(uname -r) (make klp-floor)" \
	sh -c "modinfo -F vermagic '$floor' | grep -q '^$(uname -r) '"
# The probes: entry (_in) and return (_out) of each function.
mountpoint -q "$T" || mount -t tracefs none "$T"
: > "$T/kprobe_events"
probes=0
for f in load_module do_init_module klp_enable_patch klp_patch_object sched_dynamic_klp_enable \
	klp_try_complete_transition sched_dynamic_klp_disable klp_complete_transition; do
	echo "p:ftlt/${f}_in $f" >> "$T/kprobe_events" && echo "r:ftlt/${f}_out $f" >> "$T/kprobe_events" &&
		probes=$((probes + 1))
done
echo "p:ftlt/finit_module_in __x64_sys_finit_module" >> "$T/kprobe_events" && probes=$((probes + 1))
echo "p:ftlt/text_poke_bp_in text_poke_bp" >> "$T/kprobe_events" && probes=$((probes + 1))
echo 16384 > "$T/buffer_size_kb"
check_eq "loadtime: kprobe events on the loader and the livepatch core" "10 1" \
	"$probes $(echo 1 > "$T/events/ftlt/enable" && cat "$T/tracing_on")"

# ---- the load
ft_unload
mkdir -p "$FT_XFS/ft-loadtime"
cg_make "$cg" max
echo 256M > "$FT_CG/$cg/memory.high"
cg_spawn "$cg" "$w/stress.out" stress-ng --temp-path "$FT_XFS/ft-loadtime" --timeout 7200s \
	--metrics-brief --oom-avoid --vm 1 --vm-bytes 96M --mmap 1 --mmap-bytes 64M --mmap-file \
	--mremap 1 --mremap-bytes 32M --pageswap 1 --fork 1 --fork-vm
spids+=("$SPAWN_PID")
stress=$SPAWN_PID
cg_spawn "$cg" "$w/mapload.out" "$FT_RELBIN" mapload "$FT_XFS/ft-loadtime" 16 7200
spids+=("$SPAWN_PID")
mapload=$SPAWN_PID
sleep 30
check "loadtime: stress-ng and mapload running, the memcg reclaiming (memory.high events $(awk '$1 == "high" { print $2 }' "$FT_CG/$cg/memory.events"))" \
	sh -c "kill -0 $stress && kill -0 $mapload && [ \$(awk '\$1 == \"high\" { print \$2 }' $FT_CG/$cg/memory.events) -gt 0 ]"

# phases: the trace of one load or unload, between the markers ftlt-start
# and ftlt-end, as "name seconds" lines in the order above, then
# "pokes_enable N", "pokes_disable N" and "span S" (start to end: the
# wall time, without the shell's own forks around it).  A phase whose
# events are missing reads 0.
phases() {
	grep -v '^#' "$T/trace" |
		sed -nE -e 's/^.* ([0-9]+\.[0-9]+): tracing_mark_write: ftlt-([a-z]+).*/\1 mark_\2/p' \
			-e 's/^.* ([0-9]+\.[0-9]+): ([a-z_]+): .*/\1 \2/p' | awk '
		function open(n) { if (!(n in t0)) t0[n] = $1; cur[n] = $1 }
		function shut(n) { if (n in cur) { d[n] += $1 - cur[n]; t1[n] = $1; delete cur[n] } }
		# b - a, for two points that were both seen
		function gap(a, b) { return (a in at && b in at) ? at[b] - at[a] : 0 }
		$2 ~ /^mark_/ { at[$2] = $1; next }
		$2 ~ /_in$/ { n = $2; sub(/_in$/, "", n); if (n == "text_poke_bp") { if ("sched_dynamic_klp_enable" in cur) pe++; if ("sched_dynamic_klp_disable" in cur) pd++ } else open(n); next }
		$2 ~ /_out$/ { n = $2; sub(/_out$/, "", n); shut(n) }
		END {
			for (n in t0) at[n "_in"] = t0[n]
			for (n in t1) at[n "_out"] = t1[n]
			# the first event after the start: finit_module (a load) or
			# the transition (an unload)
			first = ("finit_module_in" in at) ? "finit_module_in" : "sched_dynamic_klp_enable_in"
			printf "exec %.3f\n", gap("mark_start", first)
			printf "read %.3f\n", gap("finit_module_in", "load_module_in")
			printf "module %.3f\n", gap("load_module_in", "do_init_module_in")
			printf "init %.3f\n", gap("do_init_module_in", "klp_enable_patch_in")
			printf "klp %.3f\n", gap("klp_enable_patch_in", "klp_patch_object_in")
			printf "ftrace %.3f\n", d["klp_patch_object"]
			printf "resched+ %.3f\n", d["sched_dynamic_klp_enable"]
			printf "tasks %.3f\n", gap("sched_dynamic_klp_enable_out", "sched_dynamic_klp_disable_in")
			printf "resched- %.3f\n", d["sched_dynamic_klp_disable"]
			printf "complete %.3f\n", d["klp_complete_transition"]
			printf "after %.3f\n", gap("klp_complete_transition_out", "mark_end")
			printf "pokes_enable %d\npokes_disable %d\n", pe, pd
			printf "span %.3f\n", gap("mark_start", "mark_end")
		}'
}
ph() { awk -v n="$1" '$1 == n { print $2 }' "$2"; }
# cg_reclaim: pages the load's memcg scanned, stole or refaulted so far
cg_reclaim() {
	awk '$1 ~ /^(pgscan|pgsteal|workingset_refault_anon|workingset_refault_file)$/ { s += $2 } END { print s + 0 }' \
		"$FT_CG/$cg/memory.stat"
}
# fmt FILE: the phases on one line
fmt() { awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 } END { print "" }' "$1"; }
# ms_of SECONDS: milliseconds
ms_of() { awk -v s="$1" 'BEGIN { printf "%d", s * 1000 }'; }

# lt_load NAME KO LP ROUND: load KO under the load, then unload it; one
# result line each for the load, its phases, its pressure and the unload.
lt_load() {
	local name=$1 ko=$2 lp=$3 r=$4 t0 t1 t2 h0 h1 own span mark rc=0
	echo > "$T/trace"
	mark=$(dmesg_mark)
	h0=$(cg_reclaim)
	t0=$(now_ms)
	echo ftlt-start > "$T/trace_marker"
	insmod "$ko" || rc=$?
	t1=$(now_ms)
	while [ "$rc" = 0 ] && [ "$(cat "$lp/transition" 2>/dev/null)" = 1 ]; do
		[ $(( $(now_ms) - t0 )) -lt $((bound * 1000)) ] || { rc=timeout; break; }
		sleep 0.2
	done
	echo ftlt-end > "$T/trace_marker"
	t2=$(now_ms)
	h1=$(cg_reclaim)
	phases > "$w/$name.load.$r"
	echo "# $name load $r: $((t2 - t0)) ms (insmod $((t1 - t0)) ms); $(fmt "$w/$name.load.$r")"
	echo "# $name load $r: $(dmesg_since "$mark" | grep -c 'signaling remaining tasks') fake-signal rounds"
	check "loadtime: $name round $r: loaded under load in $((t2 - t0)) ms (bound $bound s)" \
		test "$rc" = 0 -a $((t2 - t0)) -le $((bound * 1000))
	# the phases must explain at least 90% of the span
	own=$(awk '$1 !~ /^(pokes|span)/ { s += $2 } END { printf "%d", s * 1000 }' "$w/$name.load.$r")
	span=$(awk '$1 == "span" { printf "%d", $2 * 1000 }' "$w/$name.load.$r")
	check "loadtime: $name round $r: the phases account for the load ($own of ${span:-0} ms; premise)" \
		test "${span:-0}" -gt 0 -a "$own" -ge $(( ${span:-0} * 9 / 10 ))
	check "loadtime: $name round $r: the memcg reclaimed during the load (scanned, stolen or refaulted +$((h1 - h0)) pages)" \
		test $((h1 - h0)) -gt 0
	echo $((t2 - t0)) >> "$w/$name.total"
	awk '$1 ~ /^(module|init|klp|ftrace|tasks|complete)$/ { s += $2 } END { printf "%d\n", s * 1000 }' \
		"$w/$name.load.$r" >> "$w/$name.own"
	[ "$name" = foliotune ] && ft_counters_snapshot "$w/c0"
	sleep 5
	[ "$name" = foliotune ] && ft_counter_delta "$w/c0" unmap_calls >> "$w/unmap_calls"
	echo > "$T/trace"
	t0=$(now_ms)
	rc=0
	echo ftlt-start > "$T/trace_marker"
	echo 0 > "$lp/enabled" || rc=disable
	while [ "$rc" = 0 ] && [ -d "$lp" ]; do
		[ $(( $(now_ms) - t0 )) -lt $((bound * 1000)) ] || { rc=timeout; break; }
		sleep 0.2
	done
	t1=$(now_ms)
	[ "$rc" = 0 ] && { rmmod "$name" || rc=$?; }
	echo ftlt-end > "$T/trace_marker"
	t2=$(now_ms)
	phases > "$w/$name.unload.$r"
	echo "# $name unload $r: $((t2 - t0)) ms (rmmod $((t2 - t1)) ms); $(fmt "$w/$name.unload.$r")"
	echo $((t2 - t0)) >> "$w/$name.unload"
	check "loadtime: $name round $r: unloaded in $((t2 - t0)) ms, nothing left" \
		test "$rc" = 0 -a ! -d "$lp" -a ! -d "/sys/module/$name"
}

mark=$(dmesg_mark)
for r in $(seq "$rounds"); do
	lt_load foliotune "$FT_KO" "$FT_LIVEPATCH" "$r"
	lt_load test_klp_livepatch "$floor" /sys/kernel/livepatch/test_klp_livepatch "$r"
done

# ---- across the loads
for m in foliotune test_klp_livepatch; do
	echo "# $m: load ms $(stats_ms < "$w/$m.total"); the patch's own part ms $(stats_ms < "$w/$m.own"); unload ms $(stats_ms < "$w/$m.unload")"
	for what in load unload; do
		for p in span exec read module init klp ftrace resched+ tasks resched- complete after pokes_enable pokes_disable; do
			[ "$what" = unload ] && case $p in read|module|init|klp|ftrace) continue ;; esac
			for r in $(seq "$rounds"); do ph "$p" "$w/$m.$what.$r"; done |
				awk -v h="$m $what $p" '{ v[NR] = $1 } END { printf "#   %s:", h; for (i = 1; i <= NR; i++) printf " %s", v[i]; print "" }'
		done
	done
done
# foliotune's own part against the floor's: no more than the floor's
# largest plus a second per round of spread (its kprobes, three functions
# to patch instead of one)
fmax=$(sort -n "$w/test_klp_livepatch.own" | tail -1)
fmed=$(sort -n "$w/foliotune.own" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
check "loadtime: foliotune's own part of a load (median $fmed ms) is the kernel's floor's (max $fmax ms) within its spread" \
	test "${fmed:-999999}" -le $(( ${fmax:-0} + 1000 * rounds ))
check "loadtime: foliotune's replacement ran while loaded under the load (unmap_calls $(paste -sd' ' "$w/unmap_calls"))" \
	test "$(awk '$1 > 0' "$w/unmap_calls" | wc -l)" -eq "$rounds"
kill "$mapload" 2>/dev/null
wait "$mapload"
check_eq "loadtime: the mapload workload's data intact" 0 "$?"
tail -3 "$w/mapload.out" | sed 's/^/# mapload: /'
kill "$stress" 2>/dev/null
wait "$stress"
grep -E 'metrc|successful|failed' "$w/stress.out" | head -12 | sed 's/^/# stress-ng: /'
spids=()
check_kernel_clean "loadtime: kernel log clean" "$mark"
