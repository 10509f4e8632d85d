#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bpftrace tools in tools/bpftrace/ start, attach to the module's own
# symbols, print their sections for a small workload, and exit; and what
# they print names the workload's own driver (a MADV_PAGEOUT run shows up
# under pageout, memory.reclaim under memcg, a 16K window as 4 pages), so a
# tool that attributes wrongly fails here.
. "$(dirname "$0")/../lib.sh"
set -uo pipefail
w=$(mktemp -d)
CG=/sys/fs/cgroup/ft-bt
cleanup() {
	[ -d "$CG" ] && { cat "$CG/cgroup.procs" 2>/dev/null | while read -r p; do
		echo "$p" > /sys/fs/cgroup/cgroup.procs; done; rmdir "$CG"; }
	rm -rf "$w"
}
trap cleanup EXIT
plan 19
progs=$FT_REPO/tests/progs
bt=$FT_REPO/tools/bpftrace

ft_unload
ft_load || { not_ok "bpftrace: load foliotune" "insmod failed"; exit 0; }
dir=$FT_XFS; mountpoint -q "$dir" || dir=$w

# expect TOOL NAME EXTENDED-REGEX: one result line per expected output line.
expect() {
	if grep -qE "$3" "$w/$1.out"; then
		ok "bpftrace: $1.bt $2"
	else
		# show the lines of the same map (or the end of the output)
		local near
		near=$(grep -E "^${3:1:6}" "$w/$1.out" | head -4 | tr '\n' '|')
		[ -n "$near" ] || near=$(grep -v '^$' "$w/$1.out" | tail -3 | tr '\n' '|')
		not_ok "bpftrace: $1.bt $2" "no line matching '$3'; output: $near"
	fi
}

# run TOOL WORKLOAD-SCRIPT [ARGS]: bpftrace -c takes one command line
# without shell quoting, so each workload is a script file.
run() {
	local tool=$1 script=$2; shift 2
	timeout 300 bpftrace "$bt/$tool.bt" "$@" -c "/bin/bash $script" > "$w/$tool.out" 2>&1
	check_eq "bpftrace: $tool.bt exits 0" 0 "$?"
	# keep the output with the run's logs (the guest's /tmp is not shared)
	[ -n "${FT_RUNDIR:-}" ] && cp "$w/$tool.out" "$FT_RUNDIR/bpftrace-$tool.out"
}

# ---- unmap-latency.bt: the seed MADV_PAGEOUT benchmark in both modes ----
# Linux 7's mmap read-around allocates order-0 folios: large ones there
# come from MADV_HUGEPAGE, PTE-mapped 64 KiB past 2 MiB (order 9 in two
# page tables)
pob_large=
ft_linux7 && pob_large="-H -U 64"
cat > "$w/unmap.sh" <<EOF
#!/bin/bash
echo 2 > $FT_DEBUGFS/unmap_batch
$progs/ft_pageout_bench -d $dir -t 2 -n 1 $pob_large
echo 1 > $FT_DEBUGFS/unmap_batch
$progs/ft_pageout_bench -d $dir -t 2 -n 1 $pob_large
EOF
run unmap-latency "$w/unmap.sh" test
echo 1 > "$FT_DEBUGFS/unmap_batch"
expect unmap-latency "histograms batched calls" '^@ns\[test, batched, [0-9]+\]:'
expect unmap-latency "counts batched calls of large folios" '^@calls\[test, batched, [1-9]\]: [1-9]'
expect unmap-latency "counts per-PTE calls of large folios (unmap_batch=2: one PTE at a time)" '^@calls\[test, per-PTE, [1-9]\]: [1-9]'
expect unmap-latency "averages per mode" '^@avg_ns\[test, per-PTE, [0-9]+\]: [1-9]'

# ---- reclaim-sources.bt: MADV_PAGEOUT, memory.reclaim, THP split, memory.max charge ----
"$progs/ft_seqread" -d "$dir" -s 32 -S > /dev/null	# create the file outside the memcg
cat > "$w/reclaim.sh" <<EOF
#!/bin/bash
$progs/ft_pageout_bench -d $dir -t 1 -n 1
$progs/ft_reclaim_bench -d $dir -s 16
# order-9 file folios split through debugfs split_huge_pages (file folios
# are unmapped for the split), then reclaimed by MADV_PAGEOUT
$progs/ft_integrity -c file-split -r pageout -s 8 -d $dir
# a cold 32 MiB mapped read in an 8 MiB memcg: charges reclaim its own mapped pages
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p $CG
echo 8M > $CG/memory.max
( echo \$BASHPID > $CG/cgroup.procs && exec $progs/ft_seqread -d $dir -s 32 -p seq -n 1 -c )
EOF
run reclaim-sources "$w/reclaim.sh"
expect reclaim-sources "attributes MADV_PAGEOUT to pageout" '^@calls\[pageout MADV_PAGEOUT\]: [1-9]'
expect reclaim-sources "counts MADV_PAGEOUT pages" '^@pages\[pageout MADV_PAGEOUT\]: [1-9]'
expect reclaim-sources "attributes memory.reclaim to memcg" '^@calls\[memcg memory.reclaim\]: [1-9]'
expect reclaim-sources "attributes a charge over memory.max to memcg" '^@calls\[memcg charge over max\]: [1-9]'
expect reclaim-sources "attributes a THP split to split" '^@calls\[split\]: [1-9]'
expect reclaim-sources "names the split's outer driver" '^@split_under\[[a-zA-Z]'

# ---- faultaround.bt: cold sequential reads at 64K, then at 16K ----
"$progs/ft_seqread" -d "$dir" -s 8 -S > /dev/null
cat > "$w/fa.sh" <<EOF
#!/bin/bash
echo 65536 > $FT_DEBUGFS/fault_around_bytes
$progs/ft_seqread -d $dir -s 8 -p seq -n 1 -c
echo 16384 > $FT_DEBUGFS/fault_around_bytes
$progs/ft_seqread -d $dir -s 8 -p seq -n 1 -c
echo 65536 > $FT_DEBUGFS/fault_around_bytes
EOF
run faultaround "$w/fa.sh"
expect faultaround "counts events" '^@events\[total\]: [1-9]'
expect faultaround "sees the 64K window (16 pages)" '^@events_by_knob\[16\]: [1-9]'
expect faultaround "sees the 16K window (4 pages)" '^@events_by_knob\[4\]: [1-9]'
expect faultaround "counts pages mapped around" '^@mapped_total\[pages\]: [1-9]'
expect faultaround "counts the reader's major faults" '^@major\[[0-9]+, ft_seqread\]: [1-9]'
expect faultaround "counts the reader's minor faults" '^@minor\[[0-9]+, ft_seqread\]: [1-9]'
ft_unload
