#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - make check-box: the test-box suites (tests/guest/suite.sh:
# main, unmap) on this machine, with a scratch xfs on a loop device, then
# the console gate on the kernel log of the run.  Settings: harness/own-box/box-lib.sh,
# and
#   FT_BOX_SUITES   suites to run (default "main unmap")
#   FT_BOX_TESTS    the main suite's tests, e.g. "test-knobs test-cli"
#                   (default all of tests/guest/test-*.sh)
# Results: $FT_BOX_LOGS/results.tap and the same summary line as tests/run.sh.
set -u
. "$(dirname "$0")/box-lib.sh"
box_preflight check
cd "$FT_BOX_REPO" || exit 2
logs=${FT_BOX_LOGS:-$FT_BOX_REPO/build/box-logs/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$logs" || exit 2
logs=$(cd "$logs" && pwd)
all=$logs/results.tap
: > "$all"
emit() { tee -a "$all" | grep -E '^(not )?ok - '; }

trap box_teardown EXIT
trap 'exit 130' INT TERM
t0=$(date +%s)
box_setup > "$logs/setup.out" 2>&1 || {
	cat "$logs/setup.out" >&2
	echo "not ok - box: scratch xfs on a loop device # see $logs/setup.out" | emit
	exit 2
}
cat "$logs/setup.out"
box_damon_off || {
	echo "not ok - box: DAMON_STAT off for the run # its enabled parameter cannot be written" | emit
	exit 2
}
echo "# module_file $FT_KO"

for suite in ${FT_BOX_SUITES:-main unmap}; do
	args=()
	case $suite in
	main)	for t in ${FT_BOX_TESTS:-}; do args+=("tests/guest/${t%.sh}.sh"); done ;;
	unmap)	args=(tests/guest/integrity/integrity-boot.sh) ;;
	*)	echo "not ok - box: unknown suite $suite" | emit; continue ;;
	esac
	export FT_RUNDIR=$logs/$suite
	mkdir -p "$FT_RUNDIR"
	box_log "suite $suite"
	bash tests/guest/suite.sh "${args[@]}" > "$logs/$suite.out" 2>&1
	rc=$?
	emit < "$FT_RUNDIR/results.tap"
	if [ "$rc" = 0 ]; then
		echo "ok - box $suite: suite ran to the end" | emit
	else
		echo "not ok - box $suite: suite exit status $rc (see $logs/$suite.out)" | emit
	fi
done

box_teardown
trap - EXIT
box_dmesg "$logs/dmesg.txt"
if harness/vm/console-gate.sh "$logs/dmesg.txt"; then
	echo "ok - box: clean kernel log (console gate)" | emit
else
	echo "not ok - box: console gate found kernel errors in $logs/dmesg.txt" | emit
fi

pass=$(grep -c '^ok - ' "$all")
fail=$(grep -c '^not ok - ' "$all")
skip_bad=$(grep '^ok - .*# SKIP' "$all" | grep -vc '# SKIP hw:')
echo "# results: $all; $(( $(date +%s) - t0 )) s"
[ "$skip_bad" -gt 0 ] && echo "# $skip_bad skip(s) without a hardware reason count as failures"
echo "$((pass - skip_bad)) passed, $((fail + skip_bad)) failed"
[ "$fail" -eq 0 ] && [ "$skip_bad" -eq 0 ]
