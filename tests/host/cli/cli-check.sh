#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# cli-check.sh - the CLI's host tests, "make -C userspace check": the unit
# tests of its internals (unit_test.c), its statistics against scipy
# (stats_ref.py), then its commands run against fake trees (the *.bats
# files, on the bats harness: helpers.bash says how a test is written).
# Everything under valgrind unless VALGRIND is empty.  Prints one
# "ok - ..." or "not ok - ..." line per test (bats' diagnostics as "#"
# lines) and "# N passed, M failed"; exits non-zero if any failed.
#
# Environment: FT_BIN (the CLI), FT_UNIT (the unit test binary), FT_SRCDIR
# (userspace/), FT_KVER, VALGRIND (command, empty for none),
# UPDATE_GOLDEN=1 to rewrite the golden files, FT_BATS_FILTER (a regex:
# only the tests whose name matches it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
FT_SRCDIR=${FT_SRCDIR:-$here/../../../userspace}
FT_UNIT=${FT_UNIT:-$FT_SRCDIR/build/unit_test}
export FT_BIN=${FT_BIN:-$FT_SRCDIR/foliotune} FT_SRCDIR
VALGRIND=${VALGRIND-valgrind}
if [ -n "$VALGRIND" ] && ! command -v "$VALGRIND" > /dev/null 2>&1; then
	echo "# $VALGRIND not found: running without it"
	VALGRIND=
fi
export VALGRIND
t=$(mktemp -d /tmp/foliotune-cli-check.XXXXXX) || exit 2
trap 'rm -rf "$t"' EXIT
echo "# binary: $FT_BIN; valgrind: ${VALGRIND:-none}"

{
# unit: its own TAP lines, under valgrind
if [ -n "$VALGRIND" ]; then
	$VALGRIND -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible --log-file="$t/vg.unit" "$FT_UNIT" > "$t/unit" 2>&1
else
	"$FT_UNIT" > "$t/unit" 2>&1
fi
rc=$?
grep -E '^(ok|not ok|#)' "$t/unit" | sed 's/^\(not \)\{0,1\}ok - /&unit: /'
if [ -s "$t/vg.unit" ]; then
	echo "not ok - unit: under valgrind # $(head -c 400 "$t/vg.unit" | tr '\n' ' ')"
elif [ "$rc" != 0 ] && ! grep -q '^not ok' "$t/unit"; then
	echo "not ok - unit: unit_test exit status $rc # $(head -c 400 "$t/unit" | tr '\n' ' ')"
fi

# the statistics against scipy and numpy (Debian's python3-scipy: make deps)
if /usr/bin/python3 -c 'import scipy' 2> /dev/null; then
	/usr/bin/python3 "$here/stats_ref.py" "$FT_UNIT" > "$t/stats" 2>&1
	rc=$?
	grep -E '^(ok|not ok) - ' "$t/stats"
	[ "$rc" != 0 ] && ! grep -q '^not ok - ' "$t/stats" &&
		echo "not ok - stats_ref.py exit status $rc # $(head -c 400 "$t/stats" | tr '\n' ' ')"
else
	echo "not ok - statistics against scipy # /usr/bin/python3 cannot import scipy (install python3-scipy: make deps)"
fi

# the commands, on bats (TAP "ok N name # skip why" as "ok - name # SKIP why")
if command -v bats > /dev/null 2>&1; then
	bats --tap ${FT_BATS_FILTER:+--filter "$FT_BATS_FILTER"} "$here"/*.bats > "$t/bats" 2>&1
	rc=$?
	sed -n -e 's/^\(not \)\{0,1\}ok [0-9][0-9]* \(.*\) # skip\(.*\)$/\1ok - \2 # SKIP\3/p; t' \
		-e 's/^\(not \)\{0,1\}ok [0-9][0-9]* /\1ok - /p; t' -e '/^#/p' "$t/bats"
	[ "$rc" != 0 ] && ! grep -q '^not ok ' "$t/bats" &&
		echo "not ok - bats exit status $rc # $(grep -v '^ok ' "$t/bats" | head -c 400 | tr '\n' ' ')"
else
	echo "not ok - the CLI's command tests # bats missing (install bats: make deps)"
fi
} | tee "$t/all"
pass=$(grep -c '^ok - ' "$t/all")
fail=$(grep -c '^not ok - ' "$t/all")
echo "# $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
