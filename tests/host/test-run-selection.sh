#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-run-selection.sh - which boots tests/run.sh queues, from its dry run
# (FT_DRY_RUN=1): every guest test in exactly one guest boot, FT_SUITES and
# FT_SUITES_EXCEPT select by name, the debug lane's boots are all of them
# but the two it names, the boxes' options, and a dry run touches no logs.
. "$(dirname "$0")/lib-host.sh"

dry() { FT_DRY_RUN=1 FT_TEST_LOGS=$w/logs "$@"; }
unset FT_STAGES FT_SUITES FT_SUITES_EXCEPT FT_AB_SIZE_MB FT_AB_PAIRS FT_KO FT_LEAK_KO
# boots OUTPUT: the queued boots' names, one line
boots() { awk '$1 == "boot" { printf "%s%s", s, $2; s = " " }' <<< "$1"; }
kver=$(cat "$repo/scripts/kernels/default-kver")
mkdir -p "$w/logs/parts" && echo last > "$w/logs/parts/main.tap"

all=$(dry "$repo/tests/run.sh")
# the guest tests of the three boots that share them out, one per line
share=$(awk '$1 == "boot" && ($2 == "main" || $2 == "reclaim" || $2 == "quiet") {
	for (i = 1; i <= NF; i++) if ($i ~ /^tests\/guest\/test-.*\.sh$/) print $i }' <<< "$all" | sort)
check_eq "run selection: every guest test in exactly one of main, reclaim, quiet" \
	"$(cd "$repo" && ls tests/guest/test-*.sh | sort)" "$share"
check_eq "run selection: the quiet boot runs alone, no other boot does" "quiet" \
	"$(awk '$1 == "boot" && $3 == 1 { print $2 }' <<< "$all")"
k_boots=$(grep -v '^#' "$repo/scripts/kernels/ci-kernels" | grep -vx "$kver" | sed 's/^/kernels-/' | xargs)
check_eq "run selection: all stages queue every boot, in stage order" \
	"main reclaim quiet unmap rel-input rel-security rel-lockdown rel-wrongkernel rel-faults rel-cycles rel-stress rel-peer gate $k_boots demo" \
	"$(boots "$all")"
check "run selection: the boxes boot the default build with DAMON_STAT off ($(grep '^vmrun options' <<< "$all"))" \
	grep -qx "vmrun options: -k $kver -q -a damon_stat.enabled=N" <<< "$all"
check "run selection: a dry run leaves the last run's logs" \
	grep -qx last "$w/logs/parts/main.tap"

check_eq "run selection: FT_SUITES names the boots" "main rel-peer" \
	"$(boots "$(FT_SUITES="main rel-peer" dry "$repo/tests/run.sh")")"
check_eq "run selection: FT_STAGES and FT_SUITES_EXCEPT together" \
	"main quiet unmap gate" \
	"$(boots "$(FT_STAGES="guest gate" FT_SUITES_EXCEPT="reclaim" dry "$repo/tests/run.sh")")"
debug=$(FT_LEAK_KO=/nonexistent.ko dry "$repo/harness/debug-kernel/debug-boots.sh")
check_eq "run selection: the debug lane: every guest and reliability boot, rel-leaks, the gate, not rel-wrongkernel or rel-lockdown" \
	"main reclaim quiet unmap rel-input rel-security rel-faults rel-cycles rel-stress rel-peer rel-leaks gate" \
	"$(boots "$debug")"
check "run selection: the debug lane's boxes get test-ab's size and pairs" \
	grep -q "^vmrun options: .* -e FT_AB_SIZE_MB=256 -e FT_AB_PAIRS=12" <<< "$debug"
