#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mechanical source check of make verify-kernel
# (scripts/kernels/kcopy-diff.py): foliotune's copies must match the
# reference source (the linux-source tree KSRC, unpacked by make ksrc) up to
# module/kcopy/deviations.diff, and must fail, printing the line, on a
# source where one copied line differs, where a copied function is gone,
# and on an unmarked change of ours.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ksrc=${KSRC:-/var/cache/foliotune/linux-source-6.12}
check=$repo/scripts/kernels/kcopy-diff.py
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }

[ -r "$ksrc/mm/rmap.c" ] || { nok "kcopy-diff: no kernel source in $ksrc (make ksrc)"; exit 1; }
if out=$(python3 "$check" "$repo" "$ksrc" --check 2>&1); then
	ok "kcopy-diff: the copies equal $ksrc except module/kcopy/deviations.diff"
else
	nok "kcopy-diff: the copies differ from $ksrc"
	printf '%s\n' "$out" | head -20 | sed 's/^/# /'
fi

# A fake source tree: the files the copies come from, then one change.
fake() {
	rm -rf "$w/src"
	mkdir -p "$w/src/mm" "$w/src/arch/x86/include/asm"
	cp "$ksrc/mm/rmap.c" "$ksrc/mm/memory.c" "$ksrc/mm/internal.h" "$w/src/mm/"
	cp "$ksrc/arch/x86/include/asm/tlbflush.h" "$w/src/arch/x86/include/asm/"
}
fake
sed -i 's/\*any_young |= young;/*any_young = young;/' "$w/src/mm/internal.h"
if ! grep -q 'any_young = young;' "$w/src/mm/internal.h"; then
	nok "kcopy-diff: test setup: the folio_pte_batch line to change is not in $ksrc"
elif out=$(python3 "$check" "$repo" "$w/src" --check 2>&1); then
	nok "kcopy-diff: a changed line in the kernel's folio_pte_batch() passed"
elif printf '%s\n' "$out" | grep -q '^[-+].*any_young = young;'; then
	ok "kcopy-diff: a changed line in the kernel's folio_pte_batch() fails and is printed"
else
	nok "kcopy-diff: a changed line failed without naming it"
	printf '%s\n' "$out" | head -10 | sed 's/^/# /'
fi

# A struct and a function whose type is on the line above are copies too.
for edit in 'mm/rmap.c:s/^\tint mapcount;$/\tlong mapcount;/' \
	    'mm/internal.h:s/^\tif (start > end)$/\tif (start >= end)/'; do
	fake
	sed -i "${edit#*:}" "$w/src/${edit%%:*}"
	if cmp -s "$ksrc/${edit%%:*}" "$w/src/${edit%%:*}"; then
		nok "kcopy-diff: test setup: '${edit#*:}' changed nothing in $ksrc"
	elif python3 "$check" "$repo" "$w/src" --check >/dev/null 2>&1; then
		nok "kcopy-diff: a changed line in ${edit%%:*} ('${edit#*:}') passed"
	else
		ok "kcopy-diff: a changed line in ${edit%%:*} ('${edit#*:}') fails"
	fi
done

fake
sed -i 's/\bset_pte_range(/set_pte_range_renamed(/' "$w/src/mm/memory.c"
out=$(python3 "$check" "$repo" "$w/src" --check 2>&1)
if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q 'set_pte_range not found'; then
	ok "kcopy-diff: a kernel without set_pte_range() fails naming it"
else
	nok "kcopy-diff: a kernel without set_pte_range() # $out"
fi

# An unmarked change of ours fails even against the reference source.
mkdir -p "$w/repo/module/kcopy"
cp -r "$repo/module/kcopy/." "$w/repo/module/kcopy/"
cp "$repo/module/unmap.c" "$repo/module/faultaround.c" "$repo/module/referenced.c" "$w/repo/module/"
sed -i 's/^\tarch_tlbbatch_add_pending(&tlb_ubc->arch, mm, uaddr);$/&\n\tbarrier();/' \
	"$w/repo/module/kcopy/rmap_static.h"
out=$(python3 "$check" "$w/repo" "$ksrc" --check 2>&1)
if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q '^+.*barrier();'; then
	ok "kcopy-diff: a change in a copy fails the check and is printed"
else
	nok "kcopy-diff: a change in a copy # $(printf '%s' "$out" | head -3)"
fi
out=$(python3 "$check" "$w/repo" "$ksrc" --write 2>&1)
if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q 'without a "foliotune:" marker'; then
	ok "kcopy-diff: an unmarked change cannot become a recorded deviation"
else
	nok "kcopy-diff: --write took an unmarked change # $(printf '%s' "$out" | head -3)"
fi
