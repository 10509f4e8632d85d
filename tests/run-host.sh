#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-host.sh - host-side tests: each component's own test target, as
# result lines.  A component that is not there yet fails loudly.
#
# Two lanes at once, one per host core (the tests are CPU-bound and each
# runs sequentially): "tree", the scripts that run make in the work tree or
# read the module it builds, one at a time; and "free", the scripts listed
# below and the CLI's tests, which only read the tree and write below /tmp.
# A new test goes to the tree lane unless it is added to the list.  Each
# component's lines are kept and printed in the order of one run
# (tests/host/test-*.sh, the CLI's tests, then the final check), so the
# result lines and their numbers do not depend on which lane finished
# first.  FT_HOST_JOBS=1 runs one lane after the other.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1

# The scripts of the free lane, and the CLI's tests: none builds in the
# tree or reads the module's objects, and all write only below /tmp.
# test-knob-table builds a copy of module/ in its own directory, from the
# tree's sources and the build's kcopy-gen and symvers, which the tree
# lane's make only reads once make all has run (as make check does first).
free_tests=" test-bench-reports test-console-gate test-docs test-fa-policy test-harness test-schedule
	test-knob-table test-lanes test-mm-compare test-plans test-plot "

run_component() {
	local name=$1; shift
	local out
	out=$("$@" 2>&1)
	local rc=$?
	printf '%s\n' "$out" | grep -E '^(not )?ok - ' | sed "s/^\(not \)\{0,1\}ok - /&$name: /"
	if [ "$rc" -ne 0 ]; then
		echo "not ok - $name: test command exit status $rc # $*"
		printf '%s\n' "$out" | grep -vE '^(not )?ok - ' | tail -20 | sed 's/^/# /'
	fi
}

res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
order=() tree=() free=()
for t in tests/host/test-*.sh; do
	[ -e "$t" ] || continue
	n=$(basename "$t" .sh)
	order+=("$n")
	case $free_tests in *[[:space:]]"$n"[[:space:]]*) free+=("$n") ;; *) tree+=("$n") ;; esac
done

# lane NAME...: run the components one after another, each into its file.
lane() {
	local n
	for n in "$@"; do
		if [ "$n" = cli ]; then
			run_component cli make -s -C userspace check > "$res/$n"
		else
			run_component "$n" bash "tests/host/$n.sh" > "$res/$n"
		fi
	done
}

# VM=1: the klp-convert tests also load a converted module in the test box.
export VM=1
[ -f userspace/Makefile ] && { free+=(cli); order+=(cli); }
# Both lanes run make in userspace/ (the free lane the CLI's tests, and the
# bench reports and plots bring userspace/foliotune up to date for its
# stats command; the tree lane make install): built here first, every one
# of those is a no-op and none can race on a link.  A failure here is the
# cli component's to report.
[ -f userspace/Makefile ] && make -s -C userspace all "$repo/userspace/build/unit_test" > /dev/null 2>&1
if [ "${FT_HOST_JOBS:-2}" = 1 ]; then
	lane "${tree[@]}"
	lane "${free[@]}"
else
	lane "${tree[@]}" &
	tree_pid=$!
	lane "${free[@]}"
	wait "$tree_pid"
fi
for n in "${order[@]}"; do
	if [ -f "$res/$n" ]; then
		cat "$res/$n"
	else
		echo "not ok - $n: its lane wrote no result file"
	fi
done
# Last, after every test that runs make: the tree's module is still the
# converted one a guest boot loads (.klp.rela sections, no listed symbol
# left undefined).
run_component final-klp-module bash tests/host/test-klp-module.sh
exit 0
