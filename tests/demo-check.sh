#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo-check.sh [LOG] - `make demo` shows each of its results with its
# verdict: run bench/demo.sh (one boot of the test box, under the box-slot
# lock of whoever calls this), its output in LOG (default
# build/demo-check.log), and check its exit status and that every table
# holds its verdict line, the line the README promises.  The figures are
# not checked: they are measurements.  TAP: "1..N", then "ok - demo: ..."
# or "not ok - demo: ... # why" per check; exit status 0 only when all pass.
#
#   demo-check.sh --check LOG STATUS: the checks alone, on the LOG of a run
#   that exited STATUS (tests/host/test-demo-check.sh plants failures).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --check ]; then
	log=${2:?usage: demo-check.sh --check LOG STATUS} rc=${3:?usage: demo-check.sh --check LOG STATUS}
else
	log=${1:-$repo/build/demo-check.log}
	mkdir -p "$(dirname "$log")" || exit 2
	"$repo/bench/demo.sh" > "$log" 2>&1
	rc=$?
fi

# Each check: a name, then an extended regex a line of the log must match.
# A number is [0-9.e+-]+; a verdict is the words ab gives (one of its
# forms: faster/slower/higher/lower, no difference, too few pairs).
num='[0-9][0-9.e+-]*'
verdict="(stock|batched|mkold2|B) (faster|slower|higher|lower)|no difference these runs can show: .*|with $num pairs.* no difference can be shown at p < 0.05.*"
est="$num \\(${num}% CI $num\\.\\.$num\\), $num pairs, p $num"
checks=(
	"the reclaim table (part 1)|^1\\. Reclaim of PTE-mapped 2 MiB file folios"
	"reclaim: both walks batched against stock, with its verdict|^verdict reclaim: batched vs stock: reclaim_seconds B/A $est: ($verdict)\$"
	"reclaim: the counters show each arm's path|^    stock +unmap_batch=0 referenced_batch=0 +reclaim_seconds .*unmap_nobatch_off [1-9]"
	"reclaim: ... the batched arm's too|^    batched +unmap_batch=1 referenced_batch=1 +reclaim_seconds .*unmap_batches [1-9]"
	"reclaim: the A/A, with its verdict|^verdict reclaim: stock vs stock \\(A/A, the noise floor\\): reclaim_seconds B/A $est: ($verdict)\$"
	"the MADV_PAGEOUT table (part 2)|^2\\. Yin Fengwei's MADV_PAGEOUT micro-benchmark"
	"pageout: batched against stock, with its verdict|^verdict pageout: batched vs stock: loops_per_sec B/A $est: ($verdict)\$"
	"the app-launch table (part 3)|^3\\. App launch under memory pressure"
	"launch: old pre-mapped PTEs against stock, with its verdict|^verdict launch: mkold2 vs stock: avg_launch_ms B/A $est: ($verdict)\$"
)
echo "1..$(( ${#checks[@]} + 2 ))"
if [ "$rc" = 0 ]; then
	echo "ok - demo: bench/demo.sh exits 0"
else
	echo "not ok - demo: bench/demo.sh exits 0 # exit $rc: $(grep -E 'FAILED' "$log" | tail -2 | tr '\n' ' ')"
fi
if grep -q 'FAILED' "$log"; then
	echo "not ok - demo: no step failed # $(grep 'FAILED' "$log" | head -2 | tr '\n' ' ')"
else
	echo "ok - demo: no step failed"
fi
fail=0
for c in "${checks[@]}"; do
	if grep -qE -- "${c#*|}" "$log"; then
		echo "ok - demo: ${c%%|*}"
	else
		echo "not ok - demo: ${c%%|*} # no line matches: ${c#*|}"
		fail=1
	fi
done
[ "$rc" = 0 ] && [ "$fail" = 0 ] && ! grep -q 'FAILED' "$log"
