#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The arms of the reference walk (referenced_batch: 0 the kernel's own
# code, 1 foliotune's batching, 2 one PTE at a time) leave reclaim's
# decisions as the kernel without foliotune makes them.
# tests/guest/referenced/referenced.py builds 13 order-9 file folios with
# known accessed-bit patterns (none young; one young PTE at the start,
# middle or end of a run, or in the second run; all young; two processes;
# split by a VMA boundary; mlocked; PMD-mapped) and makes one memcg reclaim
# pass meet each once; it reports reclaim (R), keep (K) or activate (A) per
# folio.  With the classic LRU it runs without foliotune (stock: on 6.12
# one PTE at a time, on Linux 7 the kernel's own batching), then with each
# arm: all must decide alike, as stock's rules say, and the counters must
# show which path ran (the kernel's own batching on Linux 7 in the
# referenced_kernel_* counters).  Under MGLRU (without its page-table walk,
# so that accessed bits reach eviction) the same with referenced.py's MGLRU
# layout (a VMA per folio, a faulted ballast): stock's decisions, the
# look-around called from batched runs (referenced_lru_gen_batches, or
# once per run by the kernel: referenced_kernel_lru_gen_batches).  Last,
# ft_integrity's file cases under memcg reclaim while unmap_batch and
# referenced_batch flip through their three arms (in turn, at random
# intervals): data intact, every arm of both knobs seen, counter
# identities hold.
. "$(dirname "$0")/../lib.sh"
py="python3 $(dirname "$0")/referenced/referenced.py"
cg=/sys/fs/cgroup/ft-referenced
lrugen=/sys/kernel/mm/lru_gen/enabled
thp=/sys/kernel/mm/transparent_hugepage/enabled
ra=$FT_RA
integ=("$FT_REPO/tests/progs/ft_integrity" -d "$FT_XFS" -b "$ra" -s 8 -r memcg -U flip
	-c file-thp-shared-clean -c file-pte2m -c file-mprotect-middle -c file-fork-shared)
n_integ=$("${integ[@]}" -P 2>/dev/null || echo 0)
plan $((88 + n_integ))

# Expected stock decisions, in referenced.py's order (none start middle end
# run2 all procs2 procs1 split2 split1 mlock pmd_none pmd_young).  One
# referencing VMA keeps a folio, two activate it.  The mlocked folio: its
# PTEs are skipped (VM_LOCKED), so it counts as unreferenced and reclaim
# tries to unmap it; try_to_unmap_one() refuses VM_LOCKED and reclaim
# activates it.  A "?" would match anything.
expect=RKKKKKAKAKARK
# The classic LRU's second pass (referenced.py): a folio the first kept is
# reclaimed, its accessed bits having been cleared then; an activated one
# may or may not be met again.  Built from the rules, as expect is, not
# from a run's decisions: RRRRRR?R?R?RR.
expect2=${expect//K/R}
expect2=${expect2//A/?}
# Under MGLRU: met once each too, and PG_active is folded into the
# generation, so a kept folio reads K whether kept or activated.
mexpect=RKKKKKKKKKKRK

# field NAME LINE: the value of NAME=V in LINE
field() { [[ " $2" =~ \ $1=([^ ]+) ]] && echo "${BASH_REMATCH[1]}"; }
lrugen0=$(cat "$lrugen")
thp0=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp")
flipper=
cleanup() {
	[ -n "$flipper" ] && kill "$flipper" 2>/dev/null && wait "$flipper" 2>/dev/null
	echo "$lrugen0" > "$lrugen"
	echo "$thp0" > "$thp"
	[ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	return 0
}
trap cleanup EXIT

ft_memcg "$cg" "$thp0"

# run LABEL [mglru]: one referenced.py run inside $cg; sets r
run() {
	r=$(ft_in_memcg "$cg" "$py $FT_XFS $cg ${2:-}")
	log "$1: $r"
}
# like A B: B matches the decision string A, where "?" matches anything
# shellcheck disable=SC2053  # A is a pattern
like() { [[ $2 == $1 ]]; }
# premise LABEL: run's folios had the planned geometry (every large folio
# order-9 and fully mapped, two of them PMD-mapped) and its memory.reclaim
# reached its target, without which its decisions prove nothing
premise() {
	check_eq "referenced: $1: geometry as planned (premise)" "0 4096" \
		"$(field geometry_bad "$r") $(field pmd_mapped_kb "$r")"
	check_eq "referenced: $1: memory.reclaim reached its target" 0 "$(field reclaim_err "$r")"
}

echo n > "$lrugen"
check_eq "referenced: classic LRU for the decision runs" 0x0000 "$(cat "$lrugen")"

# ---- stock: no module
ft_unload
# Once in several passes a read sets no accessed bit (a translation that
# outlived the flush, two vCPUs under TCG; the stock kernel and the
# kernel's own code on Linux 7 as often as foliotune's): a pass whose
# decisions miss the rules (stock) or stock's (an arm), or whose young
# PTEs fall short, runs again, three passes at most, and says so; a bug
# has to fail all three.
# passes LABEL GOOD [MODE]: run until GOOD (a function of $r) holds.
passes() {
	local label=$1 good=$2 n
	run "$label" "${3:-}"
	for n in 2 3; do
		"$good" && return
		echo "# $label: pass $((n - 1)) decisions $(field decisions "$r"), young PTEs $(field referenced_young_ptes "$r"): pass $n"
		run "$label (pass $n)" "${3:-}"
	done
}
stock_good() { like "$expect" "$(field decisions "$r")"; }
passes stock stock_good
stock=$(field decisions "$r")
check "referenced: stock: ran ($r)" test -n "$stock"
premise stock
check "referenced: stock: decisions $stock follow the stock rules ($expect)" like "$expect" "$stock"
d2=$(field decisions2 "$r")
check "referenced: stock: second pass $d2: kept folios reclaimed ($expect2)" like "$expect2" "$d2"

# ---- foliotune: each arm
check "referenced: load foliotune" ft_load
c() { ft_counter "$1"; }
# the kernel's own code on Linux 7 counts in its own set
kset=referenced; ft_linux7 && kset=referenced_kernel
arm_good() {
	[ "$(field decisions "$r")" = "$stock" ] &&
		{ { [ $v = 0 ] && ft_linux7; } || [ "$(field referenced_young_ptes "$r")" -ge 522 ]; }
}
for v in 0 1 2; do
	check "referenced: referenced_batch=$v" sh -c "echo $v > $FT_DEBUGFS/referenced_batch"
	passes "batch=$v" arm_good
	d=$(field decisions "$r")
	check "referenced: batch=$v: ran ($r)" test -n "$d"
	premise "batch=$v"
	check "referenced: batch=$v: decisions $d are stock's ($stock)" \
		test -n "$stock" -a "$d" = "$stock"
	d2=$(field decisions2 "$r")
	check "referenced: batch=$v: second pass $d2: kept folios reclaimed, their accessed bits cleared ($expect2)" \
		like "$expect2" "$d2"
	check "referenced: batch=$v: folio_referenced_one replacement ran" \
		test "$(field referenced_calls "$r")" -gt 0
	# 522 = 1+1+1+1 (start middle end run2) + 512 (all) + 2 (procs2) + 1
	# (procs1) + 2 (split2) + 1 (split1); mlocked PTEs are never tested.
	# The kernel's own batching reports runs, not PTEs: one per young run
	# at least (9 folios, 11 VMAs).
	if [ $v = 0 ] && ft_linux7; then
		check "referenced: batch=0: young runs found ($(field referenced_kernel_young_runs "$r") >= 11)" \
			test "$(field referenced_kernel_young_runs "$r")" -ge 11
	else
		check "referenced: batch=$v: every young PTE found ($(field referenced_young_ptes "$r") >= 522)" \
			test "$(field referenced_young_ptes "$r")" -ge 522
	fi
	k=referenced; [ $v = 0 ] && k=$kset
	check "referenced: batch=$v: the mlocked folio took the VM_LOCKED path (512 PTEs skipped)" \
		test "$(field ${k}_nobatch_mlock "$r")" -ge 512
	check "referenced: batch=$v: PMD mappings tested as PMDs" \
		test "$(field referenced_pmds "$r")" -ge 2
	case $v in
	0)
		check "referenced: batch=0: its calls counted as the kernel's arm" \
			test "$(field referenced_calls_kernel "$r")" -gt 0
		if ft_linux7; then
			check_eq "referenced: batch=0: foliotune's runs and per-PTE walk idle" "0 0" \
				"$(field referenced_batches "$r") $(field referenced_nobatch_off "$r")"
			check "referenced: batch=0: the kernel batched 496-, 16- and 100-PTE runs (order8, order4, order6)" \
				test "$(field referenced_kernel_batch_order8 "$r")" -ge 5 -a \
				"$(field referenced_kernel_batch_order4 "$r")" -ge 5 -a \
				"$(field referenced_kernel_batch_order6 "$r")" -ge 4
			check "referenced: batch=0: young runs <= runs tested" \
				test "$(field referenced_kernel_young_runs "$r")" -le $(( \
				$(field referenced_kernel_batches "$r") + $(field referenced_kernel_single_ptes "$r") - \
				$(field referenced_kernel_nobatch_mlock "$r") ))
		else
			check_eq "referenced: batch=0: no batch (6.12's own code is one PTE at a time)" "0 0" \
				"$(field referenced_batches "$r") $(field referenced_nobatch_lru_gen "$r")"
			check "referenced: batch=0: large-folio PTEs tested singly (nobatch_off)" \
				test "$(field referenced_nobatch_off "$r")" -ge $((10 * 512 - 100 * 2))
			check_eq "referenced: batch=0: the Linux 7 kernel's counters idle on 6.12" "0 0" \
				"$(field referenced_kernel_batches "$r") $(field referenced_kernel_single_ptes "$r")"
		fi
		;;
	2)
		check "referenced: batch=2: its calls counted as the per-PTE arm" \
			test "$(field referenced_calls_pte "$r")" -gt 0
		check_eq "referenced: batch=2: no batch, foliotune's or the kernel's" "0 0 0" \
			"$(field referenced_batches "$r") $(field referenced_nobatch_lru_gen "$r") $(field referenced_kernel_batches "$r")"
		check "referenced: batch=2: large-folio PTEs tested singly (nobatch_off)" \
			test "$(field referenced_nobatch_off "$r")" -ge $((10 * 512 - 100 * 2))
		;;
	1)
		check_eq "referenced: batch=1: no PTE done singly for being off, no kernel run" "0 0" \
			"$(field referenced_nobatch_off "$r") $(field referenced_kernel_batches "$r")"
		check "referenced: batch=1: 496-PTE runs batched (order8)" \
			test "$(field referenced_batch_order8 "$r")" -ge 5
		check "referenced: batch=1: 16-PTE runs batched (order4)" \
			test "$(field referenced_batch_order4 "$r")" -ge 5
		check "referenced: batch=1: runs cut at the VMA boundaries (order6: 100-PTE runs)" \
			test "$(field referenced_batch_order6 "$r")" -ge 4
		check "referenced: batch=1: young PTEs <= PTEs tested" \
			test "$(field referenced_young_ptes "$r")" -le $(( $(field referenced_batched_ptes "$r") + \
			$(field referenced_single_ptes "$r") - $(field referenced_nobatch_mlock "$r") ))
		;;
	esac
done

# ---- the counters' identities (read while nothing reclaims)
sum_nobatch=$(awk '$1 ~ /^referenced_nobatch_/ { s += $2 } END { print s }' "$FT_DEBUGFS/vmstat")
sum_orders=$(awk '$1 ~ /^referenced_batch_order[1-9]$/ { s += $2 } END { print s }' "$FT_DEBUGFS/vmstat")
check_eq "referenced: sum(nobatch_*) == single_ptes" "$(c referenced_single_ptes)" "$sum_nobatch"
check_eq "referenced: sum(batch_order1..9) == batches" "$(c referenced_batches)" "$sum_orders"
check_eq "referenced: batch_order0 == single - small - hugetlb" "$(c referenced_batch_order0)" \
	$(( $(c referenced_single_ptes) - $(c referenced_nobatch_small) - $(c referenced_nobatch_hugetlb) ))
check "referenced: 2*batches <= batched_ptes <= 512*batches" \
	test $((2 * $(c referenced_batches))) -le "$(c referenced_batched_ptes)" -a \
	"$(c referenced_batched_ptes)" -le $((512 * $(c referenced_batches)))
# the kernel's set: the same identities (Linux 7), or idle (6.12)
ksum_nobatch=$(awk '$1 ~ /^referenced_kernel_nobatch_/ { s += $2 } END { print s }' "$FT_DEBUGFS/vmstat")
ksum_orders=$(awk '$1 ~ /^referenced_kernel_batch_order[1-9]$/ { s += $2 } END { print s }' "$FT_DEBUGFS/vmstat")
kid="$ksum_nobatch $ksum_orders $(( $(c referenced_kernel_single_ptes) - $(c referenced_kernel_nobatch_small) ))"
if ft_linux7; then
	check_eq "referenced: kernel's set: sum(nobatch_*), sum(order1..9), single - small == single_ptes, batches, order0" \
		"$(c referenced_kernel_single_ptes) $(c referenced_kernel_batches) $(c referenced_kernel_batch_order0)" "$kid"
else
	check_eq "referenced: kernel's set: idle on 6.12" "0 0 0 0" \
		"$(awk '$1 ~ /^referenced_kernel_/ { s += $2 } END { print s + 0 }' "$FT_DEBUGFS/vmstat") $kid"
fi

# ---- MGLRU: the look-around at each young PTE of a run, as stock calls it
# lru_gen core only (0x0001): no page-table walk ages the test folios, so
# the accessed bits reach eviction and the reference walk's look-arounds
# harvest them: the "all" folio stays mapped only if its run's young PTEs
# were found.  Each folio in its own VMA, so no look-around reaches another
# test folio (referenced.py's docstring): a folio's decision is its own.
echo 0x0001 > "$lrugen"
check_eq "referenced: MGLRU on, without its page-table walk" 0x0001 "$(cat "$lrugen")"
ft_unload
run "mglru stock" mglru
mstock=$(field decisions "$r")
check "referenced: mglru: stock: ran ($r)" test -n "$mstock"
premise "mglru: stock"
check "referenced: mglru: stock: the all-young folio stays mapped (look-around premise: $mstock)" \
	test -n "$mstock" -a "${mstock:5:1}" != R
check "referenced: mglru: stock: decisions $mstock follow the stock rules ($mexpect)" \
	like "$mexpect" "$mstock"
check "referenced: mglru: load foliotune" ft_load
# the reclaim probes rebuild folio_check_references()'s outcome: under
# MGLRU Linux 7 decides by lru_gen_set_refs() (PG_referenced and
# PG_workingset, which clear_refs left clear: keep), 6.12 by the classic
# rule (a folio referenced from two VMAs, procs2 and split2, activated)
echo 1 > "$FT_DEBUGFS/reclaim_probes"
for v in 0 1 2; do
	echo $v > "$FT_DEBUGFS/referenced_batch"
	run "mglru batch=$v" mglru
	d=$(field decisions "$r")
	premise "mglru: batch=$v"
	check "referenced: mglru: batch=$v: decisions $d are stock's ($mstock)" \
		test -n "$mstock" -a "$d" = "$mstock"
	if [ $v = 0 ] && ft_linux7; then
		check "referenced: mglru: batch=0: young runs found ($(field referenced_kernel_young_runs "$r"))" \
			test "$(field referenced_kernel_young_runs "$r")" -gt 0
	else
		check "referenced: mglru: batch=$v: young PTEs found ($(field referenced_young_ptes "$r"))" \
			test "$(field referenced_young_ptes "$r")" -gt 0
	fi
	check_eq "referenced: mglru: batch=$v: no MMU-notifier PTEs done singly" 0 \
		"$(field referenced_nobatch_lru_gen "$r")"
	case $v in
	0)
		if ft_linux7; then
			check "referenced: mglru: batch=0: the kernel's runs walked for MGLRU, one look-around each" \
				test "$(field referenced_kernel_lru_gen_batches "$r")" -gt 0 -a \
				"$(field referenced_kernel_lru_gen_batches "$r")" = "$(field referenced_kernel_batches "$r")"
		else
			check_eq "referenced: mglru: batch=0: no MGLRU run" 0 "$(field referenced_lru_gen_batches "$r")"
		fi
		;;
	2)
		check_eq "referenced: mglru: batch=2: no MGLRU run, foliotune's or the kernel's" "0 0" \
			"$(field referenced_lru_gen_batches "$r") $(field referenced_kernel_lru_gen_batches "$r")"
		;;
	1)
		# 10 referenced file folios of 512 pages not mlocked: start middle
		# end run2 all procs2 procs1 split2 split1 pmd_young
		# The probes count every folio reclaim looks at, the box's own
		# too (executables: pageref_activate_vm_exec): at least the 10
		# folios, then.  Linux 7 keeps each (5143 kept, 101 activated, 99
		# of them executables, in one run on 7.3.4); 6.12 keeps some and
		# activates others (3591 and 1560 on 6.12.107, .117 and .118).
		keep=$(field pageref_keep "$r") act=$(field pageref_activate "$r")
		if ft_linux7; then
			check "referenced: mglru: batch=1: reclaim probes: the 10 folios kept, as lru_gen_set_refs() decides ($keep >= 5120)" \
				test "$keep" -ge 5120
		else
			check "referenced: mglru: batch=1: reclaim probes: the 10 folios kept or activated ($keep + $act >= 5120)" \
				test "$((keep + act))" -ge 5120
		fi
		check "referenced: mglru: batch=1: runs walked for MGLRU (lru_gen_batches)" \
			test "$(field referenced_lru_gen_batches "$r")" -gt 0
		check_eq "referenced: mglru: batch=1: every run an MGLRU run" \
			"$(field referenced_batches "$r")" "$(field referenced_lru_gen_batches "$r")"
		;;
	esac
done
check "referenced: lru_gen_batches <= batches" \
	test "$(c referenced_lru_gen_batches)" -le "$(c referenced_batches)"
echo 0 > "$FT_DEBUGFS/reclaim_probes"
echo n > "$lrugen"

# ---- integrity under memcg reclaim, both knobs flipping
# The nine settings of the two knobs in turn, each held for a random 10-90
# ms, so that each knob takes each arm every third flip whatever the coin
# does; on a slow box (a loaded host) a flip can take a second or more.
flips=$(mktemp)
(
	n=0
	while :; do
		echo $((n % 3)) > "$FT_DEBUGFS/unmap_batch"
		echo $((n / 3 % 3)) > "$FT_DEBUGFS/referenced_batch"
		n=$((n + 1))
		echo $n > "$flips"
		sleep 0.0$((RANDOM % 9 + 1))
	done
) &
flipper=$!
# What each arm's code moves when it ran: foliotune's batches (1), a PTE
# done singly for the arm (2), a call in the kernel's arm (0; on Linux 7
# also the kernel's batches).
arm_counters() {
	echo "$(c referenced_batches) $(c referenced_nobatch_off) $(c referenced_calls_kernel) $(c referenced_kernel_batches)" \
		"$(c unmap_batches) $(c unmap_nobatch_off) $(c unmap_calls_kernel) $(c unmap_kernel_batches)"
}
read -r rb0 roff0 rk0 rkb0 ub0 uoff0 uk0 ukb0 <<< "$(arm_counters)"
# every arm of KNOB (referenced, unmap) ran since the start
all_ran() {
	local b off k kb
	read -r rb roff rk rkb ub uoff uk ukb <<< "$(arm_counters)"
	if [ "$1" = referenced ]; then
		b=$((rb - rb0)) off=$((roff - roff0)) k=$((rk - rk0)) kb=$((rkb - rkb0))
	else
		b=$((ub - ub0)) off=$((uoff - uoff0)) k=$((uk - uk0)) kb=$((ukb - ukb0))
	fi
	ft_linux7 || kb=1
	[ "$b" -gt 0 ] && [ "$off" -gt 0 ] && [ "$k" -gt 0 ] && [ "$kb" -gt 0 ]
}
# Each knob must have been seen in every arm by the code it switches:
# reclaim comes in bursts, and all of a run's unmaps fell into unmap_batch=1
# windows once (a kernels-stage smoke boot), and in all three runs of a box
# on a loaded host, whose flipper managed 19 flips in them.  So up to six
# runs, until every arm of both knobs ran; a run that fails ends it, and the
# last run's lines are the results (the ones before it passed).
for run in 1 2 3 4 5 6; do
	"${integ[@]}" > "$flips.out" 2>&1
	rc=$?
	[ "$rc" != 0 ] && break
	all_ran referenced && all_ran unmap && break
done
echo "# flip: $run ft_integrity run(s) until every arm of both knobs ran"
kill "$flipper"
wait "$flipper" 2>/dev/null
flipper=
sed -e 's/^ok - /ok - referenced: flip\//' -e 's/^not ok - /not ok - referenced: flip\//' \
	-e 's/^\([^on]\)/# \1/' "$flips.out"
check_eq "referenced: flip: ft_integrity exit status" 0 "$rc"
check "referenced: flip: every referenced_batch arm ran ($(cat "$flips") flips)" all_ran referenced
check "referenced: flip: every unmap_batch arm ran" all_ran unmap
check_eq "referenced: flip: sum(nobatch_*) == single_ptes" "$(c referenced_single_ptes)" \
	"$(awk '$1 ~ /^referenced_nobatch_/ { s += $2 } END { print s }' "$FT_DEBUGFS/vmstat")"
rm -f "$flips" "$flips.out"
echo 1 > "$FT_DEBUGFS/unmap_batch"
echo 1 > "$FT_DEBUGFS/referenced_batch"

bad=$(dmesg | grep -E 'BUG|Oops|WARNING|Bad page|Bad rss')
check_eq "referenced: no kernel errors" "" "$bad"
check "referenced: unload" ft_unload
