#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh - the long, on-demand versions of foliotune's reliability suites
# (tests/guest/reliability/*.sh), each in its own boot of the test box.
#
#   tests/soak.sh [-d DURATION] [-n CYCLES] [SUITE...]
#   make soak [DURATION=2h] [CYCLES=500] [SUITES='cycles faults']
#
# SUITE: cycles (default 500 load/unload cycles under reclaim),
# faults (random knob flips over every ft_integrity case, hwpoison, pins for
# 60 s each), stress (stress-ng, 10 min per run), peer (the long mm selftest
# set, stock vs. foliotune), loadtime (5 rounds of loading foliotune and the
# kernel's livepatch selftest module under stress-ng, phase by phase; not
# in the default set: about an hour).  Default: the first four.
#
# DURATION (seconds, or with an s/m/h suffix) bounds the cycles suite: it
# stops after CYCLES cycles or when DURATION has passed, whichever comes
# first (at least 30 cycles either way).  The other suites have fixed
# lengths (about 10-40 min each under TCG).
#
# Output: the result lines of every suite, then "N passed, N failed";
# logs in build/soak-logs/.  Exit status 0 iff nothing failed.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
duration=0
cycles=500

to_seconds() {
	case $1 in
	*h) echo $(( ${1%h} * 3600 )) ;;
	*m) echo $(( ${1%m} * 60 )) ;;
	*s) echo "${1%s}" ;;
	*) echo "$1" ;;
	esac
}
while getopts "d:n:h" opt; do
	case $opt in
	d) duration=$(to_seconds "$OPTARG") ;;
	n) cycles=$OPTARG ;;
	*) sed -n '4,23p' "$0" | sed 's/^# \{0,1\}//'; exit 1 ;;
	esac
done
shift $((OPTIND - 1))
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(cycles faults stress peer)
case $duration$cycles in *[!0-9]*) echo "soak: DURATION and CYCLES must be numbers (with s/m/h for DURATION)" >&2; exit 1 ;; esac

# The programs the suites run (the module, CLI and tests/progs come from
# `make`, which `make soak` runs first).
make -s -C tests/progs ft_rel || exit 1
case " ${suites[*]} " in *" peer "*) tests/mm-selftests/build-mm-selftests.sh || exit 1 ;; esac
case " ${suites[*]} " in *" loadtime "*) make -s klp-floor > /dev/null || exit 1 ;; esac

. harness/vm/boot.sh
logs=$repo/build/soak-logs
mkdir -p "$logs" build/vm
all=$logs/results.tap
: > "$all"
t_all=$(date +%s)

# soak_suite NAME TIMEOUT VMRUN-OPTS... -- ENV...: one boot.
soak_suite() {
	local name=$1 timeout=$2; shift 2
	local opts=() envs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	envs=("$@")
	local t0 rc
	echo "== soak $name (timeout $timeout s)"
	t0=$(date +%s)
	vm_boot "$repo/build/vm/xfs-soak-$name.img" 2G -k "$KVER" -q -t "$timeout" \
		-l "$logs/console-$name.log" "${opts[@]}" -- \
		"${envs[*]} FT_REL_MODE=long bash tests/guest/suite.sh tests/guest/reliability/$name.sh" \
		> "$logs/$name.out" 2>&1
	rc=$?
	grep -E '^(not )?ok - |^# ' "$logs/$name.out" | grep -v "^# [a-z]* took" | tee -a "$all" |
		grep -E '^(not )?ok - |^# (cycles|flip|.*took)'
	case $rc in
	0) echo "ok - soak $name: boot, run, clean console ($(( $(date +%s) - t0 )) s)" | tee -a "$all" ;;
	*) if why=$(vm_why "$rc"); then
		echo "not ok - soak $name: $why (see $logs/console-$name.log)"
	   else
		echo "not ok - soak $name: suite exit status $rc"
	   fi | tee -a "$all" ;;
	esac
}

for s in "${suites[@]}"; do
	case $s in
	cycles)
		# ~15 s per cycle under a loaded TCG host; the timeout leaves room.
		if [ "$duration" -gt 0 ]; then t=$((duration + 900)); else t=$((cycles * 20 + 900)); fi
		soak_suite cycles "$t" -c 1 -- FT_REL_CYCLES="$cycles" FT_REL_DURATION="$duration" ;;
	faults) soak_suite faults 7200 -- ;;
	stress) soak_suite stress 3600 -- ;;
	peer) soak_suite peer 7200 -- ;;
	loadtime) soak_suite loadtime 7200 -- ;;
	*) echo "soak: unknown suite '$s' (cycles, faults, stress, peer, loadtime)" >&2; exit 1 ;;
	esac
done

pass=$(grep -c '^ok - ' "$all")
fail=$(grep -c '^not ok - ' "$all")
echo "# soak took $(( $(date +%s) - t_all )) s; logs in ${logs#"$repo"/}/"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
