#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load/unload cycles, debugfs layout and permissions, clean unload.
. "$(dirname "$0")/../lib.sh"
plan $((13 + 2 * $(ft_nr_debugfs_files)))	# 2 lines per debugfs file

ft_unload
mark=$(dmesg_mark)
failures=0
for i in $(seq 20); do
	if ! ft_load; then failures=$((failures + 1)); echo "# load $i failed"; continue; fi
	[ -r "$FT_DEBUGFS/vmstat" ] || { failures=$((failures + 1)); echo "# cycle $i: no vmstat"; }
	ft_unload || { failures=$((failures + 1)); echo "# unload $i failed"; }
done
check_eq "lifecycle: 20 load/unload cycles" 0 "$failures"
check_eq "lifecycle: 20 'loaded' lines in dmesg" 20 "$(dmesg_since "$mark" | grep -c 'foliotune: loaded for')"
check "lifecycle: debugfs directory gone after unload" test ! -e "$FT_DEBUGFS"
check "lifecycle: module gone after unload" ft_module_gone

ft_load || not_ok "lifecycle: load for layout checks" "insmod failed"
# Every debugfs file: owner root, mode 0444/0400 for read-only, 0600 for knobs.
check_eq "debugfs: directory owned by root" "0:0" "$(stat -c %u:%g "$FT_DEBUGFS")"
for f in "$FT_DEBUGFS"/*; do
	name=$(basename "$f")
	mode=$(stat -c %a "$f")
	owner=$(stat -c %u:%g "$f")
	case "$name" in
	vmstat|build|*_state) expect="444 400" ;;
	*) expect="600" ;;
	esac
	case " $expect " in
	*" $mode "*) ok "debugfs: $name mode $mode" ;;
	*) not_ok "debugfs: $name mode" "mode $mode, expected one of: $expect" ;;
	esac
	check_eq "debugfs: $name owned by root" "0:0" "$owner"
done

# vmstat: "name value" lines, the counter names of include/foliotune.h.
check "vmstat: every line is 'name value'" \
	awk 'NF != 2 || $2 !~ /^[0-9]+$/ { exit 1 }' "$FT_DEBUGFS/vmstat"
names=$(awk '{ print $1 }' "$FT_DEBUGFS/vmstat" | tr '\n' ' ')
expected=$(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\), "[^"]*")[[:space:]]*\\\{0,1\}$/\1/p' \
	"$FT_REPO/include/foliotune.h" | tr '\n' ' ')
check_eq "vmstat: counter names match include/foliotune.h" "$expected" "$names"
check_eq "vmstat: loads is 1" 1 "$(ft_counter loads)"
check_eq "build: names the verified release" "release $(uname -r)" "$(head -1 "$FT_DEBUGFS/build")"
refused "vmstat: writing is refused" 'I/O error|Input/output error|Permission denied|Invalid argument|Operation not permitted' \
	sh -c "echo 1 > $FT_DEBUGFS/vmstat"

# A second insmod of the same module must fail and leave the first alone.
refused "lifecycle: second insmod refused (EEXIST)" 'File exists' insmod "$FT_KO"
check "lifecycle: first instance still there" test -r "$FT_DEBUGFS/vmstat"
ft_unload
check "lifecycle: unload after double load" ft_module_gone
