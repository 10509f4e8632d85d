#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability, peer suites (1/2): the kernel's own mm selftests with
# foliotune loaded (unmap_batch=1 and every other feature on), then, in the
# same boot with foliotune unloaded, stock: the control.  The control only
# matters for a selftest that does not pass with foliotune, so the stock run
# takes only those: a failure, a timeout, a skip, and a selftest that exits
# 0 but has a failed or skipped subtest (cow skips its swap-out cases when
# MADV_PAGEOUT swaps nothing out: a skip can hide a regression).  Skips are
# rerun even where the recorded table says they skip stock: a skip takes a
# second, and the table was recorded on one build only.  A test or subtest
# that passes stock and fails with foliotune fails here.  The counter
# identities must hold over the selftests' unmaps, and 10 s of ft_rel
# mapload after them must batch (the selftests themselves need not reclaim
# a large folio).  Writes the pass/skip/fail table to
# build/mm-selftests/results.md.  FT_MM_RECORD=1 runs the whole set stock
# as well, and writes the table to tests/mm-selftests/mm-selftests-results.md.
#
# Its own boot (tests/run.sh: guest_suite rel-peer -t 2700 --
# tests/guest/reliability/peer.sh).  FT_REL_MODE=long runs the long set.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
rel=$FT_REPO/tests/mm-selftests
bin=$FT_REPO/build/mm-selftests/bin
mode=${FT_REL_MODE:-ci}
work=${FT_RUNDIR:-/tmp}/mm-selftests
rm -rf "$work"
# zram, the replacement ran, 3 identities, batching, unload, and one line
# per selftest.
plan $((7 + $("$rel/mm-selftests.sh" -n "$mode")))

if [ ! -x "$bin/cow" ]; then
	not_ok "peer: mm selftests built" "$bin empty: run tests/mm-selftests/build-mm-selftests.sh (make mm-selftests)"
	exit 0
fi
check "peer: zram swap for the selftests" ft_zram_swap 1G
ft_unload

# retry_failed DIR WHO: the selftests that failed (not skipped) in DIR run
# once more, as they ran (WHO); a pass on the retry replaces the failure, in
# DIR's summary and output.  The first run of a selftest in a boot can fail
# for its setup (split_huge_page_test once did, stock, in 1 s), so both runs
# get this retry: a failure that foliotune causes must happen twice in a row.
retry_failed() {
	local dir=$1 who=$2 retry t line
	retry=$(awk '$2 != 0 && $2 != 4 { print $1 }' "$dir/summary" 2>/dev/null)
	[ -n "$retry" ] || return 0
	log "mm selftests that failed $who, run once more: $retry"
	FT_MM_TESTS="$retry" "$rel/mm-selftests.sh" "$dir-retry" "$mode"
	for t in $retry; do
		line=$(awk -v t="$t" '$1 == t && $2 == 0' "$dir-retry/summary" 2>/dev/null)
		[ -n "$line" ] || continue
		echo "# mm selftests: $t failed $who, passed $who on its retry: the retry counts"
		cp "$dir-retry/$t.out" "$dir/$t.out"
		awk -v t="$t" -v l="$line" '$1 == t { print l; next } { print }' \
			"$dir/summary" > "$dir/summary.new" && mv "$dir/summary.new" "$dir/summary"
	done
}

t0=$(date +%s)
if ! ft_load; then
	not_ok "peer: load foliotune for the selftests" "insmod failed"
	exit 0
fi
# All features on.
mkdir -p "$work/foliotune"
for kv in unmap_batch=1 fault_around_mkold=1 fault_around_auto=1; do
	if [ -e "$FT_DEBUGFS/${kv%=*}" ]; then
		echo "${kv#*=}" > "$FT_DEBUGFS/${kv%=*}" && touch "$work/foliotune/feature.${kv%=*}"
	fi
done
c0=$work/counters.before
cat "$FT_DEBUGFS/vmstat" > "$c0"
calls0=$(ft_counter unmap_calls)
log "mm selftests ($mode set), foliotune loaded"
"$rel/mm-selftests.sh" "$work/foliotune" "$mode"
t1=$(date +%s)
calls=$(( $(ft_counter unmap_calls) - calls0 ))
batches=$(( $(ft_counter unmap_batches) - $(awk '$1 == "unmap_batches" { print $2 }' "$c0") ))
echo "# foliotune counters after the selftests:"
sed 's/^/#   /' "$FT_DEBUGFS/vmstat" | grep -v ' 0$'
if [ "$calls" -gt 0 ]; then
	ok "peer: the selftests ran the replacement try_to_unmap_one ($calls calls, $batches batches)"
else
	not_ok "peer: the selftests ran the replacement try_to_unmap_one" "unmap_calls did not move"
fi
# The identities of module/unmap.c over the selftests' unmaps.
rel_identities "peer: selftests" "$c0"
# The selftests need not reclaim a large file folio; whether the
# settings they ran with batch is proven by 10 s of ft_rel mapload
# (PTE-mapped large xfs folios, MADV_PAGEOUT) right after them.
cat "$FT_DEBUGFS/vmstat" > "$work/counters.probe"
"$FT_RELBIN" mapload "$FT_XFS" 16 10 > "$work/mapload.out" 2>&1
rc=$?
sed 's/^/# mapload: /' "$work/mapload.out" | tail -2
if [ "$rc" = 0 ]; then
	rel_batched "peer: unmap_batch=1 as the selftests ran (10 s of mapload after them)" "$work/counters.probe" on
else
	not_ok "peer: batching probe after the selftests" "ft_rel mapload exit $rc (its data did not verify)"
fi
# The retry comes after the batching probe: a retry grows the huge page
# pool again (compaction under TCG), and a mapload right after one made no
# progress in its 10 s (2026-12-03).
retry_failed "$work/foliotune" "with foliotune"
check "peer: unload after the selftests" ft_unload

# The control: stock, the selftests that did not pass with foliotune (all
# of them for a record run).
t2=$(date +%s)
mkdir -p "$work/stock"
: > "$work/stock/summary"
if [ "${FT_MM_RECORD:-0}" = 1 ]; then
	control=all
	log "mm selftests ($mode set), stock kernel (a record run: the whole set)"
	"$rel/mm-selftests.sh" "$work/stock" "$mode"
else
	control=$(python3 "$rel/mm-compare.py" --control "$work/foliotune")
	if [ -n "$control" ]; then
		log "mm selftests that did not pass with foliotune, stock kernel: $control"
		FT_MM_TESTS="$control" "$rel/mm-selftests.sh" "$work/stock" "$mode"
	else
		log "mm selftests: every one passed with foliotune, no stock run needed"
	fi
fi
# A selftest that failed stock is the control failing: it runs once more,
# stock, and a pass then is the control (a flaky setup, e.g. a THP that
# could not be split at that moment); failing twice, it still cannot judge
# foliotune and mm-compare.py says so.
retry_failed "$work/stock" stock
t3=$(date +%s)

out=$FT_REPO/build/mm-selftests/results.md
python3 "$rel/mm-compare.py" "$work/stock" "$work/foliotune" "$out"
if [ "${FT_MM_RECORD:-0}" = 1 ]; then
	cp "$out" "$rel/mm-selftests-results.md"
fi
echo "# mm selftests: foliotune run $((t1 - t0)) s, stock run $((t3 - t2)) s (${control:-none}); table in ${out#"$FT_REPO"/}"
ft_zram_swapoff
