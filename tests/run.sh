#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - foliotune's whole test suite (what `make check` and CI run).
#
# Stages:
#   host     host-side tests (CLI, klp-convert, ...)       tests/run-host.sh
#   style    checkpatch on the kernel code
#   guest    the test-box suites: one boot per suite, xfs scratch disk,
#            console-log gate on every boot               tests/guest/suite.sh
#   reliability  bad input, security, lockdown, wrong kernel, faults,
#            load/unload cycles, stress-ng, mm selftests  tests/guest/reliability/
#   gate     self-test: a module that WARNs must fail the gate
#   kernels  the smoke suite on the other kernel builds CI covers
#            (scripts/kernels/ci-kernels; make check-kernels)
#   demo     make demo, each of its tables with its verdict     tests/demo-check.sh
#
# The host and style stages run first, on both cores (the host stage is two
# lanes of its own, and runs make in the work tree whose module the boxes
# load).  Then every boot of the other stages is one job of
# harness/vm/schedule.sh: two boxes at once, one per core, longest first by
# each boot's last measured time (build/job-times; a clean clone's first
# run: harness/vm/job-times); a boot whose checks need the machine to itself
# is "quiet" and runs alone.  Each boot keeps its own scratch image, run
# directory and console gate, and leaves its results in
# build/test-logs/parts/NAME.tap, printed when it ends; the run assembles
# them in the order of the stages above, whatever order they ended in, so
# the result lines and their numbers do not depend on the schedule.
#
# Every stage contributes result lines; they are numbered here and the run
# ends with "# Totals" and "N passed, N failed, N skipped".  Each boot's
# plan comes from the plans its scripts state (tests/guest/suite.sh); the
# run's TAP plan is the sum of the stages' plans, and results that differ
# from it fail the run.  A skip is only
# acceptable for hardware these machines lack ("# SKIP hw: ..."); any other
# skip fails the run.  Logs: build/test-logs/.  Ctrl-C stops every box.
#
# Parts, for development and for the debug-kernel lane (make check-debug,
# which runs the same suites on another kernel build); all optional, CI
# runs everything:
#   FT_STAGES          stages to run (default "host style guest reliability gate kernels demo")
#   FT_SUITES          boots to run, by name: main reclaim unmap rel-input ...
#                      gate kernels-KVER demo (default all)
#   FT_SUITES_EXCEPT   boots to leave out, by name (a new boot is then in by default)
#   FT_GUEST_SUITES    guest-stage suites to run (default "main reclaim quiet unmap")
#   FT_LANES           boxes at once (default: the cores, at most 2)
#   FT_TEST_LOGS       log directory
#   FT_KERNEL_IMAGE    kernel image to boot (vmrun -K)
#   FT_GUEST_MODULES   the guest's /lib/modules/KVER (vmrun -M)
#   FT_KO FT_WRONG_KO FT_WARN_KO FT_LOCKDEP_KO   the modules built for it
#   FT_LEAK_KO         ft_leak_test.ko of a kmemleak kernel: adds the rel-leaks suite
#   FT_TIME_SCALE      multiply the boots' timeouts (slow debug kernels)
#   FT_AB_SIZE_MB FT_AB_PAIRS   test-ab's workload size and pairs (its defaults
#                      are for stock kernels)
#   FT_WRONG_KVER      the other kernel the wrong-kernel suite boots
#   FT_DRY_RUN=1       run nothing: print the boxes' options and the boots
#                      the selection queues, one "boot NAME QUIET COMMAND"
#                      line each (tests/host/test-run-selection.sh)
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
FT_WRONG_KVER=${FT_WRONG_KVER:-6.1.0-57-amd64}	# a kernel foliotune must refuse
logs=${FT_TEST_LOGS:-$repo/build/test-logs}
dry=${FT_DRY_RUN:-0}
# a dry run leaves the last run's logs alone
[ "$dry" = 1 ] && { logs=$(mktemp -d); trap 'rm -rf "$logs"' EXIT; }
stages=" ${FT_STAGES:-host style guest reliability gate kernels demo} "
only_suites=" ${FT_SUITES:-} "
except_suites=" ${FT_SUITES_EXCEPT:-} "
scale=${FT_TIME_SCALE:-1}
warn_ko=${FT_WARN_KO:-$repo/tests/modules/ft_warn_test.ko}
mkdir -p "$logs"
rm -rf "$logs/parts"
all=$logs/results.tap
: > "$all"
: > "$logs/timings.txt"
. harness/vm/boot.sh
. harness/vm/schedule.sh
# DAMON_STAT (Linux 6.17+, on by default in Debian's 7.x builds) samples
# all of memory from a kdamond that ages the sampled folios' PTEs through
# the rmap, with clear_young / test_young calls to every MMU notifier: a
# third party in what the tests count.  Off in the test boxes (an unknown
# dotted parameter is ignored on 6.12); the benchmarks keep the kernel's
# default (docs/qemu-test-box.md).
vm_opts=(-k "$KVER" -q -a damon_stat.enabled=N)
[ -n "${FT_KERNEL_IMAGE:-}" ] && vm_opts+=(-K "$FT_KERNEL_IMAGE")
[ -n "${FT_GUEST_MODULES:-}" ] && vm_opts+=(-M "$FT_GUEST_MODULES")
for var in FT_KO FT_WRONG_KO FT_LEAK_KO FT_AB_SIZE_MB FT_AB_PAIRS; do
	[ -n "${!var:-}" ] && vm_opts+=(-e "$var=${!var}")
done
# The unmap suite's per-case timeout grows with the boots' (debug kernels).
[ "$scale" != 1 ] && vm_opts+=(-e "FT_TIMEOUT=$((180 * scale))")
# the stages that run here, not in a box, are left out of a dry run
has_stage() { [[ $stages == *" $1 "* ]] && { [ "$dry" != 1 ] || [[ " host style " != *" $1 "* ]]; }; }
wanted() {
	[[ $except_suites != *" $1 "* ]] &&
	{ [ "$only_suites" = "  " ] || [[ $only_suites == *" $1 "* ]]; }
}
. tests/plan.sh
# Each stage or boot writes its results and plan to its part ($part:
# build/test-logs/parts/NAME.tap), which the end of the run assembles.
emit() { tee -a "$part" | grep -E '^(not )?ok - ' ; }
# Plans of the stages, as "# run plan: WHAT N" lines in the parts, summed at
# the end ("# plan: " lines are the scripts' own, inside a boot).
plan_of() { echo "# run plan: $1 $2" >> "$part"; }
count_results() { grep -cE '^(not )?ok - ' "$@" | tr -d ' '; }
# The parts in the order of the stages: the order of the assembled run.
parts_order=()

# guest_suite NAME VMRUN-OPTIONS... -- SUITE-ARGS...: one boot of the test
# box, as a job (SCHED_PART: its part).
guest_suite() {
	local name=$1; shift
	local part=$SCHED_PART
	local opts=() args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	args=("$@")
	local out=$logs/guest-$name.out
	local rundir_file=$logs/rundir-$name
	rm -f "$rundir_file"
	vm_boot "$repo/build/vm/xfs-$name.img" 1G "${vm_opts[@]}" -l "$logs/console-$name.log" \
		-R "$rundir_file" "${opts[@]}" -s tests/guest/suite.sh "${args[@]}" > "$out" 2>&1
	local rc=$?
	local rundir planned=0 got=0 plan_note=
	rundir=$(cat "$rundir_file" 2>/dev/null)
	if [ -f "$rundir/results.tap" ]; then
		planned=$(boot_plan "$rundir/results.tap")
		got=$(count_results "$rundir/results.tap")
		emit < "$rundir/results.tap"
		[ "$got" = "$planned" ] || plan_note="$got results, planned $planned"
	else
		plan_note="no results.tap: the suite never ran"
	fi
	# This boot's plan: its results plus the line below.
	plan_of "guest $name" $((planned + 1))
	[ "$rc" = 0 ] && [ -n "$plan_note" ] && rc=plan
	case $rc in
	0) echo "ok - guest $name: boot, run, clean console, $got results as planned" | emit ;;
	plan) echo "not ok - guest $name: boot, run, clean console # $plan_note" | emit ;;
	251) echo "not ok - guest $name: $(vm_why $rc) while tests ran (see $logs/console-$name.log)" | emit
	     # CI keeps only this output: the kernel's first report (a hung
	     # task's stack, say) and what it said last, in the part too, for
	     # the failure summary at the end (which keeps 40 lines).
	     { if report=$(harness/vm/console-gate.sh --first 28 "$logs/console-$name.log"); then
			echo "# first kernel report of guest $name:"
			printf '%s\n' "$report" | sed 's/^/#   /'
	       fi
	       echo "# last console lines of guest $name:"
	       grep -vE '^VMRUN_' "$logs/console-$name.log" | tail -10 | sed 's/^/#   /'; } >> "$part" ;;
	252) echo "not ok - guest $name: $(vm_why $rc) (see $logs/console-$name.log)" | emit
	     grep -A40 'console gate' "$out" | head -40 | sed 's/^/#   /' >> "$part" ;;
	250|"$FT_VM_NO_SCRATCH") echo "not ok - guest $name: $(vm_why $rc)" | emit ;;
	*) echo "not ok - guest $name: suite exit status $rc" | emit ;;
	esac
	[ -n "$plan_note" ] && echo "# guest $name: $plan_note" >> "$part"
	grep -h 'early boot death' "$out" | sed 's/^/# /' >> "$part"
}

# boot NAME QUIET VMRUN-OPTIONS... -- SUITE-ARGS...: queue one boot (unless
# FT_SUITES leaves it out).
boot() {
	local name=$1 quiet=$2
	shift 2
	wanted "$name" || return 0
	parts_order+=("$name")
	sched_add "$name" "$quiet" guest_suite "$name" "$@"
}

# A job's results as it ends: its result lines, its diagnostics, its time.
job_done() {
	grep -E '^(not )?ok - |^# (first kernel|last console|guest|early)|^#   ' "$logs/parts/$1.tap"
	grep '^# job ' "$logs/parts/$1.tap" | tee -a "$logs/timings.txt"
}
SCHED_ON_DONE=job_done

t0=$(date +%s)
sched_init "$logs"

# ---- first, on both cores: the host stage and checkpatch ----
if has_stage host; then
	echo "== stage host"
	part=$logs/parts/host.tap parts_order+=(host)
	: > "$part"
	t=$(date +%s)
	tests/run-host.sh > "$logs/host.out"
	# The host tests state no plans yet: their plan is what they printed.
	plan_of host "$(count_results "$logs/host.out")"
	emit < "$logs/host.out"
	echo "== stage host took $(( $(date +%s) - t )) s" | tee -a "$logs/timings.txt"
fi

if has_stage style; then
	echo "== stage style"
	part=$logs/parts/style.tap parts_order+=(style)
	: > "$part"
	t=$(date +%s)
	plan_of style 1
	if out=$(make -s check-style 2>&1); then
		echo "ok - style: checkpatch clean on module/ and include/" | emit
	else
		echo "not ok - style: checkpatch # see $logs/checkpatch.txt" | emit
		printf '%s\n' "$out" > "$logs/checkpatch.txt"
		printf '%s\n' "$out" | head -30
	fi
	echo "== stage style took $(( $(date +%s) - t )) s" | tee -a "$logs/timings.txt"
fi

# ---- then the boots, two at once ----
if has_stage guest; then
	suites=" ${FT_GUEST_SUITES:-main reclaim quiet unmap} "
	# tests/guest/test-*.sh in two boots: reclaim (the tests that drive
	# reclaim through the replaced functions) and main (the rest, a new test
	# included).  In one boot they ran out of 900 s in CI; apart, on a
	# machine shared with another box and builds, main took 805 s and
	# reclaim 414 s of tests, so main gets 1200 s and reclaim 900 s
	# (test-load-pressure's own bound is 300 s).
	# A test whose timing checks cannot hold with a second box beside it
	# says so in a "# quiet: WHY" line; those run in the quiet boot, alone.
	reclaim_tests=() main_tests=() quiet_tests=()
	for t in tests/guest/test-*.sh; do
		if grep -q '^# quiet: ' "$t"; then
			quiet_tests+=("$t")
		else
			case $t in
			tests/guest/test-referenced.sh | tests/guest/test-load-pressure.sh | tests/guest/test-unmap-*.sh)
				reclaim_tests+=("$t") ;;
			*)	main_tests+=("$t") ;;
			esac
		fi
	done
	[[ $suites == *" main "* ]] && boot main 0 -t $((1200 * scale)) -- "${main_tests[@]}"
	[[ $suites == *" reclaim "* ]] && boot reclaim 0 -t $((900 * scale)) -- "${reclaim_tests[@]}"
	[[ $suites == *" quiet "* ]] && [ ${#quiet_tests[@]} -gt 0 ] &&
		boot quiet 1 -t $((900 * scale)) -- "${quiet_tests[@]}"
	[[ $suites == *" unmap "* ]] && boot unmap 0 -t $((1800 * scale)) -- tests/guest/integrity/integrity-boot.sh
	# (The test box as a user's own machine, building inside the emulator, is
	# its own lane: make check-box-proof, docs/own-box.md.)
fi

# Reliability (tests/guest/reliability/README.md): one boot per suite, so that a
# crash in one cannot hide the results of the others.
if has_stage reliability; then
	boot rel-input 0 -t $((600 * scale)) -- tests/guest/reliability/input.sh
	boot rel-security 0 -t $((600 * scale)) -- tests/guest/reliability/security.sh
	boot rel-lockdown 0 -a lockdown=integrity -- tests/guest/reliability/lockdown.sh
	boot rel-wrongkernel 0 -k "$FT_WRONG_KVER" -- tests/guest/reliability/wrongkernel.sh
	boot rel-faults 0 -t $((1800 * scale)) -- tests/guest/reliability/faults.sh
	# One vCPU: with two, every livepatch transition (thousands of
	# text_poke_bp() sites, each syncing the other vCPU) takes 35-50 s under
	# single-threaded TCG; with one, a few seconds.  The other suites run the
	# replacement on two vCPUs.
	boot rel-cycles 0 -c 1 -t $((1800 * scale)) -- tests/guest/reliability/cycles.sh
	boot rel-stress 0 -t $((1200 * scale)) -- tests/guest/reliability/stress.sh
	boot rel-peer 0 -t $((2700 * scale)) -- tests/guest/reliability/peer.sh
	# Kernels with kmemleak only (the debug-kernel lane); one vCPU, as
	# rel-cycles, for its load/unload cycles.
	[ -n "${FT_LEAK_KO:-}" ] && boot rel-leaks 0 -c 1 -t $((1200 * scale)) -- tests/guest/reliability/leaks.sh
fi

# gate: a module that WARNs must fail the console gate; on debug kernels,
# lockdep's and DEBUG_ATOMIC_SLEEP's reports too (FT_LOCKDEP_KO:
# tests/modules/ft_lockdep_test.ko built for that kernel).
gate_job() {
	local part=$SCHED_PART rc what expect
	local gate_plan=1
	[ -n "${FT_LOCKDEP_KO:-}" ] && gate_plan=3	# and the lockdep, atomic_sleep reports
	plan_of gate "$gate_plan"
	"$FT_VM_DIR/vmrun.sh" "${vm_opts[@]}" -t $((600 * scale)) -l "$logs/console-gate-selftest.log" -- "insmod $warn_ko" \
		> "$logs/gate-selftest.out" 2>&1
	rc=$?
	if [ "$rc" = 252 ] && grep -q "WARNING:.*ft_warn_test" "$logs/gate-selftest.out"; then
		echo "ok - gate: a WARN in the guest fails the console gate" | emit
	else
		echo "not ok - gate: a WARN in the guest fails the console gate # vmrun exit $rc, expected 252" | emit
	fi
	[ -n "${FT_LOCKDEP_KO:-}" ] || return 0
	for what in lockdep:'WARNING: possible circular locking dependency detected' \
		    atomic_sleep:'BUG: sleeping function called from invalid context'; do
		expect=${what#*:} what=${what%%:*}
		"$FT_VM_DIR/vmrun.sh" "${vm_opts[@]}" -t $((600 * scale)) -l "$logs/console-gate-$what.log" -- \
			"insmod $FT_LOCKDEP_KO what=$what" > "$logs/gate-$what.out" 2>&1
		rc=$?
		if [ "$rc" = 252 ] && grep -qF "$expect" "$logs/gate-$what.out"; then
			echo "ok - gate: the $what report in the guest fails the console gate" | emit
		else
			echo "not ok - gate: the $what report in the guest fails the console gate # vmrun exit $rc, expected 252 and '$expect'" | emit
		fi
	done
}
if has_stage gate && wanted gate; then
	parts_order+=(gate)
	sched_add gate 0 gate_job
fi

# kernels: one boot per other verified build of scripts/kernels/ci-kernels,
# each built (make kernel-module) and smoked (tests/guest/smoke-suite.sh) by
# scripts/kernels/check-all.sh --one, one result line each.
kernel_job() {
	local part=$SCHED_PART
	plan_of "kernels $1" 1
	scripts/kernels/check-all.sh --one "$1" | emit
}
if has_stage kernels; then
	for k in $(grep -v '^#' scripts/kernels/ci-kernels | grep -vx "$KVER"); do
		wanted "kernels-$k" || continue
		parts_order+=("kernels-$k")
		sched_add "kernels-$k" 0 kernel_job "$k"
	done
fi

# demo: `make demo` as a user runs it first, each of its tables with its
# verdict line (tests/demo-check.sh; the figures are measurements, not
# checked).
demo_job() {
	local part=$SCHED_PART out
	out=$("$repo/tests/demo-check.sh" "$logs/demo.log")
	plan_of demo "$(sed -n 's/^1\.\.//p' <<< "$out")"
	grep -E '^(not )?ok - ' <<< "$out" | emit
}
if has_stage demo && wanted demo; then
	parts_order+=(demo)
	sched_add demo 0 demo_job
fi

if [ "$dry" = 1 ]; then
	echo "vmrun options: ${vm_opts[*]}"
	for i in "${!sched_names[@]}"; do
		echo "boot ${sched_names[$i]} ${sched_quiet[$i]} ${sched_cmds[$i]}"
	done
	exit 0
fi
if [ ${#sched_names[@]} -gt 0 ]; then
	echo "== the boots, $FT_LANES at once: ${sched_names[*]}"
	t=$(date +%s)
	sched_run
	echo "== the boots took $(( $(date +%s) - t )) s" | tee -a "$logs/timings.txt"
	# each stage's boots, summed (lane-seconds: with two lanes, twice the
	# wall time they took at most)
	awk '$1 == "#" && $2 == "job" { n = $3; s = n ~ /^rel-/ ? "reliability" : \
		n ~ /^kernels-/ ? "kernels" : n == "gate" || n == "demo" ? n : "guest"; t[s] += $5 }
	     END { for (s in t) printf "== stage %s: its boots took %d s\n", s, t[s] }' \
		"$logs/timings.txt" | sort | tee -a "$logs/timings.txt"
fi
for p in "${parts_order[@]}"; do
	cat "$logs/parts/$p.tap" >> "$all"
done

# The plan (from the stages' plans), then number and count.
planned=$(awk '/^# run plan: / { n += $NF } END { print n + 0 }' "$all")
ran=$(count_results "$all")
pass=$(grep -c '^ok - ' "$all" | tr -d ' ')
fail=$(grep -c '^not ok - ' "$all" | tr -d ' ')
skip_hw=$(grep -c '^ok - .*# SKIP hw:' "$all" | tr -d ' ')
skip_bad=$(grep '^ok - .*# SKIP' "$all" | grep -vc '# SKIP hw:' | tr -d ' ')
skip=$((skip_hw + skip_bad))
pass=$((pass - skip))
awk '/^(not )?ok - / { n++; sub(/^ok - /, "ok " n " - "); sub(/^not ok - /, "not ok " n " - "); print }' \
	"$all" > "$logs/results-numbered.tap"
echo
echo "TAP version 13"
echo "1..$planned"
cat "$logs/results-numbered.tap"
if [ "$ran" != "$planned" ]; then
	echo "# $ran results, planned $planned: the run fails"
	grep -h '^# guest .*planned\|^# guest .*results.tap' "$all" | sed 's/^/#   /'
fi
if [ "$skip_bad" -gt 0 ]; then
	echo "# $skip_bad skip(s) without a hardware reason: they count as failures:"
	grep '^ok - .*# SKIP' "$all" | grep -v '# SKIP hw:' | sed 's/^/#   /'
fi
# CI keeps the end of this output: each failure again, between the "#"
# lines around it (its reason, a console's kernel errors).  Suites print a
# case's diagnostics before its result or after it: both sides, at most 40
# lines each.
if [ "$fail" -gt 0 ]; then
	echo "# the failures, each between the \"#\" lines around it:"
	awk '/^not ok - / { print "#   --"
			    for (i = (nb > 40 ? nb - 40 : 0); i < nb; i++) print "#   " b[i]
			    print "#   " $0; n = 1; nb = 0; next }
	     /^#/ { if (n && n++ <= 40) print "#   " $0; b[nb++] = $0; next }
	     { n = 0; nb = 0 }' "$all"
fi
echo "# whole suite took $(( $(date +%s) - t0 )) s"
echo "# Totals: pass:$pass fail:$fail skip:$skip"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$skip_bad" -eq 0 ] && [ "$ran" = "$planned" ]
