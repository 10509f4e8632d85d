#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# foliotune is a livepatch built through klp relocations: it must enable,
# patch exactly the functions it names, load with no kernel message beyond
# the expected taints and livepatch transitions, and disable and unload.
. "$(dirname "$0")/../lib.sh"
plan 14

ft_unload
check_eq "livepatch: modinfo livepatch=Y" Y "$(modinfo -F livepatch "$FT_KO")"
taint_before=$(cat /proc/sys/kernel/tainted)
mark=$(dmesg_mark)
check "livepatch: load and finish the transition" ft_load
check_eq "livepatch: enabled" 1 "$(cat "$FT_LIVEPATCH/enabled" 2>/dev/null)"
check_eq "livepatch: transition finished" 0 "$(cat "$FT_LIVEPATCH/transition" 2>/dev/null)"
check_eq "livepatch: vmlinux patched" 1 "$(cat "$FT_LIVEPATCH/vmlinux/patched" 2>/dev/null)"
funcs=$(cd "$FT_LIVEPATCH/vmlinux" 2>/dev/null && ls -d ./*,* | sed 's|^\./||' | tr '\n' ' ')
check_eq "livepatch: patched functions" "folio_referenced_one,1 set_pte_range,1 try_to_unmap_one,1 " "$funcs"

# Only these kernel messages may accompany a load: the out-of-tree, unsigned
# and livepatch taints, the transition, and our own line.
allowed='loading out-of-tree module taints kernel|module verification failed: signature and/or required key missing|tainting kernel with TAINT_LIVEPATCH|livepatch: enabling patch .foliotune.|livepatch: .foliotune.: (initializing|starting|completed) patching transition|livepatch: .foliotune.: patching complete|foliotune: loaded for|ft-mark'
extra=$(dmesg_since "$mark" | grep -vE "$allowed")
check_eq "livepatch: no unexpected kernel messages at load" "" "$extra"
# Taint: O (4096), E (8192) and K (32768) only; W (512) would mean a warning.
taint=$(cat /proc/sys/kernel/tainted)
check_eq "livepatch: only O/E/K taints added" 0 $(( (taint & ~taint_before) & ~(4096 | 8192 | 32768) ))

refused "livepatch: rmmod of the enabled patch is refused as in use" 'in use|busy|Resource temporarily unavailable' \
	rmmod foliotune
check "livepatch: still enabled after refused rmmod" test "$(cat "$FT_LIVEPATCH/enabled")" = 1
mark=$(dmesg_mark)
check "livepatch: disable, transition, rmmod" ft_unload
check "livepatch: sysfs directory gone" ft_livepatch_gone
check "livepatch: module gone" ft_module_gone
extra=$(dmesg_since "$mark" | grep -vE "livepatch: .foliotune.: (starting|completed) unpatching transition|livepatch: .foliotune.: unpatching complete|foliotune: unloaded|ft-mark")
check_eq "livepatch: no unexpected kernel messages at unload" "" "$extra"
