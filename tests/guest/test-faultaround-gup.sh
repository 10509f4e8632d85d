#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The faulting PTE is mapped young in every fault_around_mkold mode, and
# the pre-mapped ones old only when asked.  A CPU access sets the accessed
# bit itself once the fault returns, which would hide a faulting PTE
# mapped old; a get_user_pages() read (/proc/self/mem) does not, so this
# test faults through it and counts the young and old PTEs that
# MADV_PAGEOUT then unmaps (tests/guest/pte-bits/gup_fault.py).  Order-0
# xfs page cache, 64K window: one faulting PTE and 15 pre-mapped ones.
. "$(dirname "$0")/../lib.sh"
py="python3 $(dirname "$0")/pte-bits/gup_fault.py"
f=$FT_XFS/ft-fa-gup
echo "1..9"
field() { [[ " $2" =~ \ $1=([0-9-]+) ]] && echo "${BASH_REMATCH[1]}"; }
trap 'rm -f "$f"' EXIT

ft_unload
check "fa-gup: load foliotune" ft_load
# order0: (re)write FILE, drop it from the page cache and read it back
# with POSIX_FADV_WILLNEED, which allocates order-0 folios (ft_faultaround
# prep; a file written by dd and dropped by another descriptor kept
# Linux 7's 2 MiB folios)
order0() { "$FT_REPO/tests/progs/ft_faultaround" prep "$1" 8 order0; }
check "fa-gup: window 64K" sh -c "echo 65536 > $FT_DEBUGFS/fault_around_bytes"
# mode:young:old the unmap counts (mode 0 counts nothing: no tuning on)
for c in 0:0:0 1:1:15 2:1:15; do
	IFS=: read -r m young old <<< "$c"
	echo "$m" > "$FT_DEBUGFS/fault_around_mkold"
	order0 "$f"
	r=$($py "$f" 37 2>&1)
	log "mkold=$m: $r"
	check_eq "fa-gup: mkold=$m: fault-around mapped 64 kB (premise)" 64 "$(field rss_kb "$r")"
	# premise: MADV_PAGEOUT reached try_to_unmap_one for each of the 16
	# order-0 folios and unmapped them all
	calls=$(field calls "$r")
	[ "${calls:-0}" -ge 16 ] && calls=yes || calls="calls=$calls"
	check_eq "fa-gup: mkold=$m: unmapped $young young (the faulting PTE), $old old (16 unmap calls or more, 0 left mapped)" \
		"$young $old yes 0" "$(field young "$r") $(field old "$r") $calls $(field mapped_after "$r")"
done
echo 0 > "$FT_DEBUGFS/fault_around_mkold"
check "fa-gup: unload" ft_unload
