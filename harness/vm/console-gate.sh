#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# console-gate.sh LOG - fail (exit 1, printing the lines) if a guest console
# log shows any kernel error: warnings, BUGs, oopses, bad page state or map,
# lockdep reports, RCU stalls, soft/hard lockups, hung tasks, general
# protection faults.
# Everything the foliotune test box boots goes through this gate.
#
# console-gate.sh --first N LOG - print N lines of LOG from the first kernel
# error on (the report that matters when a box died: a hung task's stack,
# not the idle CPUs' backtraces that end the log); exit 1 if there is none.
set -u
first=
if [ "${1:-}" = --first ]; then
	first=${2:?usage: console-gate.sh --first N LOG}
	shift 2
fi
log=${1:?usage: console-gate.sh [--first N] LOG}
pattern='BUG:|WARNING:|Oops|Call Trace|Bad page state|Bad page map|page dumped because|kernel BUG|'
pattern+='rcu: INFO|rcu_sched self-detected stall|RCU stall|soft lockup|hard LOCKUP|blocked for more than|'
pattern+='general protection|possible circular locking|possible recursive locking|'
pattern+='inconsistent lock state|suspicious RCU usage|Kernel panic|UBSAN:|KASAN:|'
pattern+='page_table_check|VM_BUG_ON|list_add corruption|list_del corruption'
if [ -n "$first" ]; then
	line=$(grep -nE -m1 "$pattern" "$log" | cut -d: -f1)
	[ -n "$line" ] || exit 1
	tail -n +"$line" "$log" | grep -v '^VMRUN_' | head -n "$first"
	exit 0
fi
if grep -nE "$pattern" "$log" > "$log.gate"; then
	echo "console gate: kernel errors in $log:" >&2
	head -40 "$log.gate" >&2
	exit 1
fi
rm -f "$log.gate"
exit 0
