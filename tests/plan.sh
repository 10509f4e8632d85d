# SPDX-License-Identifier: GPL-2.0
#
# tests/plan.sh - the plan arithmetic of the guest suites, shared by
# tests/guest/suite.sh (through tests/lib.sh), tests/run.sh and the host
# test of both (tests/host/test-plans.sh).  The convention is described at
# the top of tests/guest/suite.sh.

# plan_filter NAME SIDEFILE: passes a script's output through, turns its
# plan line into "# plan: NAME N", and writes "PLANNED COUNTED" to SIDEFILE
# (PLANNED -1: no single plan line before the first result).  For
# tests/guest/suite.sh, which describes the convention.
plan_filter() {
	# bash, not awk: mawk reads a pipe in blocks, and results.tap must
	# hold every line as soon as it is printed (the guest may die).
	local name=$1 side=$2 line plan= n=0 extra=0
	while IFS= read -r line || [ -n "$line" ]; do
		if [[ $line =~ ^1\.\.([0-9]+)$ ]]; then
			if [ -z "$plan" ] && [ "$n" = 0 ]; then
				plan=${BASH_REMATCH[1]}
				echo "# plan: $name $plan"
			else
				echo "# $name: a second plan line: $line"
				extra=1
			fi
			continue
		fi
		[[ $line =~ ^(not\ )?ok\ -\  ]] && n=$((n + 1))
		printf '%s\n' "$line"
	done
	[ -n "$plan" ] && [ "$extra" = 0 ] || plan=-1
	echo "$plan $n" > "$side"
}

# plan_verdict NAME PLANNED COUNTED RC: a script's summary line.
plan_verdict() {
	if [ "${2:--1}" -lt 0 ]; then
		echo "not ok - $1 # no single plan line 1..N before its first result ($3 results, exit $4)"
	elif [ "$3" != "$2" ]; then
		echo "not ok - $1 # $3 results, planned $2 (exit $4)"
	elif [ "$4" != 0 ]; then
		echo "not ok - $1 # script exit status $4"
	else
		echo "ok - $1: $3 results as planned, exit 0"
	fi
}

# boot_plan RESULTS: the result lines a boot's results.tap must hold, from
# the plans it states (suite.sh): each listed script's plan plus its
# summary line, and the suite's own line.  For tests/run.sh.
boot_plan() {
	awk '/^# scripts: / { n += NF - 2 } /^# plan: / { n += $4 } END { print n + 0 }' "$1"
}
