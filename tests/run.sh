#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - foliotune's whole test suite (what `make check` and CI run).
#
# Stages, each timed:
#   host     host-side tests (CLI, klp-convert, ...)       tests/run-host.sh
#   style    checkpatch on the kernel code
#   guest    the test-box suites: one boot per suite, xfs scratch disk,
#            console-log gate on every boot               tests/guest/suite.sh
#   reliability  bad input, security, lockdown, wrong kernel, faults,
#            load/unload cycles, stress-ng, mm selftests  tests/guest/reliability/
#   gate     self-test: a module that WARNs must fail the gate
#
# Every stage contributes result lines; they are numbered here and the run
# ends with "# Totals" and "N passed, N failed, N skipped".  A skip is only
# acceptable for hardware these machines lack ("# SKIP hw: ..."); any other
# skip fails the run.  Logs: build/test-logs/.
#
# FT_STAGES="host style guest reliability gate" (default: all) and
# FT_SUITES="main unmap rel-input ..." (default: all) select parts, for
# development; CI runs everything.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
KVER=${KVER:-6.12.117+deb12-amd64}
FT_WRONG_KVER=${FT_WRONG_KVER:-6.1.0-57-amd64}	# a kernel foliotune must refuse
logs=$repo/build/test-logs
mkdir -p "$logs"
all=$logs/results.tap
: > "$all"
vmrun=(scripts/vm/vmrun.sh -k "$KVER" -q)

stages=" ${FT_STAGES:-host style guest reliability gate} "
suites=" ${FT_SUITES:-} "
want_stage() { case $stages in *" $1 "*) return 0 ;; esac; return 1; }
stage_start() { stage=$1; stage_t0=$(date +%s); echo "== stage $stage"; }
stage_end() { echo "== stage $stage took $(( $(date +%s) - stage_t0 )) s" | tee -a "$logs/timings.txt"; }
emit() { tee -a "$all" | grep -E '^(not )?ok - ' ; }

# guest_suite NAME VMRUN-OPTIONS... -- SUITE-ARGS...: one boot of the test box.
guest_suite() {
	local name=$1; shift
	[ "$suites" = "  " ] || case $suites in *" $name "*) ;; *) return ;; esac
	local opts=() args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	args=("$@")
	local disk=$repo/build/vm/xfs-$name.img
	mkdir -p "$repo/build/vm"
	rm -f "$disk"
	truncate -s 1G "$disk" && mkfs.xfs -q -f "$disk" || {
		echo "not ok - guest $name: scratch xfs # mkfs.xfs failed" | emit; return; }
	local out=$logs/guest-$name.out
	local rundir_file=$logs/rundir-$name
	rm -f "$rundir_file"
	"${vmrun[@]}" -d "$disk" -l "$logs/console-$name.log" -R "$rundir_file" "${opts[@]}" \
		-s tests/guest/suite.sh "${args[@]}" > "$out" 2>&1
	local rc=$?
	local rundir
	rundir=$(cat "$rundir_file" 2>/dev/null)
	[ -f "$rundir/results.tap" ] && emit < "$rundir/results.tap"
	case $rc in
	0) echo "ok - guest $name: boot, run, clean console" | emit ;;
	250) echo "not ok - guest $name: died before the command started, retries exhausted" | emit ;;
	251) echo "not ok - guest $name: kernel crashed or timed out while tests ran (see $logs/console-$name.log)" | emit
	     # CI keeps only this output: show what the kernel said last.
	     echo "# last console lines of guest $name:"
	     grep -vE '^VMRUN_' "$logs/console-$name.log" | tail -60 | sed 's/^/#   /' ;;
	252) echo "not ok - guest $name: console gate found kernel errors (see $logs/console-$name.log)" | emit
	     grep -A40 'console gate' "$out" | head -40 ;;
	*) echo "not ok - guest $name: suite exit status $rc" | emit ;;
	esac
	grep -h 'early boot death' "$out" | sed 's/^/# /' | tee -a "$all"
	rm -f "$disk"
}

t0=$(date +%s)

if want_stage host; then
stage_start host
tests/run-host.sh | emit
stage_end
fi

if want_stage style; then
stage_start style
if out=$(make -s check-style 2>&1); then
	echo "ok - style: checkpatch clean on module/ and include/" | emit
else
	echo "not ok - style: checkpatch # see $logs/checkpatch.txt" | emit
	printf '%s\n' "$out" > "$logs/checkpatch.txt"
	printf '%s\n' "$out" | head -30
fi
stage_end
fi

if want_stage guest; then
stage_start guest
guest_suite main
guest_suite unmap -t 1800 -- tests/guest/unmap/suite.sh
stage_end
fi

# Reliability (tests/reliability/README.md): one boot per suite, so that a
# crash in one cannot hide the results of the others.
if want_stage reliability; then
stage_start reliability
guest_suite rel-input -- tests/guest/reliability/input.sh
guest_suite rel-security -- tests/guest/reliability/security.sh
guest_suite rel-lockdown -a lockdown=integrity -- tests/guest/reliability/lockdown.sh
guest_suite rel-wrongkernel -k "$FT_WRONG_KVER" -- tests/guest/reliability/wrongkernel.sh
guest_suite rel-faults -t 1800 -- tests/guest/reliability/faults.sh
guest_suite rel-cycles -t 1800 -- tests/guest/reliability/cycles.sh
guest_suite rel-stress -t 1200 -- tests/guest/reliability/stress.sh
guest_suite rel-peer -t 2700 -- tests/guest/reliability/peer.sh
stage_end
fi

if want_stage gate; then
stage_start gate
"${vmrun[@]}" -l "$logs/console-gate-selftest.log" -- "insmod $repo/tests/modules/ft_warn_test.ko" \
	> "$logs/gate-selftest.out" 2>&1
rc=$?
if [ "$rc" = 252 ] && grep -q "WARNING:.*ft_warn_test" "$logs/gate-selftest.out"; then
	echo "ok - gate: a WARN in the guest fails the console gate" | emit
else
	echo "not ok - gate: a WARN in the guest fails the console gate # vmrun exit $rc, expected 252" | emit
fi
stage_end
fi

# Number and count.
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
echo "1..$((pass + fail + skip))"
cat "$logs/results-numbered.tap"
if [ "$skip_bad" -gt 0 ]; then
	echo "# $skip_bad skip(s) without a hardware reason: they count as failures:"
	grep '^ok - .*# SKIP' "$all" | grep -v '# SKIP hw:' | sed 's/^/#   /'
fi
echo "# whole suite took $(( $(date +%s) - t0 )) s"
echo "# Totals: pass:$pass fail:$fail skip:$skip"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$skip_bad" -eq 0 ]
