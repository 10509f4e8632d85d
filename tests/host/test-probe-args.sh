#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reclaim probes read C arguments out of pt_regs.  An int argument is
# only the low 32 bits of its register (x86-64 psABI: the upper half is
# undefined), so comparing the whole register would miss matching calls
# whenever a caller leaves garbage there.  Checked in the built object:
# ft_pageref_entry() compares folio_referenced()'s second argument,
# int is_locked (pt_regs->si), with 1 as a 32-bit value (cmpl), not cmpq.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
obj=$repo/module/reclaim_probes.o
if [ ! -r "$obj" ]; then
	echo "not ok - probe args: $obj missing (make module)"
	exit 1
fi
# offsetof(struct pt_regs, si) on x86-64: r15 .. dx, 13 longs, come first
# (arch/x86/include/asm/ptrace.h).
si=0x68
body=$(objdump -d --no-show-raw-insn "$obj" | awk '/<ft_pageref_entry>:/ { p = 1; next } p && /^$/ { exit } p')
cmp=$(grep -E "cmp[a-z]* +\\\$0x1,$si\\(%r[a-z0-9]+\\)" <<<"$body")
echo "# ft_pageref_entry: ${cmp:-no compare of pt_regs->si ($si) with 1}"
case $cmp in
*cmpl*) echo "ok - probe args: is_locked (int) compared as 32 bits in ft_pageref_entry" ;;
'') echo "not ok - probe args: no compare of pt_regs->si with 1 in ft_pageref_entry # objdump: $(head -c 300 <<<"$body" | tr '\n' '|')"; exit 1 ;;
*) echo "not ok - probe args: is_locked compared as more than 32 bits # $cmp"; exit 1 ;;
esac
