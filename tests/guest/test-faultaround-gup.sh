#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The faulting PTE is mapped young in every fault_around_mkold mode, and
# the pre-mapped ones old only when asked.  A CPU access sets the accessed
# bit itself once the fault returns, which would hide a faulting PTE
# mapped old; a get_user_pages() read (/proc/self/mem) does not, so this
# test faults through it and counts the young and old PTEs that
# MADV_PAGEOUT then unmaps (tests/guest/pte-bits/gup_fault.py).  64K
# window.  Order-0 xfs page cache: one faulting PTE and 15 pre-mapped ones,
# each its own run.  Then 64K folios, each window one run that holds the
# faulting page: mkold=1 maps the whole run young, mkold=2 splits it into
# old / young / old, with the faulting page first, in the middle and last
# in its run (each branch of the split).
. "$(dirname "$0")/../lib.sh"
py="python3 $(dirname "$0")/pte-bits/gup_fault.py"
f=$FT_XFS/ft-fa-gup
f64=$FT_XFS/ft-fa-gup-64k
echo "1..17"
field() { [[ " $2" =~ \ $1=([0-9-]+) ]] && echo "${BASH_REMATCH[1]}"; }
trap 'rm -f "$f" "$f64"' EXIT

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

# Large folios: xfs allocates a buffered write's folio at the write's size
# (aligned), so 64K writes into a file out of the page cache make 64K
# folios, clean after the sync.  Every case's premise checks that the
# window of the faulting page was one large folio.  Each case faults
# another folio: the pageout frees the one it faulted, and a refault
# would read it back as whatever readahead allocates.
dd if=/dev/urandom of="$f64" bs=64K count=128 status=none && sync
# mode:page:young:old; pages 48, 69 and 95 are the first, the sixth and
# the last page of their folios
for c in 1:37:16:0 2:48:1:15 2:69:1:15 2:95:1:15; do
	IFS=: read -r m p young old <<< "$c"
	echo "$m" > "$FT_DEBUGFS/fault_around_mkold"
	r=$($py "$f64" "$p" 2>&1)
	log "large: mkold=$m page $p: $r"
	check_eq "fa-gup: large: mkold=$m: page $p: fault-around mapped 64 kB, one large folio (premise)" \
		"64 1" "$(field rss_kb "$r") $(field window_folio "$r")"
	calls=$(field calls "$r")
	[ "${calls:-0}" -ge 1 ] && calls=yes || calls="calls=$calls"
	check_eq "fa-gup: large: mkold=$m: page $p: unmapped $young young, $old old (unmap calls made, 0 left mapped)" \
		"$young $old yes 0" "$(field young "$r") $(field old "$r") $calls $(field mapped_after "$r")"
done
echo 0 > "$FT_DEBUGFS/fault_around_mkold"
check "fa-gup: unload" ft_unload
