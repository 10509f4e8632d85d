#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The faulting PTE is mapped young in every fault_around_mkold mode, and
# the pre-mapped ones old only when asked.  A CPU access sets the accessed
# bit itself once the fault returns, which would hide a faulting PTE
# mapped old; a get_user_pages() read (/proc/self/mem) does not, so this
# test faults through it (tests/guest/pte-bits/gup_fault.py) and reads the
# PTEs' state from smaps Referenced.  Order-0 tmpfs page cache, 64K window.
. "$(dirname "$0")/../lib.sh"
py="python3 $(dirname "$0")/pte-bits/gup_fault.py"
T=/tmp/ft-fa-gup
echo "1..9"
field() { [[ " $2" =~ \ $1=([0-9-]+) ]] && echo "${BASH_REMATCH[1]}"; }
cleanup() { mountpoint -q "$T" && umount "$T"; return 0; }
trap cleanup EXIT

ft_unload
check "fa-gup: load foliotune" ft_load
mkdir -p "$T" && mount -t tmpfs -o size=16m,huge=never ft-fa-gup "$T" &&
	dd if=/dev/urandom of="$T/f" bs=1M count=8 status=none
check "fa-gup: window 64K" sh -c "echo 65536 > $FT_DEBUGFS/fault_around_bytes"
# mode: Referenced expected (the faulting page only, or all 16)
for c in 0:64 1:4 2:4; do
	m=${c%:*} want=${c#*:}
	echo "$m" > "$FT_DEBUGFS/fault_around_mkold"
	r=$($py "$T/f" 37 2>&1)
	log "mkold=$m: $r"
	check_eq "fa-gup: mkold=$m: fault-around mapped 64 kB (premise)" 64 "$(field rss_kb "$r")"
	check_eq "fa-gup: mkold=$m: Referenced $want kB (the faulting PTE young)" "$want" "$(field referenced_kb "$r")"
done
echo 0 > "$FT_DEBUGFS/fault_around_mkold"
check "fa-gup: unload" ft_unload
