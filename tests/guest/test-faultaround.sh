#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fault-around tuner (module/faultaround.c, fa_tuner.c): knob rules, restore of the
# kernel's window, PTE state after one read fault per fault_around_mkold
# mode (smaps Referenced vs Rss), the counters, data integrity while the
# knobs flip, the kprobe counters under classic LRU reclaim in a memcg, and
# the auto mode converging on synthetic workloads.
. "$(dirname "$0")/../lib.sh"
# FT_FA_NO_AUTO=1 stops before the auto mode (tests/guest/smoke-suite.sh, other
# kernel builds: its convergence is timing, not build, dependent); the
# auto-mode section prints FA_AUTO_RESULTS results.
FA_AUTO_RESULTS=26
if [ "${FT_FA_NO_AUTO:-0}" = 1 ]; then plan $((155 - FA_AUTO_RESULTS)); else plan 155; fi

P=$FT_REPO/tests/progs/ft_faultaround
KDBG=/sys/kernel/debug/fault_around_bytes
D=$FT_DEBUGFS
T=/tmp/ft-fa-tmpfs		# tmpfs, huge=never: order-0 page cache
X=""				# xfs: large folios from big writes
XIMG=/tmp/ft-fa-img
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
CG=/sys/fs/cgroup/ft-fa

write_raw() { "$FT_REPO/tests/progs/ft_write" "$@"; }
knob() { cat "$D/$1"; }
kval() { cat "$KDBG"; }

[ -x "$P" ] || { not_ok "faultaround: helper" "$P missing (make progs)"; exit 0; }
[ -r "$KDBG" ] || { not_ok "faultaround: kernel debugfs" "$KDBG missing"; exit 0; }

lru_gen_orig=$(cat "$LRU_GEN" 2>/dev/null)
cleanup() {
	[ -n "$lru_gen_orig" ] && echo "$lru_gen_orig" > "$LRU_GEN"
	[ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	mountpoint -q "$T" && umount "$T"
	if [ "$X" = /tmp/ft-fa-xfs ]; then
		umount "$X"
		rm -f "$XIMG"
	fi
	return 0
}
trap cleanup EXIT

ft_unload
orig=$(kval)
log "faultaround: kernel fault_around_bytes at start: $orig"
ft_load || { not_ok "faultaround: load" "insmod failed"; exit 0; }

# ---- knobs: defaults, modes, kernel rules ----
check_eq "faultaround: fault_around_bytes reads the kernel's value" "$orig" "$(knob fault_around_bytes)"
check_eq "faultaround: defaults: mkold, auto, auto max, period" "0 0 65536 1000" \
	"$(echo $(<"$D/fault_around_mkold") $(<"$D/fault_around_auto") \
		$(<"$D/fault_around_auto_max_bytes") $(<"$D/fault_around_auto_period_ms"))"
check_eq "faultaround: knobs 0600, state 0444" "600 600 600 600 600 444" \
	"$(cd "$D" && stat -c %a fault_around_bytes fault_around_mkold fault_around_auto \
		fault_around_auto_max_bytes fault_around_auto_period_ms fault_around_auto_state | tr '\n' ' ' | sed 's/ $//')"

# wr KNOB VALUE RESULT READBACK: one write(2) answers RESULT (OK or the
# errno), and the knob then reads READBACK.
wr() {
	local r v
	r=$(write_raw "$D/$1" "$2")
	v=$(<"$D/$1")
	check_eq "faultaround: $1 '$2' -> $3, reads $4" "$3 $4" "$r $v"
}
# The rules of mm/memory.c fault_around_bytes_set(): > PTRS_PER_PTE pages
# EINVAL, < PAGE_SIZE -> PAGE_SIZE, rounddown_pow_of_two; the kernel's own
# debugfs file reads what we set.
for c in 0:4096 1:4096 4095:4096 4097:4096 8192:8192 12288:8192 65535:32768 \
	65536:65536 1048577:1048576 2097152:2097152 2101247:2097152 '16384\n':16384; do
	wr fault_around_bytes "${c%:*}" OK "${c##*:}"
	check_eq "faultaround: kernel debugfs agrees after '${c%:*}'" "${c##*:}" "$(<"$KDBG")"
done
for v in 2101248 4194304 18446744073709551615 99999999999999999999999 '' -1 0x1000 4K ' 4096'; do
	r=$(write_raw "$D/fault_around_bytes" "$v")
	case "$r" in EINVAL|ERANGE) r=ok ;; esac
	check_eq "faultaround: fault_around_bytes rejects '$v', unchanged" "ok 16384 16384" \
		"$r $(<"$D/fault_around_bytes") $(<"$KDBG")"
done
for c in 0:4096 12288:8192 2101247:2097152 65536:65536; do
	wr fault_around_auto_max_bytes "${c%:*}" OK "${c##*:}"
done
wr fault_around_auto_max_bytes 2101248 EINVAL 65536
echo 32768 > "$KDBG"
check_eq "faultaround: fault_around_bytes follows a kernel debugfs write" 32768 "$(<"$D/fault_around_bytes")"

wr fault_around_mkold 1 OK 1
wr fault_around_mkold 2 OK 2
wr fault_around_mkold 3 EINVAL 2
wr fault_around_mkold -1 EINVAL 2
wr fault_around_mkold 0 OK 0
wr fault_around_auto_period_ms 100 OK 100
wr fault_around_auto_period_ms 99 EINVAL 100
wr fault_around_auto_period_ms 60001 EINVAL 100
wr fault_around_auto_period_ms 60000 OK 60000
wr fault_around_auto_period_ms 1000 OK 1000
wr fault_around_auto 2 EINVAL 0
wr fault_around_auto 1 OK 1
echo 8192 > "$D/fault_around_bytes"
check_eq "faultaround: writing fault_around_bytes turns auto off, sets the window" \
	"0 8192" "$(<"$D/fault_around_auto") $(<"$KDBG")"

# ---- restore of the kernel's window ----
ft_unload
check_eq "faultaround: rmmod restores the kernel's window" "$orig" "$(kval)"
ft_load || { not_ok "faultaround: reload" "insmod failed"; exit 0; }
echo 8192 > "$D/fault_around_bytes"
echo 0 > "$FT_LIVEPATCH/enabled" && loop_until 60 ft_livepatch_gone
check_eq "faultaround: disabling the patch restores it (module still loaded)" "$orig" "$(kval)"
check_eq "faultaround: knobs refuse writes once the patch is disabled" ENODEV \
	"$(write_raw "$D/fault_around_bytes" 8192)"
check_eq "faultaround: ... and change nothing" "$orig" "$(kval)"
rmmod foliotune && loop_until 30 ft_module_gone
ft_load || { not_ok "faultaround: reload" "insmod failed"; exit 0; }
echo 8192 > "$D/fault_around_bytes"
echo 16384 > "$KDBG"
ft_unload
check_eq "faultaround: a newer kernel-debugfs choice is not overwritten at unload" 16384 "$(kval)"
echo "$orig" > "$KDBG"
ft_load || { not_ok "faultaround: reload" "insmod failed"; exit 0; }

# ---- files ----
mkdir -p "$T" && mount -t tmpfs -o size=160m,huge=never ft-fa "$T" ||
	{ not_ok "faultaround: tmpfs" "mount failed"; exit 0; }
if mountpoint -q "$FT_XFS"; then
	X=$FT_XFS/ft-fa
	mkdir -p "$X"
else
	modprobe xfs && modprobe loop && truncate -s 320M "$XIMG" &&
		mkfs.xfs -q -f "$XIMG" && mkdir -p /tmp/ft-fa-xfs &&
		mount -o loop "$XIMG" /tmp/ft-fa-xfs && X=/tmp/ft-fa-xfs
fi
check "faultaround: an xfs for large folios" test -n "$X"
"$P" prep "$T/small" 8 && "$P" prep "$T/rand" 32 ||
	not_ok "faultaround: tmpfs files" "prep failed"
[ -n "$X" ] && { "$P" prep "$X/large" 8 && "$P" prep "$X/big" 48 ||
	not_ok "faultaround: xfs files" "prep failed"; }
echo 65536 > "$D/fault_around_bytes"

# ---- PTE state and counters after one read fault ----
# field NAME LINE: the value of NAME=N in LINE
field() { [[ " $2" =~ \ $1=([0-9-]+) ]] && echo "${BASH_REMATCH[1]}"; }
# order-0 page cache: 16 PTEs, the faulting one young unless mkold = 0.
for c in 0:64:0 1:4:15 2:4:15; do
	IFS=: read -r m ref old <<< "$c"
	echo "$m" > "$D/fault_around_mkold"
	for pg in 0 37; do
		r=$("$P" fault "$T/small" $pg)
		log "tmpfs mkold=$m page $pg: $r"
		check_eq "faultaround: tmpfs mkold=$m: 64 kB mapped" 64 "$(field rss_kb "$r")"
		check_eq "faultaround: tmpfs mkold=$m: Referenced $ref kB" "$ref" "$(field referenced_kb "$r")"
		check_eq "faultaround: tmpfs mkold=$m: fa_events +1" 1 "$(field fa_events "$r")"
		check_eq "faultaround: tmpfs mkold=$m: fa_read_faults +1" 1 "$(field fa_read_faults "$r")"
		check_eq "faultaround: tmpfs mkold=$m: fa_pages_mapped +15" 15 "$(field fa_pages_mapped "$r")"
		check_eq "faultaround: tmpfs mkold=$m: fa_pages_mapped_old +$old of the 15 mapped" \
			"15 $old" "$(field fa_pages_mapped "$r") $(field fa_pages_mapped_old "$r")"
	done
done
# Large folios: mode 1 keeps the faulting folio's run young, mode 2 only
# the faulting page.  6.12 maps the 16 pages of the window; Linux 7 maps a
# large folio whole once part of it is in the window (in the VMA and one
# page table: the 1 MiB mapping is), so it maps M >= 16 pages, and
# fa_pages_beyond_window must count the M - 16 outside the window.
if [ -n "$X" ]; then
	for m in 0 1 2; do
		echo "$m" > "$D/fault_around_mkold"
		r=$("$P" fault "$X/large" 37)
		log "xfs mkold=$m page 37: $r"
		ref=$(field referenced_kb "$r") old=$(field fa_pages_mapped_old "$r")
		rss=$(field rss_kb "$r") mapped=$(( $(field rss_kb "$r") / 4 ))
		if ft_linux7; then
			check "faultaround: xfs mkold=$m: the window's folios mapped whole ($rss kB >= 64 kB)" \
				test "$rss" -ge 64
		else
			check_eq "faultaround: xfs mkold=$m: 64 kB mapped" 64 "$rss"
		fi
		check_eq "faultaround: xfs mkold=$m: fa_pages_mapped + 1 = the $mapped PTEs mapped" \
			$((mapped - 1)) "$(field fa_pages_mapped "$r")"
		check_eq "faultaround: xfs mkold=$m: fa_pages_beyond_window = the $mapped PTEs less the window's 16" \
			$((mapped - 16)) "$(field fa_pages_beyond_window "$r")"
		case $m in
		0) check_eq "faultaround: xfs mkold=0: Referenced $rss kB: all mapped" "$rss" "$ref"
		   check_eq "faultaround: xfs mkold=0: none of the $((mapped - 1)) mapped is old" \
			"$((mapped - 1)) 0" "$(field fa_pages_mapped "$r") $old" ;;
		1) check "faultaround: xfs mkold=1: Referenced is the faulting run (4..$rss kB, got $ref)" \
			test "$ref" -ge 4 -a "$ref" -le "$rss"
		   check_eq "faultaround: xfs mkold=1: old = the rest" $(( mapped - ref / 4 )) "$old" ;;
		2) check_eq "faultaround: xfs mkold=2: Referenced 4 kB" 4 "$ref"
		   check_eq "faultaround: xfs mkold=2: $((mapped - 1)) mapped old" $((mapped - 1)) "$old" ;;
		esac
	done
	# No fault-around (4K): Linux 7's finish_fault() still maps the
	# faulting page's large folio whole (fa_fault_folio_pages), 6.12's the
	# page alone.
	echo 0 > "$D/fault_around_mkold"
	echo 4096 > "$D/fault_around_bytes"
	r=$("$P" fault "$X/large" 37)
	log "xfs 4K window page 37: $r"
	mapped=$(( $(field rss_kb "$r") / 4 ))
	if ft_linux7; then
		check "faultaround: xfs 4K window: the faulting folio mapped whole ($mapped pages > 1)" \
			test "$mapped" -gt 1
	else
		check_eq "faultaround: xfs 4K window: the faulting page alone" 1 "$mapped"
	fi
	check_eq "faultaround: xfs 4K window: fa_fault_folio_pages + 1 = the $mapped PTEs mapped, no event" \
		"$((mapped - 1)) 0" "$(field fa_fault_folio_pages "$r") $(field fa_events "$r")"
	echo 65536 > "$D/fault_around_bytes"
fi

# ---- usefulness counters: MADV_PAGEOUT unmaps without clearing young ----
echo 2 > "$D/fault_around_mkold"
r=$("$P" fault "$T/small" 100 pageout)
log "tmpfs pageout mkold=2: $r"
# tmpfs pages need swap to be paged out: only the unmap is counted, if any
for f in ${X:+"$X/large"}; do
	r=$("$P" fault "$f" 37 pageout)
	log "xfs pageout mkold=2: $r"
	check_eq "faultaround: pageout counts the young faulting PTE" 1 "$(field fa_unmap_young_ptes "$r")"
	check_eq "faultaround: pageout counts the $(( $(field rss_kb "$r") / 4 - 1 )) old pre-mapped PTEs" \
		$(( $(field rss_kb "$r") / 4 - 1 )) "$(field fa_unmap_old_ptes "$r")"
done
if [ -n "$X" ]; then
	"$P" prep "$X/small" 8 order0
	r=$("$P" fault "$X/small" 37 pageout)
	log "xfs order-0 pageout mkold=2: $r"
	check_eq "faultaround: order-0 pageout: 1 young" 1 "$(field fa_unmap_young_ptes "$r")"
	check_eq "faultaround: order-0 pageout: 15 old" 15 "$(field fa_unmap_old_ptes "$r")"
	echo 0 > "$D/fault_around_mkold"
	"$P" prep "$X/small" 8 order0
	r=$("$P" fault "$X/small" 37 pageout)
	log "xfs order-0 pageout mkold=0: $r"
	# premise: the pageout reached try_to_unmap_one and unmapped the 16
	calls=$(field unmap_calls "$r")
	[ "${calls:-0}" -ge 16 ] && calls=yes || calls="unmap_calls=$calls"
	check_eq "faultaround: no unmap counting while tuning is off (young old, unmap_calls >= 16, rss after)" \
		"0 0 yes 0" "$(field fa_unmap_young_ptes "$r") $(field fa_unmap_old_ptes "$r") $calls $(field rss_after_kb "$r")"
fi
echo 0 > "$D/fault_around_mkold"

# ---- data integrity while mkold and the window flip ----
flip() {
	local i=0 sizes=(4096 16384 65536 2097152 8192 32768)
	while :; do
		echo $((i % 3)) > "$D/fault_around_mkold"
		echo "${sizes[i % 6]}" > "$D/fault_around_bytes"
		i=$((i + 1))
		sleep 0.1
	done
}
flip & flipper=$!
pids=()
for f in "$T/rand" ${X:+"$X/big"}; do
	"$P" verify "$f" 10 > "$f.verify" 2>&1 & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
kill "$flipper"; wait "$flipper" 2>/dev/null
for f in "$T/rand" ${X:+"$X/big"}; do
	r=$(cat "$f.verify")
	log "verify $f: $r"
	check "faultaround: data intact while knobs flip ($f: $r)" grep -q '^ok ' "$f.verify"
done
echo 0 > "$D/fault_around_mkold"
echo 65536 > "$D/fault_around_bytes"

# ---- the 2016 counters under classic LRU reclaim in a memcg ----
if [ -n "$X" ] && [ -w "$LRU_GEN" ]; then
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	echo n > "$LRU_GEN"
	mkdir -p "$CG" && echo 16M > "$CG/memory.max"
	pr_names="pgpgoutclean pageref_activate pageref_activate_vm_exec pageref_keep"
	# one young PTE: keep; two (two maps): activate; PROT_EXEC: vm_exec
	pr_workload() {
		"$P" drop "$X/big"	# not drop_caches: see ft_faultaround.c
		(
			echo $BASHPID > "$CG/cgroup.procs"
			"$P" touch seq "$X/big" 2 > /dev/null
			"$P" touch seq "$X/big" 2 dual > /dev/null
			"$P" touch seq "$X/big" 2 exec > /dev/null
			cat "$X/big" > /dev/null
		)
	}
	# disarmed (the default): the same workload moves none of them
	check_eq "faultaround: reclaim_probes is 0 after load" 0 "$(cat "$D/reclaim_probes")"
	c0=$(for n in $pr_names; do ft_counter $n; done)
	pr_workload
	c1=$(for n in $pr_names; do ft_counter $n; done)
	check_eq "faultaround: reclaim_probes=0: pgpgoutclean, pageref_* do not move" \
		"$(echo $c0)" "$(echo $c1)"
	check "faultaround: no kprobe armed while reclaim_probes=0" \
		sh -c "! grep -v '\[DISABLED\]' /sys/kernel/debug/kprobes/list | grep -qE 'workingset_eviction|folio_referenced'"
	echo 1 > "$D/reclaim_probes"
	check "faultaround: reclaim_probes=1 arms both probes" \
		test "$(grep -v '\[DISABLED\]' /sys/kernel/debug/kprobes/list | grep -cE 'workingset_eviction|folio_referenced')" -eq 2
	c0=$(for n in $pr_names; do ft_counter $n; done)
	pr_workload
	c1=$(for n in $pr_names; do ft_counter $n; done)
	echo 0 > "$D/reclaim_probes"
	# shellcheck disable=SC2086
	set -- $c0 $c1
	log "$pr_names before: $(echo $c0) after: $(echo $c1)"
	check "faultaround: pgpgoutclean moves under memcg reclaim" test "$5" -gt "$1"
	check "faultaround: pageref_keep moves (one young PTE)" test "$8" -gt "$4"
	check "faultaround: pageref_activate moves beyond vm_exec (two young PTEs)" \
		test $(( $6 - $2 )) -gt $(( $7 - $3 ))
	check "faultaround: pageref_activate_vm_exec moves (PROT_EXEC map)" test "$7" -gt "$3"
	echo "$lru_gen_orig" > "$LRU_GEN"
	rmdir "$CG"
else
	not_ok "faultaround: kprobe counters" "no xfs or no $LRU_GEN"
fi

# ---- auto mode ----
[ "${FT_FA_NO_AUTO:-0}" = 1 ] && exit 0
# The test's own processes fault too (exec: "random" faults), so every
# phase runs its workload until its check is done.
auto_state() { sed -n "s/^$1 //p" "$D/fault_around_auto_state"; }
is_window() { [ "$(<"$KDBG")" = "$1" ]; }
stop_wl() { kill "$wl" 2>/dev/null; wait "$wl" 2>/dev/null; }
# wait_steps N: until the tuner has made N more steps (its own count, not
# wall time: TCG on a busy host stretches them; a step is a period once the
# tuner has settled, a quarter before); 120 s at most, one result: a tuner
# that stopped stepping makes the check after it prove nothing.
steps_reached() { [ "$(auto_state steps)" -ge "$1" ]; }
wait_steps() {
	local s0
	s0=$(auto_state steps)
	check "faultaround: the tuner makes $1 more steps within 120 s (from $s0)" \
		loop_until 120 steps_reached $((s0 + $1))
}
echo 200 > "$D/fault_around_auto_period_ms"
echo 65536 > "$D/fault_around_auto_max_bytes"
echo 65536 > "$D/fault_around_bytes"
echo 1 > "$D/fault_around_auto"
sample() { echo $(( $(ft_counter fa_sample_used) )) $(( $(ft_counter fa_sample_unused) )); }
# "in one jump": the window changed at most twice on the way (the step
# history may have rolled over meanwhile: quick steps run every quarter
# period).  The tuner counts changes from when it was turned on, at 64K;
# it may already have acted on this script's own (random) exec faults, and
# a quarter's sample with few faults (a second box on the host) can read
# "little used" and halve first: 64K, 32K, 4K.  Halvings alone take four.
"$P" touch rand "$T/rand" 30 > /dev/null & wl=$!
check "faultaround: auto shrinks to 4K under random sparse faults" loop_until 60 is_window 4096
changes=$(auto_state changes)
check "faultaround: ... in one jump from 64K, or a halving and a jump ($changes changes since turned on)" \
	test "$changes" -ge 1 -a "$changes" -le 2
log "auto after random: $(tr '\n' ';' < "$D/fault_around_auto_state")"
stop_wl
c0=$(auto_state changes)
"$P" touch seq "$T/rand" 30 > /dev/null & wl=$!
check "faultaround: auto grows to the max under sequential faults" loop_until 60 is_window 65536
check_eq "faultaround: ... in one jump from 4K (changes)" $((c0 + 1)) "$(auto_state changes)"
log "auto after sequential: $(tr '\n' ';' < "$D/fault_around_auto_state")"
stop_wl
# every 16th page: the same fault positions as sequential at 64K, only the
# usefulness sample tells that 15 of the 16 pages mapped are never read
s0=$(sample)
"$P" touch stride16 "$T/rand" 30 > /dev/null & wl=$!
check "faultaround: auto shrinks to 4K for a stride-16 reader" loop_until 60 is_window 4096
# "step MS FROM TO DECISION FAULTS NEAR EVENTS USED UNUSED" of that shrink
shrink=$(grep '^step [0-9]* 65536 4096 shrink ' "$D/fault_around_auto_state" | tail -1)
# shellcheck disable=SC2086
set -- $shrink
check "faultaround: ... because the sample found them unused ($shrink)" \
	test -n "$shrink" -a "${10:-0}" -ge 64 -a "${10:-0}" -gt $((8 * ${9:-0}))
# shellcheck disable=SC2086
set -- $s0 $(sample)
check "faultaround: fa_sample_unused moved 4x more than fa_sample_used, 64 or more sampled (used +$(($3 - $1)), unused +$(($4 - $2)))" \
	test $(($4 - $2)) -gt $((4 * ($3 - $1))) -a $(($4 - $2 + $3 - $1)) -ge 64
wait_steps 8
check_eq "faultaround: ... and stays at 4K for 8 more steps (not near: no jump back)" 4096 "$(<"$KDBG")"
log "auto after stride16: $(tr '\n' ';' < "$D/fault_around_auto_state")"
stop_wl
"$P" touch seq "$T/rand" 30 > /dev/null & wl=$!
check "faultaround: auto grows again under sequential faults" loop_until 60 is_window 65536
stop_wl
# every 2nd page: half the pre-mapped pages are read, the 64K window pays
"$P" touch stride2 "$T/rand" 30 > /dev/null & wl=$!
wait_steps 8
check_eq "faultaround: auto keeps 64K for a stride-2 reader" 65536 "$(<"$KDBG")"
# a step in which the slowed reader made too few faults says "idle" (no
# verdict, fa_policy.c): the verdict is the next step with enough
reason_is() { [ "$(auto_state reason | sed 's/[: ].*//')" = "$1" ]; }
check "faultaround: auto state: useful (within 30 s)" loop_until 30 reason_is useful
log "auto after stride2: $(tr '\n' ';' < "$D/fault_around_auto_state")"
stop_wl
"$P" touch seq "$T/rand" 30 > /dev/null & wl=$!
echo 16384 > "$D/fault_around_auto_max_bytes"
check "faultaround: auto clamps to a lowered max" loop_until 60 is_window 16384
wait_steps 5
check_eq "faultaround: ... and stays there for 5 more steps (sequential, at max)" 16384 "$(<"$KDBG")"
c1=$(ft_counter fa_auto_changes)
steps=$(auto_state steps) changes=$(auto_state changes)
c2=$(ft_counter fa_auto_changes)
stop_wl
# At least the 4 changes seen above (shrink, grow, shrink, grow; the clamp
# may be a fifth), at most one per period.
check "faultaround: at most one change per step ($changes changes, $steps steps)" \
	test "$changes" -ge 4 -a "$changes" -le "$steps"
check "faultaround: fa_auto_changes counts them ($c1 <= $changes <= $c2)" \
	test "$c1" -le "$changes" -a "$changes" -le "$c2"
# Process creation: code is left out, the libraries' data is read at
# scattered places but the sample comes back; the 64K window stays.  The
# killed reader's sampled pages come back unused as its mapping is torn
# down, a late but true verdict on it that once halved the window in the
# first step of this test: let it land, then restart the tuner at 64K
# (its history starts again).  A step's 64 sampled PTEs come from a
# handful of events, so now and then one step finds a quarter-used load
# "little used"; a halving needs two such steps in a row, and a halved
# window comes back (fa_policy.c).  What must hold: never below 32K, three steps in
# four at 64K, and at least 32K at the end (a halving can land between the
# state's snapshot and the read of the window: 64K at that instant is luck,
# it failed a run with 27 of 27 steps at 64K).
wait_steps 2
echo 0 > "$D/fault_around_auto"
echo 65536 > "$D/fault_around_auto_max_bytes"
echo 65536 > "$D/fault_around_bytes"
echo 1 > "$D/fault_around_auto"
x0=$(ft_counter fa_read_faults_exec) p0=$(auto_state steps)
"$FT_REPO/tests/progs/ft_spawn" -t 5 -m both > /dev/null
x1=$(ft_counter fa_read_faults_exec)
st=$(<"$D/fault_around_auto_state")
p1=$(sed -n 's/^steps //p' <<< "$st")
check "faultaround: process creation's code faults are counted apart (fa_read_faults_exec +$((x1 - x0)), 100 or more)" \
	test $((x1 - x0)) -ge 100
# "step MS FROM TO ...", oldest first, the ring outlives a restart: of the
# steps since the restart, how many went to 64K, how many below 32K
read -r n at64 low <<< "$(grep '^step ' <<< "$st" | tail -n $((p1 - p0)) |
	awk '{ n++; at += $4 == 65536; low += $4 < 32768 } END { print n + 0, at + 0, low + 0 }')"
w1=$(<"$KDBG")
check "faultaround: auto keeps 64K under process creation (now $w1; $at64 of the last $n steps at 64K, 3 in 4 needed, $low below 32K; $((p1 - p0)) steps, 8 or more)" \
	test "$w1" -ge 32768 -a "$low" = 0 -a $((4 * at64)) -ge $((3 * n)) -a $((p1 - p0)) -ge 8
log "auto after spawn: $(tr '\n' ';' < "$D/fault_around_auto_state")"
# From 32K (where another workload may have left it), the same load brings
# the window back to the kernel's 64K: worth its cost at every size, it
# gives no reason to stay below the default.
# Judged on the steps since the restart, not on the last one: the tuner
# keeps stepping while the state is read, and a step's small sample now
# and then halves the window, which the next period undoes (seen twice:
# "65536 shrink", the window read just before a halving).
# The premise is a load the tuner can judge: a step of fewer than 32 read
# faults is an idle hold that decides nothing (fa_policy.c), and a slow box
# (the debug kernel beside three other boxes) gave 24 such steps of 25 in
# 6 s.  So the load runs again, up to three rounds, until the window grew
# or 8 steps could decide.
echo 0 > "$D/fault_around_auto"
echo 32768 > "$D/fault_around_bytes"
echo 1 > "$D/fault_around_auto"
p0=$(auto_state steps)
rounds=0
while :; do
	"$FT_REPO/tests/progs/ft_spawn" -t 6 -m both > /dev/null
	rounds=$((rounds + 1))
	st=$(<"$D/fault_around_auto_state")
	p1=$(sed -n 's/^steps //p' <<< "$st")
	# the first step that reached 64K, how many of the steps after it
	# stayed, and how many steps saw enough read faults to decide
	read -r n grew after at64 decided <<< "$(grep '^step ' <<< "$st" | tail -n $((p1 - p0)) |
		awk '{ n++; d += $6 >= 32
		       if (!g) { if ($4 == 65536) g = n } else { a++; at += $4 == 65536 } }
		     END { print n + 0, g + 0, a + 0, at + 0, d + 0 }')"
	[ "$grew" -gt 0 ] || [ "$decided" -ge 8 ] || [ "$rounds" -ge 3 ] && break
done
check "faultaround: auto takes process creation from 32K back to 64K (step $grew of $n reached it; $at64 of the $after steps after it at 64K; $decided steps of 32 read faults or more, in $rounds round(s) of load)" \
	test "$grew" -gt 0 -a $((2 * at64)) -ge "$after"
log "auto after spawn from 32K: $(tr '\n' ';' < "$D/fault_around_auto_state")"
echo 8192 > "$D/fault_around_bytes"
echo 1 > "$D/fault_around_auto"
wait_steps 2
echo 0 > "$D/fault_around_auto"
check_eq "faultaround: turning auto off restores the window it started from" 8192 "$(<"$KDBG")"
check_eq "faultaround: auto state says off" off "$(auto_state decision)"
echo 1 > "$D/fault_around_auto"
log "faultaround: unloading with auto on"
ft_unload
check_eq "faultaround: unload with auto on restores the kernel's window" "$orig" "$(<"$KDBG")"
