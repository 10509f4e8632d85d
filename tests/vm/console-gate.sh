#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# console-gate.sh LOG - fail (exit 1, printing the lines) if a guest console
# log shows any kernel error: warnings, BUGs, oopses, bad page state or map,
# lockdep reports, RCU stalls, soft/hard lockups, hung tasks, general
# protection faults.
# Everything the foliotune test box boots goes through this gate.
set -u
log=${1:?usage: console-gate.sh LOG}
pattern='BUG:|WARNING:|Oops|Call Trace|Bad page state|Bad page map|page dumped because|kernel BUG|'
pattern+='rcu: INFO|rcu_sched self-detected stall|RCU stall|soft lockup|hard LOCKUP|blocked for more than|'
pattern+='general protection|possible circular locking|possible recursive locking|'
pattern+='inconsistent lock state|suspicious RCU usage|Kernel panic|UBSAN:|KASAN:|'
pattern+='page_table_check|VM_BUG_ON|list_add corruption|list_del corruption'
if grep -nE "$pattern" "$log" > "$log.gate"; then
	echo "console gate: kernel errors in $log:" >&2
	head -40 "$log.gate" >&2
	exit 1
fi
rm -f "$log.gate"
exit 0
