#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The counters no other test moves on purpose, each from a case built to
# move it, and the checker's own self-test:
#   single   xfs large folios (from read faults; on Linux 7 by
#            MADV_HUGEPAGE) mapped by one PTE each, reclaimed from their
#            memcg: every one is a run of one PTE of a large folio, so
#            unmap_batch_order0 and unmap_nobatch_partial (unmap_batch=1)
#            or unmap_nobatch_off (=2, and =0 on 6.12) move at least once
#            per folio that went, and identity (3) of module/unmap.c holds
#            on the deltas; with =0 on Linux 7 the same of the kernel's own
#            code's counters (unmap_kernel_batch_order0, _nobatch_partial)
#   near     fa_read_faults_near: a sequential reader's faults are all near
#            but its first, a stride-16 reader's none (exact counts)
#   nonpresent  unmap_nobatch_nonpresent: this kernel has no
#            make_device_exclusive_range() (CONFIG_DEVICE_PRIVATE off), so
#            no device-exclusive entry can exist and it must stay 0
#   ft_integrity -X  the integrity checker fails every case whose data it
#            corrupts after reclaim (a checker that cannot fail proves
#            nothing)
# tests/guest/pte-bits/pte_bits.py says how each case works.
. "$(dirname "$0")/../lib.sh"
plan 19
py="python3 $(dirname "$0")/pte-bits/pte_bits.py"
cg=/sys/fs/cgroup/ft-unmap-counters
f=$FT_XFS/ft-unmap-counters
t=/tmp/ft-unmap-counters-tmpfs
w=$(mktemp -d)
cleanup() {
	[ -d "$cg" ] && rmdir "$cg"
	mountpoint -q "$t" && umount "$t"
	rm -rf "$f" "$w"
	return 0
}
trap cleanup EXIT
# field NAME LINE: the value of NAME=N in LINE
field() { [[ " $2" =~ \ $1=([0-9-]+) ]] && echo "${BASH_REMATCH[1]}"; }

ft_unload
check "unmap-counters: load foliotune" ft_load

# ---- single: one PTE per large folio, memcg reclaim ----
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$cg"
dd if=/dev/urandom of="$f" bs=1M count=8 status=none && sync
# Linux 7's read faults make no large folio of it: MADV_HUGEPAGE's
# (pte_bits.py's "linux7", huge_file())
l7=
ft_linux7 && l7=linux7
for b in 1 2 0; do
	echo "$b" > "$FT_DEBUGFS/unmap_batch"
	r=$(sh -c "echo \$\$ > $cg/cgroup.procs && exec $py single $f $l7" 2>&1)
	log "single unmap_batch=$b: $r"
	gone=$(field gone "$r")
	check "unmap-counters: single/unmap_batch=$b: large folios mapped by one PTE each, reclaim unmapped some (premise: $r)" \
		test -n "$gone" -a "${gone:-0}" -gt 0 -a "$(field mapped "$r")" = "$(field large "$r")"
	gone=${gone:-1}
	# the counter set of this arm: the kernel's own on Linux 7 with 0
	k=; [ "$b" = 0 ] && ft_linux7 && k=k
	if [ "$b" = 1 ]; then
		check "unmap-counters: single/unmap_batch=1: unmap_nobatch_partial +$(field partial "$r") >= $gone folios gone, nobatch_off +0" \
			test "$(field partial "$r")" -ge "$gone" -a "$(field off "$r")" = 0
	elif [ -n "$k" ]; then
		check "unmap-counters: single/unmap_batch=0: the kernel's runs of one, unmap_kernel_nobatch_partial +$(field kpartial "$r") >= $gone folios gone, foliotune's single +0" \
			test "$(field kpartial "$r")" -ge "$gone" -a "$(field single "$r")" = 0
	else
		check "unmap-counters: single/unmap_batch=$b: unmap_nobatch_off +$(field off "$r") >= $gone folios gone, partial +0, batches +0" \
			test "$(field off "$r")" -ge "$gone" -a "$(field partial "$r")" = 0 -a \
			"$(field batches "$r")" = 0 -a "$(field kbatches "$r")" = 0
	fi
	check "unmap-counters: single/unmap_batch=$b: ${k:+kernel }order0 +$(field ${k}order0 "$r") >= $gone folios gone" \
		test "$(field ${k}order0 "$r")" -ge "$gone"
	o0=$(field ${k}order0 "$r") single=$(field ${k}single "$r") calls=$(field calls "$r")
	rhs=$(( ${single:-0} - $(field ${k}small "$r" || echo 0) - $(field ${k}hugetlb "$r" || echo 0) ))
	check_eq "unmap-counters: single/unmap_batch=$b: identity (3): ${k:+kernel }order0 = single_ptes - nobatch_small - nobatch_hugetlb (deltas, over $calls unmap calls)" \
		"${o0:-none} yes" "$rhs $([ "${calls:-0}" -gt 0 ] && echo yes || echo no)"
done
echo 1 > "$FT_DEBUGFS/unmap_batch"

# ---- near: fault positions, order-0 tmpfs, 16K window ----
mkdir -p "$t" && mount -t tmpfs -o size=16m,huge=never ft-unmap-counters "$t" &&
	dd if=/dev/urandom of="$t/near" bs=1M count=1 status=none
echo 0 > "$FT_DEBUGFS/fault_around_auto"
echo 0 > "$FT_DEBUGFS/fault_around_mkold"
echo 16384 > "$FT_DEBUGFS/fault_around_bytes"
# Exact counts, so any other file read fault in the box meanwhile spoils
# an attempt (the counters are global): three attempts.
for i in 1 2 3; do
	r=$($py near "$t/near" 2>&1)
	log "near attempt $i: $r"
	nw=$(field windows "$r")
	[ "$(field seq_faults "$r") $(field seq_near "$r") $(field stride16_faults "$r") $(field stride16_near "$r")" = \
		"$nw $((${nw:-1} - 1)) 16 0" ] && break
done
check_eq "unmap-counters: near: a sequential reader's faults, one per 16K window ($nw, 64 or 65), are near but the first" \
	"yes $nw $((${nw:-1} - 1))" "$([ "${nw:-0}" -ge 64 ] && echo yes || echo no) $(field seq_faults "$r") $(field seq_near "$r")"
check_eq "unmap-counters: near: a stride-16 reader's 16 faults are not near" \
	"16 0" "$(field stride16_faults "$r") $(field stride16_near "$r")"
echo 65536 > "$FT_DEBUGFS/fault_around_bytes"

# ---- nonpresent: no device-exclusive entries on this kernel ----
if grep -qw make_device_exclusive_range /proc/kallsyms; then
	dx=present
else
	dx=absent
fi
calls=$(ft_counter unmap_calls)
check_eq "unmap-counters: nonpresent: make_device_exclusive_range $dx, unmap_nobatch_nonpresent 0 over $calls unmap calls" \
	"absent 0 yes" "$dx $(ft_counter unmap_nobatch_nonpresent) $([ "$calls" -gt 0 ] && echo yes || echo no)"

# ---- identity (3) since the load ----
id3() {
	cat "$FT_DEBUGFS/vmstat" > "$w/v"
	v() { awk -v n="$1" '$1 == n { print $2 }' "$w/v"; }
	l=$(v unmap_batch_order0)
	rsum=$(( $(v unmap_single_ptes) - $(v unmap_nobatch_small) - $(v unmap_nobatch_hugetlb) ))
	[ "$l" = "$rsum" ] && [ "$(v unmap_calls)" -gt 0 ] && [ "$l" -gt 0 ]
}
# a concurrent unmap may be read halfway: retry
for i in 1 2 3 4 5; do id3 && break; sleep 0.3; done
check "unmap-counters: identity (3) since load: unmap_batch_order0 $l = single_ptes - nobatch_small - nobatch_hugetlb $rsum (order0 > 0)" id3

# ---- ft_integrity -X: the checker fails what it corrupts ----
integ=("$FT_REPO/tests/progs/ft_integrity" -d "$FT_XFS" -b "$FT_RA" -s 8 -r pageout -T 180
	-c file-pte2m -c file-ra-shared-dirty -U 1)
n=$("${integ[@]}" -P)
"${integ[@]}" -X > "$w/x" 2>&1
sed -n 's/^\(not \)\{0,1\}ok - /# -X: &/p' "$w/x"
bad=$(grep -c '^not ok - .*first mismatch' "$w/x")
good=$(grep -c '^ok - ' "$w/x")
check_eq "unmap-counters: ft_integrity -X: each of its ${n:-?} cases fails on the corrupted word (cases, failed with a mismatch, passed)" \
	"yes ${n:-?} 0" "$([ "${n:-0}" -gt 0 ] && echo yes || echo none) $bad $good"

check "unmap-counters: unload" ft_unload
