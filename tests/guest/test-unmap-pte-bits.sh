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
#             and not soft-dirty (upstream's lazyfree restore bug)
# Each case first checks from foliotune's counters that batching ran.
. "$(dirname "$0")/../lib.sh"
py="python3 $(dirname "$0")/pte-bits/pte_bits.py"
thp=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
cg=/sys/fs/cgroup/ft-pte-bits
echo "1..17"

# field NAME LINE: the value of NAME=N in LINE
field() { [[ " $2" =~ \ $1=([0-9-]+) ]] && echo "${BASH_REMATCH[1]}"; }
anon0=$(cat "$thp/enabled" | sed 's/.*\[\(.*\)\].*/\1/')
shmem0=$(cat "$thp/shmem_enabled" | sed 's/.*\[\(.*\)\].*/\1/')
cleanup() {
	echo "$anon0" > "$thp/enabled"
	echo "$shmem0" > "$thp/shmem_enabled"
	[ -d "$cg" ] && rmdir "$cg"
	rm -f "$FT_XFS/ft-pte-bits"
	return 0
}
trap cleanup EXIT

ft_unload
check "pte-bits: load foliotune" ft_load
check "pte-bits: unmap_batch=1" sh -c "echo 1 > $FT_DEBUGFS/unmap_batch"

# ---- partial: xfs large folios from read faults, page cache charged to $cg
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$cg"
f=$FT_XFS/ft-pte-bits
dd if=/dev/urandom of="$f" bs=1M count=8 status=none && sync && echo 3 > /proc/sys/vm/drop_caches
r=$(sh -c "echo \$\$ > $cg/cgroup.procs && exec $py partial $f" 2>&1)
log "partial: $r"
check "pte-bits: partial: ran ($r)" test -n "$(field mixed "$r")"
check "pte-bits: partial: large folios, each with a hole" test "$(field holes "$r")" -gt 0
check "pte-bits: partial: reclaim batched and unmapped holed folios (premise)" \
	test "$(field batches "$r")" -gt 0 -a "$(field holed_unmapped "$r")" -gt 0
check_eq "pte-bits: partial: no folio left half mapped" 0 "$(field mixed "$r")"

# ---- dirty: anon shmem 64K folios, dirty only in the PTEs
echo always > "$thp/shmem_enabled"
r=$($py dirty 2>&1)
log "dirty: $r"
check "pte-bits: dirty: ran ($r)" test -n "$(field bad "$r")"
check "pte-bits: dirty: pageout unmapped them in 16-PTE batches (premise)" \
	test "$(field order4 "$r")" -gt 0 -a "$(field unmapped "$r")" -gt 0
check_eq "pte-bits: dirty: every page reads back what was written" 0 "$(field bad "$r")"
echo "$shmem0" > "$thp/shmem_enabled"

# ---- lazyfree: 64K anon folios, half of each written again after MADV_FREE
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
echo "$anon0" > "$thp/enabled"

bad=$(dmesg | grep -E 'BUG|Oops|WARNING|Bad page')
check_eq "pte-bits: no kernel errors" "" "$bad"
check "pte-bits: unload" ft_unload
