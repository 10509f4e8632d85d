#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutation-lane.sh [NAME...] - the mutation lane (make check-mutants; docs/mutants.md).
#
# Each tests/mutants/NAME.patch plants one bug in a copy of module/ or
# userspace/, built by `make mutant-NAME` into build/mutants/NAME/.  Its
# header says what a user would lose and which tests must notice:
#   Mutant: one line
#   Tests: guest test scripts, run by tests/guest/suite.sh in one boot
#   Env: VAR=VALUE ... exported into the box (optional)
#   Caught-by: a check made to catch it (repeatable): a "not ok" line that
#              contains this text, or "console-gate" for a kernel error on
#              the console (vmrun 252, or 251 when it crashed the box)
#   Timeout: seconds for the boot (optional, default 1200)
#   Kver: the kernel build to boot and build the mutant for (optional,
#         default KVER): a bug in code only that build's generation
#         compiles (Linux 7's arm of the kernel's own code)
# In the box the mutant is bind-mounted over module/foliotune.ko (or
# userspace/foliotune), so every test that loads "the" module or runs "the"
# CLI gets the mutant (the host's files are not touched).  A mutant is
# caught only by a check its header names; any other failure is a side
# catch, reported but not counted, so a test that fails for its own
# reasons cannot pass a mutant for caught.  Control boots come first: the
# unmodified module and CLI, the mutants' tests (one boot per Kver and
# Env): the mutants of a control that fails are not judged, and the run
# says so (INCOMPLETE); if every control fails, the lane fails before any
# mutant runs.  Ends with "N caught, M missed"; with FT_MUTANTS_RECORD=1 (make check-mutants) and every mutant
# run it also appends the date, the commit, the hash of the lane's inputs
# (harness/lanes.sh), the score and the time to docs/mutants.md.  The boots
# run two at once (harness/vm/schedule.sh, longest first); results are
# printed in the order of the mutants' names.  Logs:
# build/test-logs-mutants/.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
. harness/vm/boot.sh
. harness/vm/schedule.sh
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
logs=${FT_TEST_LOGS:-$repo/build/test-logs-mutants}
mkdir -p "$logs" "$repo/build/vm"
commit=$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for p in tests/mutants/*.patch; do names+=("$(basename "$p" .patch)"); done
fi

# fields NAME PATCH: every header field NAME of PATCH (before the first
# diff), one per line; field NAME PATCH: the first.
fields() { sed -n "/^diff /q; s/^$1: *//p" "$2"; }
field() { fields "$1" "$2" | head -1; }

# boot LOG-NAME ENV TIMEOUT KVER -- COMMAND: one boot of the box, results
# in $logs/NAME.tap; sets rc.
boot() {
	local name=$1 env=$2 tmo=$3 kver=$4; shift 5
	local vmenv=() e
	for e in $env; do vmenv+=(-e "$e"); done
	rm -f "$logs/rundir-$name"
	vm_boot "$repo/build/vm/xfs-mutant-$name.img" 1G -k "$kver" -q -t "$tmo" -l "$logs/console-$name.log" \
		-R "$logs/rundir-$name" "${vmenv[@]}" -- "$@" > "$logs/$name.out" 2>&1
	rc=$?
	local rundir
	rundir=$(cat "$logs/rundir-$name" 2>/dev/null)
	cp "$rundir/results.tap" "$logs/$name.tap" 2>/dev/null || : > "$logs/$name.tap"
}

# console_error NAME: the first kernel error on NAME's console.
console_error() {
	grep -hm1 -E 'BUG|Oops|panic|WARNING|Bad page' "$logs/console-$1.log" | sed 's/^\[ *[0-9.]*\] //'
}

inputs=$(harness/lanes.sh hash mutants)
caught=0 missed=0 unjudged=0 sides=0 t0=$(date +%s)
: > "$logs/results.tap"

# Control boots: the mutants' tests on the unmodified tree, one per Kver
# and Env ("KVER|ENV": an associative array has no empty key).  A build
# other than KVER boots its own module (build/modules/KVER/, make
# modules-all).
declare -A ctl_tests=()
for m in "${names[@]}"; do
	p=tests/mutants/$m.patch
	kv=$(field Kver "$p")
	key="${kv:-$KVER}|$(field Env "$p")"
	for t in $(field Tests "$p"); do
		case " ${ctl_tests[$key]:-} " in *" $t "*) ;; *) ctl_tests[$key]="${ctl_tests[$key]:-} $t" ;; esac
	done
done
# control_job N KVER ENV TESTS: one control boot; its line in $SCHED_PART.
control_job() {
	local n=$1 kv=$2 env=$3 tests=$4 m0 bad ctl_ko=
	m0=$(date +%s)
	[ "$kv" != "$KVER" ] && ctl_ko="FT_KO=$repo/build/modules/$kv/foliotune.ko"
	# shellcheck disable=SC2086  # a list of scripts
	boot "control-$n" "$env $ctl_ko" 1800 "$kv" -- "bash tests/guest/suite.sh $tests"
	bad=$(grep -c '^not ok' "$logs/control-$n.tap")
	if [ "$rc" != 0 ] || [ "$bad" != 0 ] || ! grep -q '^ok' "$logs/control-$n.tap"; then
		echo "not ok - control $n (${env:-no Env}:$tests): vmrun exit $rc, $bad failed # see $logs/control-$n.out"
		grep -m5 '^not ok' "$logs/control-$n.tap" | sed 's/^/#   /'
	else
		echo "ok - control $n (${env:-no Env}:$tests): $(grep -c '^ok' "$logs/control-$n.tap") passed in $(( $(date +%s) - m0 )) s"
	fi > "$SCHED_PART"
	echo "# run plan: control-$n 1" >> "$SCHED_PART"
}
# is_quiet TESTS...: 1 when a test needs the machine to itself (its
# "# quiet: " line, tests/run.sh), else 0.
is_quiet() {
	local t
	for t; do grep -q '^# quiet: ' "$t" 2>/dev/null && { echo 1; return; }; done
	echo 0
}
show_part() { grep -E '^(not )?ok - |^#   |^# mutant ' "$logs/parts/$1.tap"; }
SCHED_ON_DONE=show_part
sched_init "$logs"
n=0
for key in "${!ctl_tests[@]}"; do
	n=$((n + 1))
	# shellcheck disable=SC2086  # a list of scripts
	sched_add "control-$n" "$(is_quiet ${ctl_tests[$key]})" control_job "$n" "${key%%|*}" "${key#*|}" "${ctl_tests[$key]}"
done
sched_run
grep -hE '^(not )?ok - |^#   ' "$logs"/parts/control-*.tap >> "$logs/results.tap"
# A control that failed: its tests fail without a mutant, so no catch by
# them would mean anything.  Its mutants are not judged (named, counted,
# and the run recorded INCOMPLETE); the other controls' mutants are.
declare -A ctl_failed=()
n=0
for key in "${!ctl_tests[@]}"; do
	n=$((n + 1))
	grep -q '^not ok' "$logs/parts/control-$n.tap" && ctl_failed[$key]=$n
done
if [ ${#ctl_failed[@]} = ${#ctl_tests[@]} ]; then
	echo "control boot failed: the tests fail without a mutant, so no catch would mean anything"
	exit 1
fi

# mutant_job NAME: one mutant's boot; its line (and side catches) in
# $SCHED_PART.
mutant_job() {
	local m=$1 p what tests env tmo kv mko by art target m0 took how side kind named line
	exec > "$SCHED_PART"
	echo "# run plan: mutant-$m 1"
	p=tests/mutants/$m.patch
	local key
	key="$(field Kver "$p")"
	key="${key:-$KVER}|$(field Env "$p")"
	if [ -n "${ctl_failed[$key]:-}" ]; then
		echo "not ok - mutant $m: not judged # control ${ctl_failed[$key]} (its tests without a mutant) failed"
		return
	fi
	what=$(field Mutant "$p")
	tests=$(field Tests "$p")
	env=$(field Env "$p")
	tmo=$(field Timeout "$p")
	kv=$(field Kver "$p")
	kv=${kv:-$KVER}
	mapfile -t by < <(fields Caught-by "$p")
	if [ -r "build/mutants/$m/foliotune.ko" ]; then
		art=build/mutants/$m/foliotune.ko target=module/foliotune.ko
	else
		art=build/mutants/$m/userspace/foliotune target=userspace/foliotune
	fi
	m0=$(date +%s)
	if [ -z "$tests" ] || [ ${#by[@]} -eq 0 ] || [ ! -r "$art" ]; then
		echo "not ok - mutant $m: missed # not built ($art), or no Tests: or Caught-by: line"
		return
	fi
	mko=
	if [ "$kv" != "$KVER" ] && [ "$target" = module/foliotune.ko ]; then
		target=build/modules/$kv/foliotune.ko mko="FT_KO=$repo/$target"
	fi
	boot "$m" "$env $mko" "${tmo:-1200}" "$kv" -- \
		"mount --bind '$repo/$art' '$repo/$target' && cmp -s '$repo/$art' '$repo/$target' ||
			{ echo 'cannot bind the mutant'; exit 3; }
		 bash tests/guest/suite.sh $tests"
	took=$(( $(date +%s) - m0 ))
	how="" side=()
	case $rc in
	251|252)
		kind="console gate (vmrun $rc): $(console_error "$m")"
		[ "$rc" = 251 ] && kind="crash or hang (vmrun 251): $(console_error "$m")"
		if printf '%s\n' "${by[@]}" | grep -qx console-gate; then
			how=$kind
		else
			side+=("$kind")
		fi ;;
	0) ;;
	*) side+=("vmrun exit $rc") ;;
	esac
	while IFS= read -r line; do
		named=
		for b in "${by[@]}"; do
			[ "$b" != console-gate ] && [[ $line == *"$b"* ]] && named=1
		done
		if [ -n "$named" ] && [ -z "$how" ]; then
			how=$line
		elif [ -z "$named" ]; then
			side+=("$line")
		fi
	done < <(grep '^not ok' "$logs/$m.tap")
	if [ -n "$how" ]; then
		echo "ok - mutant $m: caught in $took s by $how"
	else
		echo "not ok - mutant $m: missed ($what) # none of its Caught-by checks failed; vmrun exit $rc, $(grep -c '^ok' "$logs/$m.tap") ok lines, $took s; see $logs/$m.out"
	fi
	if [ ${#side[@]} -gt 0 ]; then
		echo "# mutant $m: side catch (${#side[@]}): ${side[0]}"
		printf '#   %s\n' "${side[@]:1:4}" | grep -v '^#   $' || :
	fi
}
sched_init "$logs"
for m in "${names[@]}"; do
	# shellcheck disable=SC2046  # a list of scripts
	sched_add "mutant-$m" "$(is_quiet $(field Tests "tests/mutants/$m.patch"))" mutant_job "$m"
done
sched_run
for m in "${names[@]}"; do
	grep -E '^(not )?ok - |^#   |^# mutant ' "$logs/parts/mutant-$m.tap" >> "$logs/results.tap"
	if grep -q '^ok - mutant ' "$logs/parts/mutant-$m.tap"; then
		caught=$((caught + 1))
	elif grep -q '^not ok - mutant .*: not judged' "$logs/parts/mutant-$m.tap"; then
		unjudged=$((unjudged + 1))
	else
		missed=$((missed + 1))
	fi
	grep -q '^# mutant .*: side catch' "$logs/parts/mutant-$m.tap" && sides=$((sides + 1))
done
total=$(( $(date +%s) - t0 ))
echo "# mutation lane took $total s ($(( total / 60 )) min) for ${#names[@]} mutants"
summary="$caught caught, $missed missed"
[ "$sides" -gt 0 ] && summary="$summary ($sides with side catches)"
[ "$unjudged" -gt 0 ] &&
	summary="$summary, INCOMPLETE ($unjudged not judged: control $(printf '%s ' "${ctl_failed[@]}" | sed 's/ $//') failed, $(grep -h -m1 '^not ok - ' $(for c in "${ctl_failed[@]}"; do echo "$logs/control-$c.tap"; done) | head -1 | sed 's/^not ok - //; s/|/\\|/g' | cut -c1-120))"
all=$(ls tests/mutants/*.patch | wc -l)
if [ "${FT_MUTANTS_RECORD:-0}" = 1 ] && [ ${#names[@]} = "$all" ]; then
	printf '| %s | %s | inputs %s | %s | %d min | %s |\n' "$(date -u '+%F %H:%M')" "$commit" \
		"$inputs" "$summary" $(( (total + 59) / 60 )) "$KVER" >> docs/mutants.md
fi
echo "$summary"
[ "$missed" = 0 ] && [ "$unjudged" = 0 ]
