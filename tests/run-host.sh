#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-host.sh - host-side tests: each component's own test target, as
# result lines.  A component that is not there yet fails loudly.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1

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

# VM=1: the klp-convert tests also load a converted module in the test box.
export VM=1
for t in tests/host/test-*.sh; do
	[ -e "$t" ] || continue
	run_component "$(basename "$t" .sh)" bash "$t"
done
[ -f userspace/Makefile ] && run_component cli make -s -C userspace check
# Last, after every test that runs make: the tree's module is still the
# converted one a guest boot loads (.klp.rela sections, no listed symbol
# left undefined).
run_component final-klp-module bash tests/host/test-klp-module.sh
exit 0
