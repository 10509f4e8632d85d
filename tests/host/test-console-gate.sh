#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# harness/vm/console-gate.sh must fail on every report the debug-kernel
# lane's checkers print (lines as 6.12's printk formats make them: see the
# file named after each) and pass a clean boot log.  The gate self-tests in
# tests/run.sh prove the same in the guest for WARN, lockdep and atomic
# sleep; this covers the reports a test module cannot cheaply provoke.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
gate=$repo/harness/vm/console-gate.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

ts='[   12.345678] '
reports=(
	# mm/debug.c dump_page() for VM_BUG_ON_FOLIO/VM_WARN_ON_FOLIO, then BUG()
	"page dumped because: VM_BUG_ON_FOLIO(!folio_test_locked(folio))"
	"kernel BUG at mm/rmap.c:1559!"
	# mm/page_table_check.c BUG_ON()
	"kernel BUG at mm/page_table_check.c:87!"
	"WARNING: CPU: 0 PID: 1 at mm/page_table_check.c:218 __page_table_check_ptes_set+0x11b/0x1a0"
	# include/linux/mmdebug.h VM_WARN_ON -> WARN_ON
	"WARNING: CPU: 1 PID: 224 at mm/rmap.c:1492 __folio_remove_rmap+0x1a2/0x2d0"
	# kernel/locking/lockdep.c report headers
	"WARNING: possible circular locking dependency detected"
	"WARNING: possible recursive locking detected"
	"WARNING: inconsistent lock state"
	"WARNING: possible irq lock inversion dependency detected"
	"WARNING: bad unlock balance detected!"
	"WARNING: held lock freed!"
	"WARNING: lock held when returning to user space!"
	"WARNING: suspicious RCU usage"
	# kernel/sched/core.c __might_resched() (DEBUG_ATOMIC_SLEEP)
	"BUG: sleeping function called from invalid context at mm/rmap.c:2101"
	"BUG: scheduling while atomic: ft_integrity/224/0x00000002"
	# mm/filemap.c, mm/page_alloc.c, kernel/fork.c
	"BUG: Bad page cache in process ft_integrity  pfn:103400"
	"BUG: Bad page state in process ft_integrity  pfn:103400"
	"BUG: Bad rss-counter state mm:0000000012345678 type:MM_FILEPAGES val:-16"
	# kernel/hung_task.c (the box panics on it: hung_task_panic=1)
	"INFO: task xfsaild/vda:191 blocked for more than 362 seconds."
)
for r in "${reports[@]}"; do
	{ echo "${ts}Linux version 6.12.117-ftdebug"; echo "$ts$r"; } > "$w/log"
	if "$gate" "$w/log" 2>/dev/null; then
		echo "not ok - console gate fails on: $r # gate passed it"
	else
		echo "ok - console gate fails on: $r"
	fi
done

# A clean debug-kernel boot: lockdep's banner must not trip it.
cat > "$w/log" <<EOF
${ts}Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
${ts}... MAX_LOCKDEP_SUBCLASSES:  8
${ts}... MAX_LOCK_DEPTH:          48
${ts}foliotune: livepatch enabled
EOF
if "$gate" "$w/log" 2>/dev/null; then
	echo "ok - console gate passes a clean debug-kernel boot"
else
	echo "not ok - console gate passes a clean debug-kernel boot # it failed it"
fi

# --first N: a dead box's report starts at its first error, not at the idle
# CPUs' NMI backtraces a hung-task panic ends with.
{
	echo "${ts}foliotune: loaded"
	echo "${ts}INFO: task ft_faultaround:312 blocked for more than 120 seconds."
	echo "VMRUN_STATUS 0"
	echo "${ts}Call Trace:"
	echo "${ts} folio_wait_bit_common+0x13c/0x340"
	echo "${ts}NMI backtrace for cpu 0"
} > "$w/log"
got=$("$gate" --first 3 "$w/log" | tr '\n' '|')
want="${ts}INFO: task ft_faultaround:312 blocked for more than 120 seconds.|${ts}Call Trace:|"
want+="${ts} folio_wait_bit_common+0x13c/0x340|"
if [ "$got" = "$want" ]; then
	echo "ok - console gate --first prints from the first report on"
else
	echo "not ok - console gate --first prints from the first report on # got: $got"
fi
echo "${ts}foliotune: loaded" > "$w/log"
if "$gate" --first 3 "$w/log" > /dev/null; then
	echo "not ok - console gate --first fails on a log without a report # it passed"
else
	echo "ok - console gate --first fails on a log without a report"
fi
