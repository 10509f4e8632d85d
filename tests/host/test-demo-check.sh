#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/demo-check.sh, the check CI runs on the demo's output, can fail:
# on the output of a real demo (fixtures/demo.log) every check passes, and
# each planted loss fails the check it must: a table's verdict line gone,
# an arm's counters gone, a step that says FAILED, a non-zero exit, a line
# whose verdict has no words.
. "$(dirname "$0")/lib-host.sh"

dc=$repo/tests/demo-check.sh
log=$repo/tests/host/fixtures/demo.log

# checks LOG STATUS: the "ok/not ok" lines of demo-check.sh --check, and
# its exit status as a last line.
checks() {
	"$dc" --check "$1" "$2" > "$w/out" 2>&1
	echo "exit $?" >> "$w/out"
}

checks "$log" 0
plan=$(sed -n 's/^1\.\.//p' "$w/out")
check_eq "demo check: a real demo's output passes every check ($plan)" \
	"$plan 0 exit 0" "$(grep -c '^ok - demo: ' "$w/out") $(grep -c '^not ok' "$w/out") $(tail -1 "$w/out")"

# plant NAME SED-EXPR NOT-OK-PATTERN: the fixture edited by SED-EXPR fails
# the check NOT-OK-PATTERN names, and demo-check.sh exits non-zero.
plant() {
	sed -e "$2" "$log" > "$w/planted.log"
	if cmp -s "$log" "$w/planted.log"; then
		not_ok "demo check: $1" "the edit '$2' changed nothing in the fixture"
		return
	fi
	checks "$w/planted.log" 0
	if grep -q "^not ok - demo: $3" "$w/out" && [ "$(tail -1 "$w/out")" != "exit 0" ]; then
		ok "demo check: $1"
	else
		not_ok "demo check: $1" "$(grep '^not ok\|^exit' "$w/out" | tr '\n' ' ')"
	fi
}
plant "the reclaim verdict lost" '/^verdict reclaim: batched vs stock/d' "reclaim: both walks batched against stock"
plant "the A/A lost" '/^verdict reclaim: stock vs stock/d' "reclaim: the A/A"
plant "the MADV_PAGEOUT table lost" '/^2\. Yin Fengwei/,/^verdict pageout/d' "the MADV_PAGEOUT table"
plant "the app-launch verdict lost" '/^verdict launch:/d' "launch: old pre-mapped PTEs against stock"
plant "the counters of the batched arm lost" '/^    batched .*referenced_batch=1/s/unmap_batches [0-9]*/unmap_batches 0/' \
	"reclaim: ... the batched arm's too"
plant "a verdict without its words" '/^verdict reclaim: batched vs stock/s/: [^:]*$/: /' "reclaim: both walks batched against stock"
plant "a step that failed" '$a [demo 200s] FAILED: launch: foliotune ab exited 2' "no step failed"
checks "$log" 1
check "demo check: a non-zero exit fails it" grep -q '^not ok - demo: bench/demo.sh exits 0 # exit 1' "$w/out"
