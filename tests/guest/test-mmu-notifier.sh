#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The batched reference walk with a secondary MMU on the mm: an
# mmu_notifier of tests/modules/ft_mn_test.ko, registered by the test
# process, that records every young call's range and answers "young" for
# the pages the test marked (tests/guest/referenced/notifier.py).  Seven
# order-9 file folios, each in its own VMA (two runs: 496 and 16 PTEs);
# the secondary MMU has used pages of four of them whose primary PTEs are
# all old.
#   classic LRU  decisions equal stock's (the notifier's answer keeps a
#                folio), and the notifier is asked about every PTE exactly
#                once: as stock with referenced_batch=0 (the same calls),
#                one range per run with referenced_batch=1, per PTE with 2
#   MGLRU        an mm with notifiers is walked per PTE by
#                referenced_batch=1 (referenced_nobatch_lru_gen):
#                decisions equal stock's, and the notifier's calls, ranges
#                and answers equal those of the per-PTE walk
# The kernel's own walk (stock, and arm 0) is per PTE on 6.12; Linux 7
# batches it (folio_pte_batch(), then one clear_flush_young_ptes_notify()
# or, under MGLRU, one lru_gen_look_around() per run: one call per run).
# There the per-PTE walk is arm 2, and arm 1 is compared with it under
# MGLRU and with the kernel's calls under the classic LRU.
#   churn        a notifier registered and unregistered in a loop while
#                reclaim runs (foliotune reads mm_has_notifiers() once per
#                run): no folio in use reclaimed, with the classic LRU and
#                MGLRU; ft_integrity's file cases under memcg reclaim with
#                the notifier coming and going on each case's mm: data
#                intact, and both MGLRU walks (batched, notifier fallback)
#                ran
. "$(dirname "$0")/../lib.sh"
py="python3 $(dirname "$0")/referenced/notifier.py"
cg=/sys/fs/cgroup/ft-mn
lrugen=/sys/kernel/mm/lru_gen/enabled
thp=/sys/kernel/mm/transparent_hugepage/enabled
mnfile=/sys/kernel/debug/ft_mn_test/notifier
integ=("$FT_REPO/tests/progs/ft_integrity" -d "$FT_XFS" -b "$FT_RA" -s 8 -r memcg -U 1
	-M "$mnfile" -c file-thp-shared-clean -c file-pte2m -c file-fork-shared)
n_integ=$("${integ[@]}" -P 2>/dev/null || echo 0)
# Linux 7: arm 2 under both LRUs (5 checks each), two more checks of the
# classic arms 0 and 1
n7=0
ft_linux7 && n7=12
plan $((49 + n7 + n_integ))

# The rules: a folio whose PTEs or secondary MMU show a use is kept
# (none, sec_first, sec_mid, sec_run2, sec_all, prim, both; one VMA each).
expect=RKKKKKK
# With a notifier each PTE is asked once: seven folios of 512 PTEs.
all1=1111111
per_pte=512,512,512,512,512,512,512
# each folio's two runs (496 and 16 PTEs), one range each
per_run=496+16,496+16,496+16,496+16,496+16,496+16,496+16
# The kernel's own walk (stock, arm 0): what the notifier is asked about
# each folio (kfield: calls per folio, or the ranges' sizes), and the arms
if ft_linux7; then
	kfield=sizes kcalls=$per_run kwhat="one range per run"
	arms="0 1 2" marms="0 2 1"
else
	kfield=calls kcalls=$per_pte kwhat="one clear_flush_young per PTE"
	arms="0 1" marms="0 1"
fi

# field NAME LINE: the value of NAME=V in LINE
field() { [[ " $2" =~ \ $1=([^ ]+) ]] && echo "${BASH_REMATCH[1]}"; }
lrugen0=$(cat "$lrugen")
thp0=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp")
cleanup() {
	echo "$lrugen0" > "$lrugen"
	echo "$thp0" > "$thp"
	[ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	[ -d /sys/module/ft_mn_test ] && rmmod ft_mn_test
	return 0
}
trap cleanup EXIT

# The notifier module built for the running kernel (stock: tests/modules,
# the debug-kernel lane: build/debug/tests-modules).
ko=""
for k in "${FT_MN_KO:-$FT_REPO/tests/modules/ft_mn_test.ko}" "$FT_REPO/build/debug/tests-modules/ft_mn_test.ko"; do
	[ -z "$ko" ] && [ -r "$k" ] && modinfo -F vermagic "$k" | grep -q "^$(uname -r) " && ko=$k
done
check "mn: ft_mn_test.ko for $(uname -r) (make test-modules)" test -n "$ko"
check "mn: load the test notifier module" insmod "${ko:-/nonexistent}"
# Its commands: bad ones refused, nothing marked or recorded by them.
r=$(python3 - "$mnfile" <<'EOF' 2>&1
import errno, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
bad = 0
for cmd in ("young 0x1001 1", "young 0x1000 0", "young 0x1000 4097", "old 0x1000 1", "x" * 80):
    try:
        os.write(fd, cmd.encode())
    except OSError as e:
        bad += e.errno == errno.EINVAL
os.write(fd, b"young 0x10000 2")
print("einval=%d %s" % (bad, os.read(fd, 4096).decode().replace("\n", ",")))
EOF
)
log "commands: $r"
check_eq "mn: invalid commands refused with EINVAL, good ones taken, nothing recorded" \
	"einval=5 calls 0 0 0,young 0,dropped 0," "$r"

ft_memcg "$cg" "$thp0"

# run LABEL classic|mglru [churn]: one notifier.py run inside $cg; sets r
run() {
	r=$(ft_in_memcg "$cg" "$py $FT_XFS $cg $2 ${3:-}")
	log "$1: $r"
}
# premise LABEL: the planned geometry, reclaim reached its target, and the
# notifier's records hold every call it counted
premise() {
	check_eq "mn: $1: geometry as planned, memory.reclaim reached its target, every call recorded (premise)" \
		"0 0 0 0" "$(field geometry_bad "$r") $(field reclaim_err "$r") $(field mn_dropped "$r") $(field mn_lost "$r")"
}

# ---- classic LRU: the notifier once per PTE, or once per run
echo n > "$lrugen"
check_eq "mn: classic LRU" 0x0000 "$(cat "$lrugen")"
ft_unload
run "classic stock" classic
stock=$(field decisions "$r")
sdigest=$(field digest "$r")
check "mn: classic: stock: ran ($r)" test -n "$stock"
premise "classic: stock"
check_eq "mn: classic: stock: decisions follow the rules, the secondary MMU's pages keep their folios" \
	"$expect" "$stock"
check_eq "mn: classic: stock: every PTE asked once, $kwhat" \
	"$all1 $kcalls 0" "$(field cover "$r") $(field $kfield "$r") $(field mn_other_ops "$r")"
check "mn: classic: load foliotune" ft_load
for v in $arms; do
	check "mn: classic: referenced_batch=$v" sh -c "echo $v > $FT_DEBUGFS/referenced_batch"
	run "classic batch=$v" classic
	premise "classic: batch=$v"
	check_eq "mn: classic: batch=$v: decisions are stock's" "$stock" "$(field decisions "$r")"
	check_eq "mn: classic: batch=$v: every PTE of each folio asked once" "$all1" "$(field cover "$r")"
	case $v in
	0)
		check_eq "mn: classic: batch=0: stock's calls, ranges and answers" \
			"$kcalls $sdigest" "$(field $kfield "$r") $(field digest "$r")"
		# Linux 7: the kernel's 14 runs (7 folios, 2 each) ran, no arm's
		if ft_linux7; then
			check "mn: classic: batch=0: the kernel's runs (referenced_kernel_batches +$(field referenced_kernel_batches "$r") >= 14), none of foliotune's (batches +$(field referenced_batches "$r"), nobatch_off +$(field referenced_nobatch_off "$r"))" \
				test "$(field referenced_kernel_batches "$r")" -ge 14 -a \
				"$(field referenced_batches "$r")" = 0 -a \
				"$(field referenced_nobatch_off "$r")" = 0
		fi
		;;
	1)
		check_eq "mn: classic: batch=1: one range per run" "$per_run" "$(field sizes "$r")"
		check "mn: classic: batch=1: the ranges are runs foliotune counted ($(field mn_ranges "$r") <= referenced_batches +$(field referenced_batches "$r"))" \
			test "$(field mn_ranges "$r")" -ge 14 -a \
			"$(field mn_ranges "$r")" -le "$(field referenced_batches "$r")"
		# Linux 7 batches the same runs: the same calls as stock
		if ft_linux7; then
			check_eq "mn: classic: batch=1: stock's calls, ranges and answers (Linux 7 batches too)" \
				"$sdigest" "$(field digest "$r")"
		fi
		;;
	2)
		check "mn: classic: batch=2: one clear_flush_young per PTE ($(field calls "$r")), PTEs tested singly (nobatch_off +$(field referenced_nobatch_off "$r") >= 3584)" \
			test "$(field calls "$r")" = "$per_pte" -a \
			"$(field referenced_nobatch_off "$r")" -ge 3584
		;;
	esac
done

# ---- MGLRU: the notifier's mm walked per PTE, as 6.12's stock walks it
# lru_gen core only (referenced.py: no page-table walk before eviction)
echo 0x0001 > "$lrugen"
check_eq "mn: MGLRU on, without its page-table walk" 0x0001 "$(cat "$lrugen")"
ft_unload
run "mglru stock" mglru
mstock=$(field decisions "$r")
mdigest=$(field digest "$r")
check "mn: mglru: stock: ran ($r)" test -n "$mstock"
premise "mglru: stock"
check_eq "mn: mglru: stock: decisions follow the rules" "$expect" "$mstock"
if ft_linux7; then
	# one look-around per run: its test_and_clear_young_ptes_notify() over
	# the run; its neighbours are this folio's PTEs, isolated, skipped
	check_eq "mn: mglru: stock: every PTE asked once, one clear_young range per run" \
		"$all1 $per_run 0" "$(field cover "$r") $(field sizes "$r") $(field mn_other_ops "$r")"
else
	# every PTE once from the walk, some again from a look-around
	calls=$(field calls "$r")
	check "mn: mglru: stock: the notifier asked about every PTE of each folio ($calls clear_young)" \
		test -n "$calls" -a "$(field mn_other_ops "$r")" = 0 -a \
		"$(tr , '\n' <<< "${calls:-0}" | awk '$1 < 512' | wc -l)" = 0
fi
check "mn: mglru: load foliotune" ft_load
# Linux 7: arm 2 (the per-PTE walk arm 1 is held to) before arm 1
for v in $marms; do
	check "mn: mglru: referenced_batch=$v" sh -c "echo $v > $FT_DEBUGFS/referenced_batch"
	run "mglru batch=$v" mglru
	premise "mglru: batch=$v"
	check_eq "mn: mglru: batch=$v: decisions are stock's" "$mstock" "$(field decisions "$r")"
	if [ "$v" = 2 ]; then
		pdigest=$(field digest "$r")
		check_eq "mn: mglru: batch=2: every PTE asked once, one clear_young per PTE" \
			"$all1 $per_pte" "$(field cover "$r") $(field calls "$r")"
	elif [ "$v" = 1 ] && ft_linux7; then
		check_eq "mn: mglru: batch=1: the per-PTE walk's calls, ranges and answers (batch=2's)" \
			"$pdigest" "$(field digest "$r")"
	else
		check_eq "mn: mglru: batch=$v: stock's calls, ranges and answers" "$mdigest" "$(field digest "$r")"
	fi
	case $v$(ft_linux7 && echo 7) in
	0)
		check_eq "mn: mglru: batch=0: PTEs tested singly for being off, no MGLRU run" "yes 0" \
			"$([ "$(field referenced_nobatch_off "$r")" -ge 3584 ] && echo yes) $(field referenced_lru_gen_batches "$r")"
		;;
	07)
		# the kernel's 14 runs (7 folios, 2 each), one look-around each
		check "mn: mglru: batch=0: the kernel's MGLRU runs (referenced_kernel_lru_gen_batches +$(field referenced_kernel_lru_gen_batches "$r") >= 14), none of foliotune's (lru_gen_batches +$(field referenced_lru_gen_batches "$r"), nobatch_off +$(field referenced_nobatch_off "$r"))" \
			test "$(field referenced_kernel_lru_gen_batches "$r")" -ge 14 -a \
			"$(field referenced_lru_gen_batches "$r")" = 0 -a \
			"$(field referenced_nobatch_off "$r")" = 0
		;;
	27)
		check_eq "mn: mglru: batch=2: PTEs tested singly for being off, no MGLRU run" "yes 0" \
			"$([ "$(field referenced_nobatch_off "$r")" -ge 3584 ] && echo yes) $(field referenced_lru_gen_batches "$r")"
		;;
	*)
		# 7 folios of 512 PTEs, each walked per PTE
		check "mn: mglru: batch=1: the notifier's mm walked per PTE (referenced_nobatch_lru_gen +$(field referenced_nobatch_lru_gen "$r") >= 3584)" \
			test "$(field referenced_nobatch_lru_gen "$r")" -ge 3584
		;;
	esac
done

# ---- a notifier that comes and goes while reclaim walks the mm
echo 1 > "$FT_DEBUGFS/referenced_batch"
# walked MODE: the reclaim of the last run walked the test folios' runs:
# classic batched, MGLRU per PTE.  The first registration makes
# mm_has_notifiers() true for the rest of the mm's life, and it comes
# before the reclaim (the thread registers once before it starts): a
# first registration that lands inside one reclaim, between two runs of
# the mm, is too narrow a window to hit on purpose (the runs of 7 folios
# take a burst of the reclaim; waiting for the walk to move and then
# registering made no registration inside the reclaim at all).
walked() {
	if [ "$1" = classic ]; then
		[ "$(field referenced_batches "$r")" -gt 0 ]
	else
		[ "$(field referenced_nobatch_lru_gen "$r")" -gt 0 ]
	fi
}
for mode in classic mglru; do
	[ $mode = classic ] && echo n > "$lrugen" || echo 0x0001 > "$lrugen"
	# Which runs a registration overlaps is chance: up to five passes
	# until one walked both ways; one that reclaims a used folio ends it.
	for try in 1 2 3 4 5; do
		run "churn $mode $try" $mode churn
		d=$(field decisions "$r")
		[ "${d:5:2}" = KK ] || break
		walked $mode 2>/dev/null && break
	done
	check "mn: churn: $mode: registrations during the reclaim ($(field registrations_in_reclaim "$r") of $(field registrations "$r"))" \
		test "$(field registrations_in_reclaim "$r")" -gt 0 -a "$(field reclaim_err "$r")" = 0
	if [ $mode = classic ]; then
		what="runs walked batched"
	else
		what="runs walked per PTE, the notifier on"
	fi
	check "mn: churn: $mode: $what (premise; pass $try: batches +$(field referenced_batches "$r"), lru_gen_batches +$(field referenced_lru_gen_batches "$r"), nobatch_lru_gen +$(field referenced_nobatch_lru_gen "$r"))" \
		walked $mode
	# a registration holds the rmap locks reclaim only tries: an unused
	# folio may be kept then, a used one (prim, both) never reclaimed
	check "mn: churn: $mode: no folio in use reclaimed ($d)" \
		test -n "$d" -a "${d:5:2}" = KK
	check_eq "mn: churn: $mode: geometry as planned (premise)" 0 "$(field geometry_bad "$r")"
done

# Data: the notifier on each case's mm, under memcg reclaim, with the
# boot's LRU (MGLRU with its page-table walk on Debian's 6.12)
echo "$lrugen0" > "$lrugen"
c() { ft_counter "$1"; }
b0=$(c referenced_lru_gen_batches)
l0=$(c referenced_nobatch_lru_gen)
out=$(mktemp)
"${integ[@]}" > "$out" 2>&1
rc=$?
sed -e 's/^ok - /ok - mn: integrity\//' -e 's/^not ok - /not ok - mn: integrity\//' \
	-e 's/^\([^on]\)/# \1/' "$out"
rm -f "$out"
check_eq "mn: integrity: ft_integrity exit status" 0 "$rc"
if [ "$(cut -c1-6 <<< "$lrugen0")" != 0x0000 ]; then
	check "mn: integrity: MGLRU walked the notifier's mms per PTE (nobatch_lru_gen +$(( $(c referenced_nobatch_lru_gen) - l0 )), lru_gen_batches +$(( $(c referenced_lru_gen_batches) - b0 )))" \
		test "$(c referenced_nobatch_lru_gen)" -gt "$l0"
else
	not_ok "mn: integrity: MGLRU on at boot" "lru_gen/enabled $lrugen0"
fi

bad=$(dmesg | grep -E 'BUG|Oops|WARNING|Bad page|Bad rss')
check_eq "mn: no kernel errors" "" "$bad"
check "mn: unload foliotune" ft_unload
check "mn: unload the test notifier module" rmmod ft_mn_test
