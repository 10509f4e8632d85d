#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [NAME...] - the mutation lane (make check-mutants; docs/mutants.md).
#
# Each tests/mutants/NAME.patch plants one bug in a copy of module/ or
# userspace/, built by `make mutant-NAME` into build/mutants/NAME/.  Its
# header says what a user would lose and which tests must notice:
#   Mutant: one line
#   Tests: guest test scripts, run by tests/guest/suite.sh in one boot
#   Env: VAR=VALUE ... exported into the box (optional)
#   Timeout: seconds for the boot (optional, default 1200)
# In the box the mutant is bind-mounted over module/foliotune.ko (or
# userspace/foliotune), so every test that loads "the" module or runs "the"
# CLI gets the mutant (the host's files are not touched).  A mutant is
# caught by a "not ok" result line, the console gate (vmrun 252) or a
# crash or hang (251); anything else is a miss, and so is a boot that
# could not run the tests.  Ends with "N caught, M missed"; with
# FT_MUTANTS_RECORD=1 (make check-mutants) also appends that, the date, the
# commit and the time to docs/mutants.md.  Logs: build/test-logs-mutants/.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
. tests/vm/boot.sh
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
logs=${FT_TEST_LOGS:-$repo/build/test-logs-mutants}
mkdir -p "$logs" "$repo/build/vm"
commit=$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for p in tests/mutants/*.patch; do names+=("$(basename "$p" .patch)"); done
fi

# field NAME PATCH: the header field NAME of PATCH (before the first diff).
field() { sed -n "/^diff /q; s/^$1: *//p" "$2" | head -1; }

caught=0 missed=0 t0=$(date +%s)
: > "$logs/results.tap"
for m in "${names[@]}"; do
	p=tests/mutants/$m.patch
	what=$(field Mutant "$p")
	tests=$(field Tests "$p")
	env=$(field Env "$p")
	tmo=$(field Timeout "$p")
	if [ -r "build/mutants/$m/foliotune.ko" ]; then
		art=build/mutants/$m/foliotune.ko target=module/foliotune.ko
	else
		art=build/mutants/$m/userspace/foliotune target=userspace/foliotune
	fi
	m0=$(date +%s)
	if [ -z "$tests" ] || [ ! -r "$art" ]; then
		echo "not ok - mutant $m: missed # not built ($art) or no Tests: line" | tee -a "$logs/results.tap"
		missed=$((missed + 1))
		continue
	fi
	vmenv=()
	for e in $env; do vmenv+=(-e "$e"); done
	rm -f "$logs/rundir-$m"
	# shellcheck disable=SC2086  # Tests: is a list of scripts
	vm_boot "$repo/build/vm/xfs-mutant.img" 1G -k "$KVER" -q -t "${tmo:-1200}" -l "$logs/console-$m.log" \
		-R "$logs/rundir-$m" "${vmenv[@]}" -- \
		"mount --bind '$repo/$art' '$repo/$target' && cmp -s '$repo/$art' '$repo/$target' ||
			{ echo 'cannot bind the mutant'; exit 3; }
		 bash tests/guest/suite.sh $tests" > "$logs/$m.out" 2>&1
	rc=$?
	rundir=$(cat "$logs/rundir-$m" 2>/dev/null)
	cp "$rundir/results.tap" "$logs/$m.tap" 2>/dev/null || : > "$logs/$m.tap"
	first=$(grep -m1 '^not ok' "$logs/$m.tap")
	took=$(( $(date +%s) - m0 ))
	case $rc in
	251) how="crash or hang (vmrun 251): $(grep -hm1 -E 'BUG|Oops|panic|WARNING' "$logs/console-$m.log" | sed 's/^\[ *[0-9.]*\] //')" ;;
	252) how="console gate (vmrun 252): $(grep -hm1 -E 'BUG|Oops|WARNING|Bad page' "$logs/console-$m.log" | sed 's/^\[ *[0-9.]*\] //')" ;;
	0) how=${first:+"$first"} ;;
	*) how="" first="" ;;
	esac
	if [ -n "$how" ]; then
		caught=$((caught + 1))
		echo "ok - mutant $m: caught in $took s by $how" | tee -a "$logs/results.tap"
	else
		missed=$((missed + 1))
		echo "not ok - mutant $m: missed ($what) # vmrun exit $rc, $(grep -c '^ok' "$logs/$m.tap") ok lines, $took s; see $logs/$m.out" |
			tee -a "$logs/results.tap"
	fi
done
total=$(( $(date +%s) - t0 ))
echo "# mutation lane took $total s ($(( total / 60 )) min) for ${#names[@]} mutants"
summary="$caught caught, $missed missed"
if [ "${FT_MUTANTS_RECORD:-0}" = 1 ]; then
	printf '| %s | %s | %s | %d min | %s |\n' "$(date -u '+%F %H:%M')" "$commit" "$summary" \
		$(( (total + 59) / 60 )) "$KVER" >> docs/mutants.md
fi
echo "$summary"
[ "$missed" = 0 ]
