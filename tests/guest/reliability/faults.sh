#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability: stress with faults.  Its own boot (tests/run.sh:
# guest_suite reliability-faults -t 1500 -- tests/guest/reliability/faults.sh).
#
#  1. knobs flipped at random every 10-100 ms while ft_integrity runs
#     (data integrity, counter identities), every knob; both unmap_batch
#     modes ran (unmap_batches and unmap_nobatch_off moved);
#  2. (load/unload cycles under reclaim: reliability/cycles.sh);
#  3. madvise(MADV_HWPOISON) with the module loaded: a clean, a dirty (under
#     writeback) and a pinned xfs large-folio page, a plain and a pinned anon
#     THP page, a private and a shared hugetlb page; pinned and writeback
#     folios stay unsplit (EHWPOISON) and are then reclaimed, so the
#     replacement unmaps large folios with PG_has_hwpoisoned; its HWPoison,
#     hugetlb and small-folio paths must run (counters) and the kernel survive
#     (a kernel whose try_to_unmap() gives hugetlb folios an rmap_one of
#     their own, try_to_unmap_poisoned_hugetlb_one() from Linux 7.3, never
#     hands them to the replacement: there a kprobe proves that one ran);
#  4. compound-page invariants: hugetlbfs, large file and anon folios
#     pinned by O_DIRECT, vmsplice and io_uring fixed buffers while reclaim
#     and poison run around them; swapoff under load; memcg removal; pool
#     shrink to 0 - no "Bad page state", no leaked counters.
#
# FT_REL_MODE=long (tests/soak.sh): more cases, longer pins.
# FT_REL_NOMODULE=1 runs 3 and 4 on the stock kernel (to tell a foliotune
# bug from a kernel one when something fails).
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"

if [ "$FT_REL_MODE" = long ]; then
	pin_s=60
	cases="file-* tmpfs-* shmem-mthp-64k memfd-mthp-64k anon-* lazyfree-*"
else
	pin_s=15
	cases="file-pte2m file-thp-shared-dirty file-fork-private-dirty file-mremap-part file-uffd-wp file-mlock-part file-truncate-race tmpfs-pte2m anon-mthp64-fork lazyfree-redirty"
fi
nomod=${FT_REL_NOMODULE:-0}
xfs=$FT_XFS
w=$(mktemp -d)
T=/sys/kernel/tracing
hugetlb_probe=
cleanup() {
	knob_flipper_stop
	if [ -n "$hugetlb_probe" ]; then
		echo 0 > "$T/events/ftfaults/enable"
		echo "-:ftfaults/$hugetlb_probe" >> "$T/kprobe_events"
	fi
	rm -rf "$w"
}
trap cleanup EXIT
case_args=()
for c in $cases; do case_args+=(-c "$c"); done
# the box's hung-task panic and zram; part 1 (module only): the
# ft_integrity cases and 7 lines; part 2: 7 poisons, 1 line each (2 with
# the module) and 3; part 3: 10 lines (11 with the module's unload).
if [ "$nomod" = 0 ]; then
	plan $((2 + $("$FT_REPO/tests/progs/ft_integrity" -r memcg,pageout "${case_args[@]}" -P) + 7 + 17 + 11))
else
	plan $((2 + 10 + 10))
fi

if [ ! -x "$FT_RELBIN" ]; then
	not_ok "faults: ft_rel built" "$FT_RELBIN missing (make progs)"
	exit 0
fi
# Stuck I/O under swapoff and writeback ends the boot at the first report
# (harness/vm/vmrun.sh), not at the boot's timeout.
check_eq "faults: a task blocked for 120 s panics the box (kernel.hung_task_panic)" \
	1 "$(cat /proc/sys/kernel/hung_task_panic)"
check "faults: zram swap" ft_zram_swap 1G
ft_unload
for d in "$FT_CG"/ft-*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done

# ---- 1. random knob flips under ft_integrity ---------------------------------

if [ "$nomod" = 0 ]; then
	ft_load || not_ok "faults: load" "insmod failed"
	mark=$(dmesg_mark)
	ft_counters_snapshot "$w/c0"
	# shellcheck disable=SC2086  # a list of knob names
	knob_flipper_start "$w/flips" $FT_REL_FLIP_SAFE
	t0=$(date +%s)
	"$FT_REPO/tests/progs/ft_integrity" -d "$xfs" -b /sys/block/vda/queue/read_ahead_kb \
		-s 8 -r memcg,pageout -T 240 -U flip "${case_args[@]}" > "$w/integ" 2>&1
	rc=$?
	knob_flipper_stop
	sed -n -e 's|^ok - |ok - faults: flip-random/|p' -e 's|^not ok - |not ok - faults: flip-random/|p' "$w/integ"
	grep -q '^not ok' "$w/integ" || [ "$rc" = 0 ] ||
		not_ok "faults: flip-random: ft_integrity" "exit $rc without a failing case: $(tail -3 "$w/integ" | tr '\n' '|')"
	grep '^refused' "$w/flips" | head -5 | sed 's/^/# /'
	# (no process substitution: the test box's /dev has no /dev/fd)
	tail -1 "$w/flips" > "$w/flips.last"
	read -r _ flips _ refused _ rounds _ period < "$w/flips.last"
	echo "# flip-random: $flips knob writes ($FT_REL_FLIP_SAFE) in $rounds rounds over $(( $(date +%s) - t0 )) s, mean period $period ms (random 10-100 ms)"
	check_eq "faults: flip-random: no valid knob write refused" 0 "${refused:-?}"
	if [ "${flips:-0}" -gt 0 ]; then ok "faults: flip-random: knobs flipped ($flips writes)"
	else not_ok "faults: flip-random: knobs flipped" "no write happened"; fi
	# The identities of module/unmap.c, on the deltas of this part, and
	# both of unmap_batch's modes ran (the knob flips with the others).
	echo "# flip-random: counters moved: $(ft_counter_moves "$w/c0")"
	rel_identities "faults: flip-random" "$w/c0" order0
	rel_batched "faults: flip-random" "$w/c0" flip
	check_kernel_clean "faults: flip-random: kernel log clean" "$mark"
	ft_unload
fi

# ---- 3. memory failure -----------------------------------------------------------

if [ "$nomod" = 0 ]; then
	ft_load || not_ok "faults: load for hwpoison" "insmod failed"
	echo 1 > "$FT_DEBUGFS/unmap_batch"
fi
# Linux 7.3's hugetlb rmap_one, which foliotune does not replace: a kprobe
# counts its calls (kprobe_profile), the proof its path ran
hugetlb_own=
if [ "$nomod" = 0 ] && grep -qw try_to_unmap_poisoned_hugetlb_one /proc/kallsyms; then
	hugetlb_own=1
	mountpoint -q "$T" || mount -t tracefs none "$T"
	echo "p:ftfaults/ft_hugetlb_unmap try_to_unmap_poisoned_hugetlb_one" >> "$T/kprobe_events" &&
		echo 1 > "$T/events/ftfaults/enable" && hugetlb_probe=ft_hugetlb_unmap
fi
# hugetlb_hits: the kprobe's hits so far
hugetlb_hits() { awk -v p="$hugetlb_probe" '$1 == p { print $2 }' "$T/kprobe_profile"; }
mark=$(dmesg_mark)
echo 16 > /proc/sys/vm/nr_hugepages
thp0=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)
echo always > /sys/kernel/mm/transparent_hugepage/enabled
# kind  counter-that-must-move (what the replacement counts for it)
while read -r kind counter; do
	[ "$nomod" = 0 ] && ft_counters_snapshot "$w/p0"
	# a hugetlb kind on a kernel that unmaps it with its own rmap_one
	own=no
	if [ -n "$hugetlb_own" ] && [ "${kind#hugetlb}" != "$kind" ]; then
		own=yes
		[ -n "$hugetlb_probe" ] && h0=$(hugetlb_hits)
	fi
	"$FT_RELBIN" poison "$kind" "$xfs" > "$w/poison" 2>&1
	rc=$?
	sed "s/^/# $kind: /" "$w/poison"
	check_eq "faults: hwpoison $kind: poisoned, other pages intact, process survived" 0 "$rc"
	if [ "$own" = yes ]; then
		echo "# hwpoison $kind: counters moved: $(ft_counter_moves "$w/p0")"
		[ -n "$hugetlb_probe" ] && dl=$(( $(hugetlb_hits) - h0 ))
		hl=$(ft_counter_delta "$w/p0" "$counter")
		what="faults: hwpoison $kind: the kernel's hugetlb unmap ran its path, not the replacement"
		if [ -z "$hugetlb_probe" ]; then
			not_ok "$what" "no kprobe on try_to_unmap_poisoned_hugetlb_one: $(tail -1 "$T/error_log" 2>/dev/null)"
		elif [ "$dl" -gt 0 ] && [ "$hl" = 0 ]; then
			ok "$what (try_to_unmap_poisoned_hugetlb_one +$dl, $counter +0)"
		else
			not_ok "$what" "try_to_unmap_poisoned_hugetlb_one +$dl, $counter +$hl"
		fi
	elif [ "$nomod" = 0 ]; then
		dl=$(ft_counter_delta "$w/p0" "$counter")
		echo "# hwpoison $kind: counters moved: $(ft_counter_moves "$w/p0")"
		if [ "$dl" -gt 0 ]; then ok "faults: hwpoison $kind: replacement ran its path ($counter +$dl)"
		else not_ok "faults: hwpoison $kind: replacement ran its path" "$counter did not move"; fi
	fi
done <<'EOF'
file            unmap_nobatch_hwpoison
file-dirty      unmap_nobatch_hwpoison
file-pinned     unmap_nobatch_hwpoison
anon            unmap_nobatch_small
anon-pinned     unmap_calls
hugetlb         unmap_nobatch_hugetlb
hugetlb-shared  unmap_nobatch_hugetlb
EOF
echo "$thp0" > /sys/kernel/mm/transparent_hugepage/enabled
dmesg_since "$mark" | grep -E 'Memory failure|memory corruption|Injecting' > "$w/mf"
echo "# $(wc -l < "$w/mf") memory-failure kernel lines, e.g.:"; head -4 "$w/mf" | sed 's/^/#   /'
check "faults: hwpoison: kernel reported the injected failures" test -s "$w/mf"
if "$FT_REPO/harness/vm/console-gate.sh" "$w/mf" 2>/dev/null; then
	ok "faults: hwpoison: the console gate does not match 'Memory failure:' lines"
else
	not_ok "faults: hwpoison: the console gate does not match 'Memory failure:' lines" \
		"$(head -1 "$w/mf.gate" 2>/dev/null)"
fi
check_kernel_clean "faults: hwpoison: kernel log clean" "$mark"

# ---- 4. compound-page invariants -------------------------------------------------

mark=$(dmesg_mark)
echo 0 > /proc/sys/vm/nr_hugepages
# Poisoned pages of hugetlbfs files stay allocated (me_huge_page(): "The
# page is kept in page cache"), as surplus pages the pool cannot shrink;
# the stock kernel does the same (FT_REL_NOMODULE=1).  Count them.
surp0=$(awk '/^HugePages_Total/ { print $2 }' /proc/meminfo)
echo "# huge pages the pool keeps after part 3 (poisoned hugetlbfs pages): $surp0"
mm_snapshot "$w/mm0"
echo 32 > /proc/sys/vm/nr_hugepages
check_eq "faults: compound: 32 huge pages in the pool" 32 "$(awk '/^HugePages_Total/ { print $2 }' /proc/meminfo)"
cg_make ft-rel-pin 64M
for kind in hugetlb file anon; do
	if [ "$kind" = hugetlb ]; then
		"$FT_RELBIN" pin "$kind" "$xfs" "$pin_s" > "$w/pin" 2>&1
	else
		cg_run ft-rel-pin "$FT_RELBIN" pin "$kind" "$xfs" "$pin_s" > "$w/pin" 2>&1
	fi
	rc=$?
	sed "s/^/# pin $kind: /" "$w/pin"
	check_eq "faults: compound: $kind pages pinned (O_DIRECT, vmsplice, io_uring) under reclaim and poison" 0 "$rc"
done
# swapoff while a workload has anon (and file) pages out: everything comes
# back through swapin and must still verify.
cg_make ft-rel-swapoff 24M
cg_spawn ft-rel-swapoff "$w/sw" "$FT_RELBIN" mapload "$xfs" 32 100000
swpid=$SPAWN_PID
# Until the workload has pages out (the premise of a swapoff under load).
swapped() { awk '$1 == "/dev/zram0" { print $4 }' /proc/swaps; }
# The workload swaps pages back in as it goes: keep the figure that met
# the premise, not a later read.
swapped_1m() { swapped=$(swapped); [ "${swapped:-0}" -ge 1024 ]; }
loop_until 120 swapped_1m || echo "# under 1 MiB swapped out after 120 s"
echo 512M > "$FT_CG/ft-rel-swapoff/memory.max"
check "faults: compound: swapoff with $swapped kB swapped out under load" \
	sh -c "[ ${swapped:-0} -ge 1024 ] && swapoff /dev/zram0"
swapon /dev/zram0
sleep 3
kill -TERM "$swpid"; wait "$swpid"; rc=$?
sed 's/^/# swapoff workload: /' "$w/sw"
check_eq "faults: compound: workload data intact across swapoff" 0 "$rc"
# Memory cgroup removal with page cache still charged to it.
cg_make ft-rel-rm 32M
cg_run ft-rel-rm sh -c "dd if=/dev/urandom of=$xfs/ft-rel-cache.dat bs=1M count=48 status=none; cat $xfs/ft-rel-cache.dat > /dev/null"
check "faults: compound: memcg removed with page cache charged" cg_remove ft-rel-rm
rm -f "$xfs/ft-rel-cache.dat"
cg_remove ft-rel-pin; cg_remove ft-rel-swapoff
echo 0 > /proc/sys/vm/nr_hugepages
# The pin run poisons one page of its hugetlbfs memfd: one more kept page.
check_eq "faults: compound: hugetlb pool shrinks to the poisoned pages (Total Free Rsvd Surp)" \
	"$((surp0 + 1)) 0 0 $((surp0 + 1))" \
	"$(awk '/^HugePages_(Total|Free|Rsvd|Surp)/ { printf "%s%s", s, $2; s = " " }' /proc/meminfo)"
[ "$nomod" = 0 ] && check "faults: compound: unload" ft_unload
ft_zram_swapoff
mm_snapshot "$w/mm1"
echo "# counters before -> after (pages, kB for meminfo):"
join "$w/mm0" "$w/mm1" | awk '$2 != $3 { printf "#   %s %s -> %s\n", $1, $2, $3 }'
# 256 pages: one leaked mapping of an order-9 folio (512 pages) is caught.
if out=$(mm_compare "$w/mm0" "$w/mm1" 256 HugePages_Total=1 HugePages_Surp=1); then
	ok "faults: compound: no leaked mapped/file/anon/hugetlb counts (tolerance 1 MB)"
else
	not_ok "faults: compound: no leaked mapped/file/anon/hugetlb counts" "$(echo "$out" | tr '\n' ';')"
fi
echo "# HardwareCorrupted: $(awk '/HardwareCorrupted/ { print $2, $3 }' /proc/meminfo) (the poisoned pages, lost by design)"
check_kernel_clean "faults: compound: no bad-page reports, kernel log clean" "$mark"
