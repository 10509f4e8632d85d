#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mm-selftests.sh OUTDIR [SET] - run the kernel's mm selftests (built on the
# host by build-mm-selftests.sh) inside the test box, one after another,
# each under a timeout.  Runs as root in the guest; knows nothing about
# foliotune: reliability/peer.sh runs it once stock and once with the
# module loaded and compares.
#
# SET: ci (default; what fits a CI boot of the TCG test box) or long (adds
# the slow and memory-hungry ones).  FT_MM_TESTS="name ..." picks tests by
# name from the table instead.  mm-selftests.sh -n [SET] prints how many
# tests would run (a plan), nothing else.
#
# Writes OUTDIR/NAME.out (the test's output) and one line per test to
# OUTDIR/summary:  NAME RC SECONDS  (RC 0 pass, 4 skip, 124 timeout, else
# fail); the per-subtest results are the "ok N ..."/"not ok N ..." lines in
# the .out files (kselftest TAP).
set -u
out=${1:?usage: mm-selftests.sh OUTDIR|-n [ci|long]}
set_name=${2:-ci}
repo=${FT_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${FT_MM_BIN:-$repo/build/mm-selftests/bin}
xfs=${FT_XFS:-/mnt/ft-xfs}

# NAME  SET  TIMEOUT  COMMAND...   (run from $bin; the NAME is what results use)
# Chosen for what they drive through try_to_unmap_one and its neighbours:
# swap-out and MADV_PAGEOUT of anon/shmem/file THP and mTHP (cow, khugepaged,
# uffd, pagemap), splits of file folios (split_huge_page_test on xfs),
# pinned pages (gup_longterm, hugetlb_dio), hwpoison of hugetlb pages
# (hugetlb-read-hwpoison), mlock, mremap, KSM, lazyfree/droppable.
# hugetlb-read-hwpoison is in the long set only: it dies with SIGBUS on the
# stock kernel in the test box, so in CI it would judge nothing
# (reliability/faults.sh poisons hugetlb, file and anon pages with
# foliotune loaded instead).  hugetlb_fault_after_madv takes 75-120 s in
# the box, more on a busy host: its bound is 300 s.  mremap_test runs with
# address randomization off (setarch -R): it maps at fixed low addresses,
# and the heap of a non-PIE binary starts anywhere in the 1 GiB above it,
# so one run in some tens fails a subtest ("Failed to map dest preamble
# region: File exists"), stock or not; without randomization both runs
# see the same layout.
TESTS='
cow                         ci   420 ./cow
gup_longterm                ci   240 ./gup_longterm
madv_populate               ci   120 ./madv_populate
khugepaged-madvise-anon     ci   240 ./khugepaged madvise:anon
khugepaged-madvise-shmem    ci   240 ./khugepaged madvise:shmem
khugepaged-madvise-anon-s2  long 300 ./khugepaged -s 2 madvise:anon
khugepaged-all-anon         long 900 ./khugepaged all:anon
split_huge_page_test        ci   300 ./split_huge_page_test @XFS@
mremap_test                 ci   300 setarch -R ./mremap_test
mremap_dontunmap            ci   120 ./mremap_dontunmap
uffd-unit-tests-wp          ci   300 ./uffd-unit-tests -f wp-
uffd-unit-tests             long 900 ./uffd-unit-tests
uffd-stress-anon            ci   240 ./uffd-stress anon 20 16
uffd-stress-shmem           long 240 ./uffd-stress shmem 20 16
uffd-stress-shmem-private   long 240 ./uffd-stress shmem-private 20 16
uffd-stress-hugetlb         long 300 ./uffd-stress hugetlb 64 32
memfd_test                  ci   120 ./memfd_test
ksm_functional_tests        long 240 ./ksm_functional_tests
mlock2-tests                ci   120 ./mlock2-tests
on-fault-limit              ci   60  setpriv --reuid=65534 --regid=65534 --clear-groups ./on-fault-limit
mkdirty                     ci   120 ./mkdirty
soft-dirty                  long 120 ./soft-dirty
pagemap_ioctl               long 300 ./pagemap_ioctl
map_fixed_noreplace         ci   60  ./map_fixed_noreplace
map_populate                ci   60  ./map_populate
mrelease_test               ci   120 ./mrelease_test
mdwe_test                   long 60  ./mdwe_test
mseal_test                  long 120 ./mseal_test
droppable                   long 300 ./droppable
transhuge-stress            long 120 ./transhuge-stress -d 20
hugepage-mmap               ci   60  ./hugepage-mmap
hugepage-shm                ci   60  ./hugepage-shm
map_hugetlb                 ci   60  ./map_hugetlb
hugepage-mremap             ci   120 ./hugepage-mremap
hugepage-vmemmap            ci   60  ./hugepage-vmemmap
hugetlb-madvise             ci   120 ./hugetlb-madvise
hugetlb_dio                 ci   120 ./hugetlb_dio
hugetlb_fault_after_madv    ci   300 ./hugetlb_fault_after_madv
hugetlb_madv_vs_map         ci   120 ./hugetlb_madv_vs_map
hugetlb-read-hwpoison       long 180 ./hugetlb-read-hwpoison
thuge-gen                   long 120 ./thuge-gen
compaction_test             long 600 ./compaction_test
'

# in_set NAME SET: whether this run includes the test.
in_set() {
	if [ -n "${FT_MM_TESTS:-}" ]; then
		case " $FT_MM_TESTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac
	fi
	[ "$set_name" != ci ] || [ "$2" = ci ]
}
if [ "$out" = -n ]; then
	n=0
	while read -r name set _; do
		[ -n "$name" ] && in_set "$name" "$set" && n=$((n + 1))
	done <<< "$TESTS"
	echo "$n"
	exit 0
fi
mkdir -p "$out"
: > "$out/summary"

if [ ! -x "$bin/cow" ]; then
	echo "mm-selftests: no binaries in $bin (run tests/mm-selftests/build-mm-selftests.sh on the host)" >&2
	exit 2
fi

# What run_vmtests.sh sets up: 256 MB of free hugetlb pages, SysV shm
# limits.  "Free": pages poisoned by an earlier run (hugetlb-read-hwpoison)
# stay allocated in the pool, so the second run of the same boot tops it up.
ensure_free_huge() {
	local free total
	free=$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)
	total=$(awk '/^HugePages_Total/ { print $2 }' /proc/meminfo)
	[ "$free" -ge "$1" ] && return 0
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > /proc/sys/vm/compact_memory
	echo $((total + $1 - free)) > /proc/sys/vm/nr_hugepages
}
nr_huge0=$(cat /proc/sys/vm/nr_hugepages)
shmmax0=$(cat /proc/sys/kernel/shmmax) shmall0=$(cat /proc/sys/kernel/shmall)
echo 268435456 > /proc/sys/kernel/shmmax
echo 4194304 > /proc/sys/kernel/shmall
# Every writable THP setting (enabled, defrag, use_zero_page, shmem,
# khugepaged/*, each mTHP size), as written back: a test that dies before
# restoring what it changed (khugepaged on an abort) must not change the
# conditions of the tests after it, nor of the second run.
thp_saved=$(mktemp)
find /sys/kernel/mm/transparent_hugepage -type f -perm -u+w 2>/dev/null |
	while read -r f; do
		v=$(cat "$f" 2>/dev/null) || continue
		case $v in *"["*) v=${v#*[}; v=${v%%]*} ;; esac
		printf '%s %s\n' "$f" "$v"
	done > "$thp_saved"
thp_restore() {
	local f v
	while read -r f v; do
		[ "$(sed 's/.*\[\(.*\)\].*/\1/' "$f" 2>/dev/null)" = "$v" ] ||
			echo "$v" > "$f" 2>/dev/null
	done < "$thp_saved"
}

# Run from a directory on the scratch xfs: some tests create files in
# their working directory (gup_longterm's "local tmpfile"), which the 9p
# share holding the binaries does not support well.
cwd=$xfs/ft-mm-selftests
[ -d "$xfs" ] || cwd=/tmp/ft-mm-selftests
mkdir -p "$cwd" && chmod 1777 "$cwd"
cd "$cwd" || exit 2
while read -r name set tmo cmd; do
	[ -n "$name" ] || continue
	in_set "$name" "$set" || continue
	# These two need exactly one free huge page (else they skip); the
	# others 128, topped up before a test, not after one: growing the
	# pool between the two (each huge page compacted for and cleared,
	# under TCG) took 19 s where it otherwise takes 4, and once stalled
	# the box's CPU 157 s on the stock kernel, a soft lockup that fails
	# the console gate.  In the ci set the two run last, so a run grows
	# the pool once, at its start.
	case $name in
	hugetlb_fault_after_madv|hugetlb_madv_vs_map)
		echo $(( $(awk '/^HugePages_Total/ { print $2 }' /proc/meminfo) -
			 $(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo) + 1 )) > /proc/sys/vm/nr_hugepages ;;
	*)
		ensure_free_huge 128 ;;
	esac
	cmd=${cmd//@XFS@/$xfs}
	cmd=${cmd//.\//$bin/}
	tmo=$(( tmo * ${FT_MM_TIMEOUT_SCALE:-1} ))
	echo "# mm-selftest $name: $cmd (timeout $tmo s)"
	[ -w /dev/kmsg ] && echo "foliotune-test: mm-selftest $name start" > /dev/kmsg
	t0=$(date +%s)
	# shellcheck disable=SC2086  # the command line is split on purpose
	timeout -k 10 "$tmo" $cmd > "$out/$name.out" 2>&1 < /dev/null
	rc=$?
	t=$(( $(date +%s) - t0 ))
	echo "$name $rc $t" >> "$out/summary"
	echo "# mm-selftest $name: exit $rc after $t s"
	# Tests that change THP settings restore them themselves; make sure.
	thp_restore
done <<< "$TESTS"

cd / && rm -rf "$cwd"
rm -f "$thp_saved"
echo "$nr_huge0" > /proc/sys/vm/nr_hugepages
echo "$shmmax0" > /proc/sys/kernel/shmmax
echo "$shmall0" > /proc/sys/kernel/shmall
exit 0
