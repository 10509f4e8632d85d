#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The plan arithmetic of the guest suites (tests/plan.sh): a script that
# prints fewer or more results than its plan, no plan, a plan after its
# first result, or two plans fails; a boot's plan is the sum of what its
# scripts state, one summary line each, and the suite's own line.
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/plan.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
ok() { echo "ok - $*"; }
not_ok() { local n=$1; shift; echo "not ok - $n # $*"; }

# verdict OUTPUT RC: the summary line suite.sh writes for a script.
verdict() {
	printf '%b' "$1" | plan_filter t "$w/side" > "$w/out"
	read -r planned counted < "$w/side"
	plan_verdict t "$planned" "$counted" "$2"
}
expect() {	# NAME OUTPUT RC WANT-PREFIX
	local got
	got=$(verdict "$2" "$3")
	case $got in "$4"*) ok "plans: $1" ;; *) not_ok "plans: $1" "got '$got'" ;; esac
}
echo "1..9"
expect "as planned passes" '1..2\nok - a\n# x\nnot ok - b # y\n' 0 "ok - t: 2 results as planned"
expect "fewer results than planned fail" '1..3\nok - a\nok - b\n' 0 "not ok - t # 2 results, planned 3"
expect "more results than planned fail" '1..1\nok - a\nok - b\n' 0 "not ok - t # 2 results, planned 1"
expect "no plan fails" 'ok - a\n' 0 "not ok - t # no single plan line"
expect "a plan after the first result fails" 'ok - a\n1..1\n' 0 "not ok - t # no single plan line"
expect "two plans fail" '1..1\n1..1\nok - a\n' 0 "not ok - t # no single plan line"
expect "a script exiting non-zero fails" '1..1\nok - a\n' 3 "not ok - t # script exit status 3"
printf '%b' '1..2\nok - a\n' | plan_filter t "$w/side" | grep -q '^# plan: t 2$' &&
	ok "plans: the plan line becomes '# plan: NAME N'" ||
	not_ok "plans: the plan line becomes '# plan: NAME N'" "$(printf '%b' '1..2\n' | plan_filter t "$w/side")"
# A boot: two scripts listed, one ran (plan 2, summary), the other died
# before its plan: 1 (suite) + 2 + 1 + 1 (the missing script's summary) = 5.
printf '# scripts: a b\n# plan: suite 1\nok - suite\n# plan: a 2\nok - x\nok - y\nok - a\n' > "$w/results.tap"
n=$(boot_plan "$w/results.tap")
[ "$n" = 5 ] && ok "plans: a boot's plan counts the scripts that never stated theirs" ||
	not_ok "plans: a boot's plan counts the scripts that never stated theirs" "boot_plan says $n, want 5"
