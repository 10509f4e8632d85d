#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness rule (docs/testing.md, "The harness"): the test box's boot
# (harness/vm/), the guest helpers (tests/lib.sh, tests/plan.sh), the
# workload programs (tests/progs/) and the own-box setup (harness/own-box/box-lib.sh)
# are the harness; bench/ uses it, and nothing under tests/ or harness/
# uses bench/.
#   1. no code under tests/ or harness/ (scripts, Makefiles, C, Python, awk; not
#      comments, docs or fixtures) names a path under bench/, except the
#      files that test bench/ itself: they run its scripts, as the CLI's
#      tests run the CLI, and bench/ never uses them;
#   2. nothing under tests/ or harness/ sources a file of bench/, those
#      files included;
#   3. bench/ reaches into tests/ and harness/ only for the harness;
#   4. every program of tests/progs has a user under tests/ or harness/ (one only the
#      benchmarks run belongs in bench/progs).
# Self-test: a planted source line of each kind is caught.
. "$(dirname "$0")/lib-host.sh"

# Under tests/ and harness/, the tests of bench/ itself, and what each does
# with it.
tests_of_bench='
tests/host/test-bench-reports.sh	runs the reports on committed results and fixtures
tests/host/test-plot.sh	runs bench/report/plot.py on committed results and fixtures
tests/host/test-harness.sh	this test
tests/host/test-box.sh	checks that make bench-box runs bench/box.sh
harness/own-box/qemu-proof-guest.sh	proves make bench-box in the box, reads its record with records.py
harness/lanes.sh	names bench/ files as lane inputs, runs none
tests/demo-check.sh	runs make demo (bench/demo.sh) and checks its verdict lines
tests/host/test-demo-check.sh	runs demo-check.sh on the log of a demo, which names bench/demo.sh
tests/host/test-doc-homes.sh	reads bench/README.md for the make targets the docs name
'
harness='harness/vm/ tests/lib.sh tests/plan.sh tests/progs/ harness/own-box/box-lib.sh'

# code_lines DIR: "file:line:text" of the code files under DIR, comments out.
code_lines() {
	(cd "$1" && git ls-files -co --exclude-standard 2> /dev/null || find . -type f | sed 's|^\./||') |
		grep -E '(\.(sh|c|h|py|awk|bt)|(^|/)(Makefile|Kbuild|init))$' | grep -v '/fixtures/' |
		(cd "$1" && xargs -r grep -nH '' 2> /dev/null) |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*(#|\*|/\*|//)'
}

# code_of ROOT: code_lines of ROOT/tests and ROOT/harness, paths from ROOT.
code_of() {
	local d
	for d in tests harness; do
		[ -d "$1/$d" ] && code_lines "$1/$d" | sed "s|^|$d/|"
	done
	return 0
}

# wrong_tests ROOT: lines under ROOT/tests or ROOT/harness that name or
# source bench/.
wrong_tests() {
	local allowed
	allowed=$(printf '%s\n' "$tests_of_bench" | cut -f1 | grep . | paste -sd'|')
	code_of "$1" | grep -E '(^|[^[:alnum:]_.-])bench/' | grep -vE "^($allowed):"
	code_of "$1" | grep -E '^[^:]*:[0-9]+:(.*[[:space:];&|(])?(\.|source)[[:space:]]+[^#]*bench/'
}

# wrong_bench ROOT: lines under ROOT/bench that name tests/ or harness/
# outside the harness.
wrong_bench() {
	local re
	re=$(for h in $harness; do h=${h//./\\.}; printf '%s\n' "${h%/}(/|$)"; done | paste -sd'|')
	code_lines "$1/bench" | grep -oE '^[^:]*:[0-9]+:|(tests|harness)/[[:alnum:]_./-]*' |
		re="^($re)" awk '/:[0-9]+:$/ { where = $0; next } $0 !~ ENVIRON["re"] { print "bench/" where $0 }'
}

check_eq "harness: nothing under tests/ or harness/ names bench/ but the tests of bench/ ($(printf '%s\n' "$tests_of_bench" | grep -c .) files)" \
	"" "$(wrong_tests "$repo" | sort -u)"
check_eq "harness: bench/ uses of tests/ and harness/ are the harness ($harness)" "" "$(wrong_bench "$repo" | sort -u)"
# bench_only ROOT: the programs of ROOT/tests/progs no code under tests/ or
# harness/ runs.
bench_only() {
	local p users
	users=$(code_of "$1" | grep -v '^tests/progs/')
	for p in $(sed -n 's/^PROGS[[:space:]]*:=//p' "$1/tests/progs/Makefile"); do
		grep -q "\<$p\>" <<< "$users" || echo "$p"
	done
}
check_eq "harness: every program of tests/progs is run by a test (the benchmarks' own are in bench/progs)" \
	"" "$(bench_only "$repo" | xargs)"

missing=
for f in $(printf '%s\n' "$tests_of_bench" | cut -f1) $harness; do
	[ -e "$repo/$f" ] || missing+=" $f"
done
check_eq "harness: every file and folder the rule names exists" "" "$missing"

# Self-test: a tree where the harness sources bench/, a test of bench/
# sources it too, and bench/ runs a guest test.
mkdir -p "$w/t/harness/vm" "$w/t/tests/host" "$w/t/tests/guest" "$w/t/bench"
b=bench	# spelled apart: this file's own lines must not match
printf '# . %s/bench-lib.sh in a comment is fine\n. "$repo/%s/bench-lib.sh"\n' $b $b > "$w/t/harness/vm/boot.sh"
printf 'source ../../%s/raw.sh\n"$repo/%s/plot.sh" x\n' $b $b > "$w/t/tests/host/test-plot.sh"
printf '. tests/lib.sh\n"$repo/tests/guest/test-x.sh"\n"$repo/tests/progs/ft_spawn"\n' > "$w/t/bench/x.sh"
check_eq "harness: self-test: tests/ or harness/ sourcing bench/ is caught, in a test of bench/ too" \
	'harness/vm/boot.sh:2:. "$repo/bench/bench-lib.sh"|tests/host/test-plot.sh:1:source ../../bench/raw.sh|' \
	"$(wrong_tests "$w/t" | sort -u | tr '\n' '|')"
check_eq "harness: self-test: bench/ running a guest test is caught" \
	'bench/x.sh:2:tests/guest/test-x.sh|' "$(wrong_bench "$w/t" | tr '\n' '|')"
