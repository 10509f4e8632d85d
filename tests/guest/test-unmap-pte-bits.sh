#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Batched unmap keeps every PTE bit and unmaps every PTE it counts, in three
# scenarios where a batching bug would lose data or protection without
# any kernel report (tests/guest/pte-bits/pte_bits.py says how each works):
#   partial   a folio unmapped in two runs (a hole between them) is left
#             wholly unmapped, never half
#   dirty     shared pages dirtied only through their PTEs survive pageout
#   lazyfree  a lazyfree folio put back keeps its read-only PTEs read-only
#             and not soft-dirty (upstream's lazyfree restore bug), and its
#             written PTEs writable, soft-dirty and their data
#   tlb       no page is read through a translation that outlived its PTE
#             (a missing TLB flush) after pageout
#   swap      order-0 anon pages swapped out keep soft-dirty in their swap
#             entries
# dirty, lazyfree and tlb run once per variant of the unmap path: order-0
# folios (the copy's per-PTE code), shmem and lazyfree runs, file runs
# with fault-around tracking off and on (fault_around_mkold=1).  Each case
# first checks from foliotune's counters that the variant's path ran.
. "$(dirname "$0")/../lib.sh"
py="python3 $(dirname "$0")/pte-bits/pte_bits.py"
thp=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
cg=/sys/fs/cgroup/ft-pte-bits
echo "1..54"

# field NAME LINE: the value of NAME=N in LINE
field() { [[ " $2" =~ \ $1=([0-9-]+) ]] && echo "${BASH_REMATCH[1]}"; }
anon0=$(cat "$thp/enabled" | sed 's/.*\[\(.*\)\].*/\1/')
shmem0=$(cat "$thp/shmem_enabled" | sed 's/.*\[\(.*\)\].*/\1/')
cleanup() {
	echo "$anon0" > "$thp/enabled"
	echo "$shmem0" > "$thp/shmem_enabled"
	[ -d "$cg" ] && rmdir "$cg"
	rm -f "$FT_XFS/ft-pte-bits"
	ft_zram_swapoff
	return 0
}
trap cleanup EXIT

ft_unload
check "pte-bits: load foliotune" ft_load
check "pte-bits: unmap_batch=1" sh -c "echo 1 > $FT_DEBUGFS/unmap_batch"

# ---- partial: xfs large folios from read faults (Linux 7: MADV_HUGEPAGE),
# page cache charged to $cg
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$cg"
f=$FT_XFS/ft-pte-bits
dd if=/dev/urandom of="$f" bs=1M count=8 status=none && sync && echo 3 > /proc/sys/vm/drop_caches
# Linux 7's read faults make no large folio of a file: other ways, here
# and in tlb file (pte_bits.py's "linux7")
l7=
ft_linux7 && l7=linux7
r=$(sh -c "echo \$\$ > $cg/cgroup.procs && exec $py partial $f $l7" 2>&1)
log "partial: $r"
check "pte-bits: partial: ran ($r)" test -n "$(field mixed "$r")"
check "pte-bits: partial: large folios, each with a hole" test "$(field holes "$r")" -gt 0
check "pte-bits: partial: reclaim batched and unmapped holed folios (premise)" \
	test "$(field batches "$r")" -gt 0 -a "$(field holed_unmapped "$r")" -gt 0
check_eq "pte-bits: partial: no folio left half mapped" 0 "$(field mixed "$r")"

# ---- dirty: anon shmem, dirty only in the PTEs
# dirty NAME: run the dirty case, NAME the variant in the check names
dirty() {
	r=$($py dirty 2>&1)
	log "dirty$1: $r"
	check "pte-bits: dirty$1: ran ($r)" test -n "$(field bad "$r")"
}
echo always > "$thp/shmem_enabled"
dirty ""
check "pte-bits: dirty: pageout unmapped them in 16-PTE batches (premise)" \
	test "$(field order4 "$r")" -gt 0 -a "$(field unmapped "$r")" -gt 0
check_eq "pte-bits: dirty: every page reads back what was written" 0 "$(field bad "$r")"
echo 1 > "$FT_DEBUGFS/fault_around_mkold"
dirty " tracking on"
check "pte-bits: dirty tracking on: 16-PTE batches, each PTE counted by tracking (premise)" \
	test "$(field order4 "$r")" -gt 0 -a "$(field unmapped "$r")" -gt 0 \
	-a "$(field tracked "$r")" -ge "$(field unmapped "$r")"
check_eq "pte-bits: dirty tracking on: every page reads back what was written" 0 "$(field bad "$r")"
echo 0 > "$FT_DEBUGFS/fault_around_mkold"
echo never > "$thp/shmem_enabled"
dirty " order-0"
check "pte-bits: dirty order-0: pageout unmapped order-0 folios (premise)" \
	test "$(field small "$r")" -gt 0 -a "$(field unmapped "$r")" -gt 0
check_eq "pte-bits: dirty order-0: every page reads back what was written" 0 "$(field bad "$r")"
echo "$shmem0" > "$thp/shmem_enabled"

# ---- lazyfree: anon folios, half of each 64K written again after MADV_FREE
echo always > "$thp/enabled"
r=$($py lazyfree 2>&1)
log "lazyfree: $r"
n=$(field folios "$r")
check "pte-bits: lazyfree: ran ($r)" test -n "$n"
n=${n:-0}
check "pte-bits: lazyfree: reclaim put back runs (premise)" test "$(field restored "$r")" -gt 0
check_eq "pte-bits: lazyfree: exactly the written half was put back" $((8 * n)) "$(field restored "$r")"
check_eq "pte-bits: lazyfree: the other half still mapped" $((8 * n)) "$(field second_half_mapped "$r")"
check_eq "pte-bits: lazyfree: ... and not soft-dirty" 0 "$(field soft_dirty_leaked "$r")"
check "pte-bits: lazyfree: ... and read-only (a write faults: $(field write_faults "$r") faults, $n folios)" \
	test "$(field write_faults "$r")" -ge "$n" -a "$n" -gt 0
check_eq "pte-bits: lazyfree: the written half reads back what was written" 0 "$(field lost "$r")"
check_eq "pte-bits: lazyfree: ... and is soft-dirty" $((8 * n)) "$(field first_soft_dirty "$r")"
# writing a page put back read-only faults once: fewer faults than half
# the pages (the interpreter faults a few times on its own)
check "pte-bits: lazyfree: ... and writable ($(field rewrite_faults "$r") faults)" \
	test "$(field rewrite_faults "$r")" -lt $((4 * n))
check "pte-bits: lazyfree: ... and young where read again ($(field young "$r") young)" \
	test "$(field young "$r")" -ge $((7 * n)) -a "$n" -gt 0
echo never > "$thp/enabled"
r=$($py lazyfree 2>&1)
log "lazyfree order-0: $r"
n=$(field folios "$r")
check "pte-bits: lazyfree order-0: ran ($r)" test -n "$n"
n=${n:-0}
check "pte-bits: lazyfree order-0: reclaim put back order-0 folios (premise)" \
	test "$(field restored "$r")" -gt 0 -a "$(field small "$r")" -gt 0
check_eq "pte-bits: lazyfree order-0: exactly the written pages were put back" $((8 * n)) "$(field restored "$r")"
check_eq "pte-bits: lazyfree order-0: they read back what was written" 0 "$(field lost "$r")"
check_eq "pte-bits: lazyfree order-0: ... and are soft-dirty" $((8 * n)) "$(field first_soft_dirty "$r")"
check "pte-bits: lazyfree order-0: ... and writable ($(field rewrite_faults "$r") faults)" \
	test "$(field rewrite_faults "$r")" -lt $((4 * n))
check "pte-bits: lazyfree order-0: ... and young where read again ($(field young "$r") young)" \
	test "$(field young "$r")" -ge $((7 * n)) -a "$n" -gt 0
echo "$anon0" > "$thp/enabled"

# ---- tlb: read, pageout, new contents by another way, read again
# tlb NAME KIND [FILE]: run the tlb case three times, r the sums of its
# fields (empty if a run printed none); the premise is the caller's.
# Whether a stale translation survives to the read is up to the emulated
# TLB (every access in between may evict one): a single run of a planted
# missing flush now and then reads none stale.
tlb() {
	local name=$1 run key line one
	shift
	r=
	for run in 1 2 3; do
		one=$($py tlb "$@" 2>&1)
		log "tlb $name, run $run: $one"
		[ -n "$(field stale "$one")" ] || { r=; break; }
		line=
		for key in pages unmapped stale moved batches small young old; do
			line+="$key=$(( ${r:+$(field "$key" "$r") + }$(field "$key" "$one") )) "
		done
		r=$line
	done
	check "pte-bits: tlb $name: ran, every page unmapped, some back at another address ($r)" \
		test -n "$(field stale "$r")" -a "$(field unmapped "$r")" = "$(field pages "$r")" \
		-a "$(field moved "$r")" -gt 0
}
# stale NAME: the check
stale() {
	check_eq "pte-bits: tlb $1: no page read through a stale translation" 0 "$(field stale "$r")"
}
echo always > "$thp/enabled"
tlb lazyfree lazyfree
check "pte-bits: tlb lazyfree: batched (premise)" test "$(field batches "$r")" -gt 0
stale lazyfree
echo "$anon0" > "$thp/enabled"
echo always > "$thp/shmem_enabled"
tlb shmem shmem
check "pte-bits: tlb shmem: batched (premise)" test "$(field batches "$r")" -gt 0
stale shmem
echo never > "$thp/shmem_enabled"
tlb order-0 shmem
check "pte-bits: tlb order-0: order-0 folios (premise)" test "$(field small "$r")" -gt 0
stale order-0
echo "$shmem0" > "$thp/shmem_enabled"
tlb file file "$f" $l7
check "pte-bits: tlb file: batched (premise)" test "$(field batches "$r")" -gt 0
stale file
echo 1 > "$FT_DEBUGFS/fault_around_mkold"
tlb "file tracking on" file "$f" $l7
check "pte-bits: tlb file tracking on: batched, tracked (premise)" \
	test "$(field batches "$r")" -gt 0 -a "$(field young "$r")" -gt 0
stale "file tracking on"
check_eq "pte-bits: tlb file tracking on: every unmapped PTE counted young (all were read)" \
	"$(field unmapped "$r") 0" "$(field young "$r") $(field old "$r")"
echo 0 > "$FT_DEBUGFS/fault_around_mkold"

# ---- swap: order-0 anon pages to a zram swap, soft-dirty in the entries
check "pte-bits: swap: a zram swap device" ft_zram_swap 64M
echo never > "$thp/enabled"
r=$($py swap 2>&1)
log "swap: $r"
check "pte-bits: swap: order-0 pages swapped out ($r) (premise)" \
	test "$(field swapped "$r")" -gt 0 -a "$(field small "$r")" -gt 0
check_eq "pte-bits: swap: the written pages' swap entries are soft-dirty" \
	"$(field even "$r")" "$(field sd_even "$r")"
check_eq "pte-bits: swap: ... and only theirs" 0 "$(field sd_odd "$r")"
echo "$anon0" > "$thp/enabled"
ft_zram_swapoff

bad=$(dmesg | grep -E 'BUG|Oops|WARNING|Bad page')
check_eq "pte-bits: no kernel errors" "" "$bad"
check "pte-bits: unload" ft_unload
