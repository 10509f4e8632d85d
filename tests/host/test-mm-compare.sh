#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-mm-compare.sh - the peer suite's judge (tests/mm-selftests/mm-compare.py)
# on made-up runs: a regression, whole or by subtest, is "not ok" and shows
# the selftest's own reason (CI keeps no .out file); the same result both
# ways, or a stock failure that foliotune shares, is "ok".
. "$(dirname "$0")/lib-host.sh"
cmp=$repo/tests/mm-selftests/mm-compare.py

# check_like NAME GLOB VALUE: VALUE matches the glob.
check_like() {
	# shellcheck disable=SC2053  # the pattern is a glob on purpose
	if [[ $3 == $2 ]]; then ok "$1"; else not_ok "$1" "got: $3"; fi
}

# run NAME STOCK-RC STOCK-TAP FT-RC FT-TAP: one selftest's two runs, judged.
run() {
	local d=$w/$1
	mkdir -p "$d/s" "$d/f"
	echo "$1 $2 3" > "$d/s/summary"
	printf '%b' "$3" > "$d/s/$1.out"
	echo "$1 $4 3" > "$d/f/summary"
	printf '%b' "$5" > "$d/f/$1.out"
	python3 "$cmp" "$d/s" "$d/f" "$d/table.md"
}

out=$(run same 0 'ok 1 a\nok 2 b\n' 0 'ok 1 a\nok 2 b\n')
check_eq "mm-compare: same results both ways is ok" \
	"ok - peer: mm/same: passes stock and with foliotune (2/0/0 subtests)" "$out"

out=$(run lost 0 'ok 1 a\nok 2 b\n' 1 'ok 1 a\n# Failed to map: File exists\nnot ok 2 b\n')
check_like "mm-compare: a subtest lost with foliotune is not ok, by number" \
	"not ok - peer: mm/lost # passes stock, fail(1) with foliotune; subtests passing stock, failing with foliotune: 2 *" "$out"
check_like "mm-compare: the regression shows the selftest's reason" \
	"*"$'\n''#   # Failed to map: File exists'$'\n''#   not ok 2 b'"*" "$out"

out=$(run shared 1 'ok 1 a\nnot ok 2 b\n' 1 'ok 1 a\nnot ok 2 b\n')
check_eq "mm-compare: a stock failure foliotune shares judges the rest" \
	"ok - peer: mm/shared: fail(1) stock, fail(1) with foliotune; its 1 subtests passing stock pass with foliotune" "$out"

out=$(run timeout 0 'ok 1 a\nok 2 b\n' 124 'ok 1 a\n')
check_like "mm-compare: a timeout with foliotune is not ok, unreached subtests named" \
	"not ok - peer: mm/timeout # passes stock, timeout with foliotune; subtests not reached with foliotune: 2 *" "$out"

out=$(run nothing 1 'not ok 1 a\n' 1 'not ok 1 a\n')
check_like "mm-compare: a selftest nothing of which passes stock is not ok (judges nothing)" \
	"not ok - peer: mm/nothing # fail(1) on the stock kernel*cannot judge foliotune*" "$out"

# The stock run holds only the tests that need a control (peer.sh runs it
# after the foliotune run, for what --control names).
d=$w/partial
mkdir -p "$d/s" "$d/f"
printf 'clean 0 3\nskips 0 3\nsubfail 1 3\nwhole 4 3\nnoctl 1 3\n' > "$d/f/summary"
printf 'ok 1 a\nok 2 b\n' > "$d/f/clean.out"
printf 'ok 1 a\nok 2 b # SKIP MADV_PAGEOUT did not work\n' > "$d/f/skips.out"
printf 'ok 1 a\nnot ok 2 b\n' > "$d/f/subfail.out"
printf 'ok 1 a # SKIP no THP\n' > "$d/f/whole.out"
printf 'not ok 1 a\n' > "$d/f/noctl.out"
out=$(python3 "$cmp" --control "$d/f")
check_eq "mm-compare: --control names every test that did not pass cleanly with foliotune, skips included" \
	"skips subfail whole noctl" "$out"
printf 'skips 0 3\nsubfail 0 3\nwhole 0 3\n' > "$d/s/summary"
printf 'ok 1 a\nok 2 b\n' | tee "$d/s/skips.out" > "$d/s/subfail.out"
printf 'ok 1 a\n' > "$d/s/whole.out"
out=$(python3 "$cmp" "$d/s" "$d/f" "$d/table.md")
check_eq "mm-compare: a clean pass with foliotune needs no stock run" \
	"ok - peer: mm/clean: passes with foliotune (2/0/0 subtests), no control needed" "$(grep -F mm/clean <<< "$out")"
check_like "mm-compare: a subtest passing stock, skipped with foliotune, is not ok" \
	"not ok - peer: mm/skips # subtests passing stock, failing with foliotune: 2 *" "$(grep -F mm/skips <<< "$out")"
check_like "mm-compare: a subtest failing with foliotune, passing in the stock rerun, is not ok" \
	"not ok - peer: mm/subfail # passes stock, fail(1) with foliotune*" "$(grep -F mm/subfail <<< "$out")"
check_like "mm-compare: a skip with foliotune that passes stock is not ok" \
	"not ok - peer: mm/whole # passes stock, skip with foliotune*" "$(grep -F mm/whole <<< "$out")"
check_like "mm-compare: a failure with foliotune and no stock run is not ok" \
	"not ok - peer: mm/noctl # fail(1) with foliotune (0/1/0 subtests) and no stock run to compare*" "$(grep -F mm/noctl <<< "$out")"
check_like "mm-compare: the table shows the stock run left out" \
	"*| clean | not run | pass | - | 2/0/0 | - / 3 | passes with foliotune |*" "$(cat "$d/table.md")"
