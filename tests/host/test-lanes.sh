#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-lanes.sh - the lanes outside CI (harness/lanes.sh): the hash of a
# lane's inputs follows exactly its input files, a recorded run reads as
# fresh until an input changes and then as stale since that commit, and
# "fresh" fails a stale lane.  Then the check CI enforces: the mutation
# lane's last recorded run is fresh for this tree.
. "$(dirname "$0")/lib-host.sh"

c=$w/clone
git clone -q "$repo" "$c" 2>/dev/null
cd "$c" || exit 1
git config user.email lanes@test && git config user.name lanes
# the script under test as it is in the work tree, committed or not
cp "$repo/harness/lanes.sh" harness/lanes.sh && git add harness/lanes.sh
git diff --cached --quiet || git commit -qm lanes.sh
L=harness/lanes.sh
fresh() { harness/lanes.sh fresh mutants >/dev/null; }
h0=$($L hash mutants)
check "lanes: the inputs hash is 12 hex digits ($h0)" grep -qxE '[0-9a-f]{12}' <<<"$h0"
check_eq "lanes: the inputs hash is the same twice" "$h0" "$($L hash mutants)"
echo '# not an input' >> README.md
check_eq "lanes: a change outside the inputs leaves the hash" "$h0" "$($L hash mutants)"
echo '/* an input */' >> module/main.c
h1=$($L hash mutants)
check "lanes: an uncommitted change to module/ changes the hash" test "$h1" != "$h0"
git checkout -q module/main.c README.md
touch module/new-file.c
check "lanes: an untracked new input changes it too" test "$($L hash mutants)" != "$h0"
rm module/new-file.c
touch module/verified/6.12.99+deb13-amd64.h
check_eq "lanes: another build's header leaves the mutation lane's hash" "$h0" "$($L hash mutants)"
rm module/verified/6.12.99+deb13-amd64.h
echo '/* an input */' >> "module/verified/$(cat scripts/kernels/default-kver).h"
check "lanes: ... the default build's header changes it" test "$($L hash mutants)" != "$h0"
git checkout -q module/verified
echo '# not an input' >> tests/guest/reliability/input.sh
check_eq "lanes: a reliability suite, which no mutant boots, leaves it" "$h0" "$($L hash mutants)"
git checkout -q tests/guest/reliability
# Every guest test a mutant names is an input: a change to it changes the hash.
missing=
for t in $(for m in tests/mutants/*.patch; do sed -n '/^diff /q; s/^Tests: *//p' "$m"; done |
	tr ' ' '\n' | sort -u); do
	echo '# an input' >> "$t"
	[ "$($L hash mutants)" != "$h0" ] || missing+=" $t"
	git checkout -q -- "$t"
done
check_eq "lanes: every guest test a mutant's Tests: names is an input" "" "$missing"
# Every file a mutant patches is an input (kcopy-gen/ is made from the patch
# in module/kcopy/): a change to the code a mutant plants its bug in may
# change whether the lane catches it.
missing=
for f in $(sed -n 's/^+++ b\/\([^[:space:]]*\).*/\1/p' tests/mutants/*.patch |
	sed 's|^module/kcopy-gen/.*|module/kcopy/foliotune.patch|' | sort -u); do
	echo '/* an input */' >> "$f"
	[ "$($L hash mutants)" != "$h0" ] || missing+=" $f"
	git checkout -q -- "$f"
done
check_eq "lanes: every file a mutant patches is an input" "" "$missing"

base=$(git rev-parse --short HEAD)
printf '| 2026-01-01 00:00 | %s | inputs %s | 1 caught, 0 missed | 1 min | k |\n' "$base" "$h0" >> docs/mutants.md
git commit -qam "record a run"
check "lanes: a run recorded with the tree's hash is fresh" fresh
echo '/* an input */' >> tests/guest/test-knobs.sh
git commit -qam "change a guest test"
changed=$(git rev-parse --short HEAD)
echo "# not an input" >> README.md
git commit -qam "change the readme"
out=$($L status mutants)
check_eq "lanes: ... and stale since the commit that changed an input" \
	"lane mutants: stale since $changed" "${out%%: inputs*}"
if fresh; then
	not_ok "lanes: ... which 'fresh' reports as a failure" "exit 0"
else
	ok "lanes: ... which 'fresh' reports as a failure"
fi
# A lane whose list of inputs changed is stale since that commit.
git reset -q --hard "$base"
printf '| 2026-01-01 00:00 | %s | inputs %s | 1 caught, 0 missed | 1 min | k |\n' "$base" "$h0" >> docs/mutants.md
git commit -qam "record a run"
sed -i '/^mutants /s/ tests\/mutants / /' harness/lanes.sh
git commit -qam "the mutation lane's inputs, one fewer"
listed=$(git rev-parse --short HEAD)
out=$($L status mutants)
check_eq "lanes: ... or since the commit that changed its list of inputs" \
	"lane mutants: stale since $listed (its list of inputs)" "${out%%: inputs*}"

# What a run at the current inputs found: passed, failed (with the first
# failure), incomplete; a mutation-lane row by its "missed" count.
hd=$($L hash debug)
says() {	# says WHAT RECORD-RESULT EXPECTED-STATUS-LINE-PREFIX
	printf '| 2026-01-02 00:00 | %s, inputs %s | k | 9 passed | 1 min | %s |\n' "$base" "$hd" "$2" >> docs/debug-runs.md
	out=$($L status debug)
	check_eq "lanes: $1" "$3" "${out:0:${#3}}"
}
says "a PASS record reads as passed at the current inputs" PASS "lane debug: passed at the current inputs"
says "a FAIL record as failed, with its first failure" "FAIL (test-x: the check)" \
	"lane debug: failed at the current inputs (run at $base, inputs $hd): test-x: the check"
says "a FAIL record of a run stopped early as incomplete" "FAIL (test-y failed; stopped in rel-peer)" \
	"lane debug: incomplete at the current inputs (run at $base, inputs $hd): test-y failed; stopped in rel-peer"
says "an INCOMPLETE record as incomplete" "INCOMPLETE (rel-leaks not run)" "lane debug: incomplete at the current inputs"
says "a record that names no result as incomplete, not passed" "" "lane debug: incomplete at the current inputs (run at $base, inputs $hd): the record names no result"
if $L fresh debug > /dev/null; then
	not_ok "lanes: 'fresh' fails a lane whose last run did not pass" "exit 0"
else
	ok "lanes: 'fresh' fails a lane whose last run did not pass"
fi
# A stale lane still says what its last run found: a failure is not
# hidden behind "stale".
printf '| 2026-01-03 00:00 | %s, inputs %s | k | 9 passed | 1 min | %s |\n' "$base" "$hd" "FAIL (test-z: the check)" >> docs/debug-runs.md
git commit -qam "record a failed debug run"
echo '/* an input */' >> tests/progs/ft_rel.c
git commit -qam "change a debug-lane input"
out=$($L status debug)
check_eq "lanes: a stale lane names what its last run found" \
	"lane debug: stale since ... that run: failed (test-z: the check)" \
	"${out:0:24}... ${out##*; }"
h=$($L hash mutants)
printf '| 2026-01-02 00:00 | %s | inputs %s | 40 caught, 1 missed | 1 min | k |\n' "$base" "$h" >> docs/mutants.md
out=$($L status mutants)
check_eq "lanes: a mutation-lane row with a missed mutant reads as failed" \
	"lane mutants: failed at the current inputs (run at $base, inputs $h): 1 missed" "$out"

# The one lane CI enforces (docs/testing.md, "Lanes outside CI"): the
# mutation lane's last recorded run must have seen this tree's module,
# guest tests and mutants.
cd "$repo" || exit 1
out=$(harness/lanes.sh status mutants)
if harness/lanes.sh fresh mutants > /dev/null; then
	ok "lanes: the mutation lane's last run describes this tree ($out)"
else
	not_ok "lanes: the mutation lane's last run describes this tree" \
		"$out: run make check-mutants and commit its row with the change"
fi
