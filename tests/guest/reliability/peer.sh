#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability, peer suites (1/2): the kernel's own mm selftests, run twice
# in the same boot, first on the stock kernel, then with foliotune loaded
# (unmap_batch=1 and every other feature on).  A test or subtest that passes
# stock and fails with foliotune fails here.  The counter identities must
# hold over the selftests' unmaps, and 10 s of ft_rel mapload after them
# must batch (the selftests themselves need not reclaim a large folio).  Writes the pass/skip/fail
# table to build/mm-selftests/results.md (and to
# tests/mm-selftests/mm-selftests-results.md when FT_MM_RECORD=1).
#
# Its own boot (tests/run.sh: guest_suite reliability-peer -t 2400 --
# tests/guest/reliability/peer.sh).  FT_REL_MODE=long runs the long set.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/lib.sh"
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

t0=$(date +%s)
log "mm selftests ($mode set), stock kernel"
"$rel/mm-selftests.sh" "$work/stock" "$mode"
# A selftest that fails stock is the control failing: it runs once more,
# stock, and a pass then is the control (a flaky setup, e.g. a THP that
# could not be split at that moment); failing twice, it still cannot judge
# foliotune and mm-compare.py says so.
retry=$(awk '$2 != 0 && $2 != 4 { print $1 }' "$work/stock/summary" 2>/dev/null)
if [ -n "$retry" ]; then
	log "mm selftests that failed stock, run once more: $retry"
	FT_MM_TESTS="$retry" "$rel/mm-selftests.sh" "$work/stock-retry" "$mode"
	for t in $retry; do
		line=$(awk -v t="$t" '$1 == t && $2 == 0' "$work/stock-retry/summary" 2>/dev/null)
		[ -n "$line" ] || continue
		echo "# mm selftests: $t failed stock, passed stock on its retry: the retry is the control"
		cp "$work/stock-retry/$t.out" "$work/stock/$t.out"
		awk -v t="$t" -v l="$line" '$1 == t { print l; next } { print }' \
			"$work/stock/summary" > "$work/stock/summary.new" &&
			mv "$work/stock/summary.new" "$work/stock/summary"
	done
fi
t1=$(date +%s)

if ! ft_load; then
	not_ok "peer: load foliotune for the second run" "insmod failed"
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
t2=$(date +%s)
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
check "peer: unload after the selftests" ft_unload

out=$FT_REPO/build/mm-selftests/results.md
python3 "$rel/mm-compare.py" "$work/stock" "$work/foliotune" "$out"
if [ "${FT_MM_RECORD:-0}" = 1 ]; then
	cp "$out" "$rel/mm-selftests-results.md"
fi
echo "# mm selftests: stock run $((t1 - t0)) s, foliotune run $((t2 - t1)) s; table in ${out#"$FT_REPO"/}"
ft_zram_swapoff
