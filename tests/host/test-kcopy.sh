#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The copies of kernel code made from a build's own source
# (scripts/kernels/kcopy.py, make kcopy): from the default build's
# linux-source the patch applies and the copies come out; on a source
# where a line in the patch's context differs it fails without fuzz; a line
# that differs outside the patch's context is what the copy then holds (the
# build's own code); a definition gone, an unmarked change, a change outside
# the copied definitions, a hunk that lands (at an offset) in another
# function than the one it names, and a source older than every patch each
# fail with one line naming it.  make kcopy-refresh's diff gives the patch
# back, each hunk named.
. "$(dirname "$0")/lib-host.sh"
kcopy=$repo/scripts/kernels/kcopy.py
kver=$(cat "$repo/scripts/kernels/default-kver")
ksrc=$("$repo/scripts/kernels/fetch.sh" "$kver" --path source 2>/dev/null)
[ -r "$ksrc/mm/rmap.c" ] || { not_ok "kcopy: no source of $kver in the cache" "make kcopy"; exit 0; }

# gen [REPO] SRC: kcopy.py into $w/out; its stderr in $out.
gen() {
	local r=$repo
	[ $# -eq 2 ] && { r=$1; shift; }
	out=$(python3 "$kcopy" "$r" "$1" "$w/out" 2>&1)
}
# The kernel files the copies come from (every sources list's second column).
kfiles=$(python3 "$kcopy" --files "$repo")
# fake: the files the copies come from, as the default build has them.
fake() {
	local f
	rm -rf "$w/src"
	for f in $kfiles Makefile; do
		mkdir -p "$w/src/$(dirname "$f")"
		cp "$ksrc/$f" "$w/src/$f"
	done
}

# refused NAME FILE SED MESSAGE: with FILE of the default build's files
# edited by SED, kcopy.py fails saying MESSAGE and leaves no copies.
refused() {
	fake
	sed -i "$3" "$w/src/$2"
	if cmp -s "$ksrc/$2" "$w/src/$2"; then
		not_ok "kcopy: $1" "test setup: '$3' changed nothing in $2"
	elif gen "$w/src"; then
		not_ok "kcopy: $1" "it made copies"
	elif [[ $out == *"$4"* ]] && [ ! -e "$w/out" ]; then
		ok "kcopy: $1"
	else
		not_ok "kcopy: $1" "$out"
	fi
}

if gen "$ksrc"; then
	ok "kcopy: the copies are made from $ksrc"
else
	not_ok "kcopy: the copies are made from $ksrc" "$out"
fi
slist=$(python3 -c "import sys; sys.path.insert(0, '$repo/scripts/kernels'); import kcopy; print(kcopy.pick_patch('$repo', '$ksrc')[1])")
n=$(grep -cv '^#' "$repo/module/kcopy/$slist")
check "kcopy: one kcopy-gen file per line of $slist ($n)" \
	test "$(ls "$w/out/kcopy-gen" | wc -l)" -eq "$n"
check "kcopy: the replacement of try_to_unmap_one() is foliotune's" \
	grep -q '^bool foliotune_try_to_unmap_one(' "$w/out/kcopy-gen/try_to_unmap_one.c"
cp -r "$w/out" "$w/ref"

# Lines shifted above every copied definition: an offset, not fuzz.
fake
sed -i '1i /* one */\n/* two */\n/* three */' "$w/src/mm/rmap.c"
if gen "$w/src" && diff -r -I '^ \* linux-source-6.12 ' "$w/ref/kcopy-gen" "$w/out/kcopy-gen" >/dev/null; then
	ok "kcopy: the patch applies at an offset, the copies unchanged"
else
	not_ok "kcopy: the patch applies at an offset, the copies unchanged" "$out"
fi

# A changed line in a hunk's context: the patch does not apply (no fuzz).
refused "a changed context line fails, naming the patch, and leaves no copies" \
	mm/rmap.c 's/^\tunsigned long hsz = 0;$/\tunsigned long hsz = 1;/' \
	"does not apply without fuzz"

# A changed line of a copied definition outside the patch: the copy is the
# build's own code.  Two, one in a struct, one in a function whose type is
# on the line above.
for edit in 'mm/rmap.c:s/^\tint mapcount;$/\tlong mapcount;/:rmap_static:long mapcount;' \
	    'mm/internal.h:s/^\tif (start > end)$/\tif (start >= end)/:internal_static:if (start >= end)'; do
	IFS=: read -r f sedexp g want <<< "$edit"
	fake
	sed -i "$sedexp" "$w/src/$f"
	if cmp -s "$ksrc/$f" "$w/src/$f"; then
		not_ok "kcopy: a changed line in $f is copied" "test setup: '$sedexp' changed nothing"
	elif gen "$w/src" && grep -qF "$want" "$w/out/kcopy-gen/$g.c"; then
		ok "kcopy: a changed line in $f ('$want') is what the copy holds"
	else
		not_ok "kcopy: a changed line in $f ('$want') is what the copy holds" "$out"
	fi
done

# try_to_unmap_one()'s last lines differ: the hunk that counts aborts there
# finds its context at the end of try_to_migrate_one() (an offset, no fuzz),
# as foliotune.patch's did in Linux 7.3's source.  Refused, naming the hunk
# and the function it landed in.
fake
python3 - "$w/src/mm/rmap.c" <<'PY'
import sys
p = sys.argv[1]
t = open(p).read()
i = t.index('static bool try_to_unmap_one(')
end = '\tmmu_notifier_invalidate_range_end(&range);\n\n\treturn ret;\n}'
j = t.index(end, i)
t = t[:j] + end.replace('\n\n', '\n\tret = !!ret;\n\n') + t[j + len(end):]
open(p, 'w').write(t)
PY
if gen "$w/src"; then
	not_ok "kcopy: a hunk landing in try_to_migrate_one() is refused" "it made copies"
elif [[ $out == *"hunk #"*"try_to_unmap_one) lands at line"*"in try_to_migrate_one()"* ]] &&
     [ "$(wc -l <<< "$out")" = 1 ] && [ ! -e "$w/out" ]; then
	ok "kcopy: a hunk landing in try_to_migrate_one() is refused, in one line naming it"
else
	not_ok "kcopy: a hunk landing in try_to_migrate_one() is refused, in one line naming it" "$out"
fi

# A definition gone; a source older than every patch.
refused "a source without inc_mm_tlb_gen() fails naming it" \
	arch/x86/include/asm/tlbflush.h 's/\binc_mm_tlb_gen(/inc_mm_tlb_gen_renamed(/' \
	"inc_mm_tlb_gen not found"
refused "a source older than every patch is refused" \
	Makefile 's/^SUBLEVEL = .*/SUBLEVEL = 106/' \
	"no patch in module/kcopy/patches.list fits"

# The patch made again from the patched files (make kcopy-refresh) is the
# patch, its hunks named; with one unmarked line added in a copy, or a
# marked one outside every copied definition, it no longer makes copies.
mkdir -p "$w/repo/module"
cp -r "$repo/module/kcopy" "$w/repo/module/"
python3 "$kcopy" --refresh "$w/repo" "$w/ref" 2>/dev/null
check "kcopy: kcopy-refresh of the unchanged files gives the patch back" \
	cmp -s "$repo/module/kcopy/foliotune.patch" "$w/repo/module/kcopy/foliotune.patch"
sed -i 's/^\tarch_tlbbatch_add_pending(&tlb_ubc->arch, mm, uaddr);$/&\n\tbarrier();/' "$w/ref/b/mm/rmap.c"
python3 "$kcopy" --refresh "$w/repo" "$w/ref" 2>/dev/null
if ! gen "$w/repo" "$ksrc" && [[ $out == *'without a "foliotune:" marker'* && $out == *'+	barrier();'* ]]; then
	ok "kcopy: an unmarked change in a copy fails and is printed"
else
	not_ok "kcopy: an unmarked change in a copy fails and is printed" "$out"
fi
cp "$repo/module/kcopy/foliotune.patch" "$w/repo/module/kcopy/"
gen "$ksrc" && cp -r "$w/out" "$w/ref2"
sed -i 's/^static void folio_not_mapped(/\/* foliotune: *\/\n&/;s/^static int folio_not_mapped(/\/* foliotune: *\/\n&/;s/^static bool folio_not_mapped(/\/* foliotune: *\/\n&/' "$w/ref2/b/mm/rmap.c"
python3 "$kcopy" --refresh "$w/repo" "$w/ref2" 2>/dev/null
if cmp -s "$repo/module/kcopy/foliotune.patch" "$w/repo/module/kcopy/foliotune.patch"; then
	not_ok "kcopy: a change outside the copied definitions fails" "test setup: folio_not_mapped() not in $ksrc/mm/rmap.c"
elif ! gen "$w/repo" "$ksrc" && [[ $out == *"names no copied definition"* ]]; then
	ok "kcopy: a change outside the copied definitions fails (its hunk names none)"
else
	not_ok "kcopy: a change outside the copied definitions fails (its hunk names none)" "$out"
fi
# The same hunk named after a copied definition: the copies are compared.
sed -i 's/^\(@@ [^@]* @@\)$/\1 folio_referenced_one/' "$w/repo/module/kcopy/foliotune.patch"
if ! gen "$w/repo" "$ksrc" && [[ $out == *"folio_referenced_one) lands at line"*", not in folio_referenced_one:"* ]]; then
	ok "kcopy: a hunk naming a copied definition it does not change fails"
else
	not_ok "kcopy: a hunk naming a copied definition it does not change fails" "$out"
fi

# Every source in the kernel cache (all from 6.12.107 on) makes its copies
# with the patch patches.list picks for it.
cache=${FT_CACHE:-/var/cache/foliotune}
# A source cached before one of its files joined a sources list lacks it:
# named, not counted (fetch.sh fetches it again when a build asks for it).
n=0 bad="" old=""
for s in "$cache"/linux-source/*/.version; do
	[ -e "$s" ] || continue
	for f in $kfiles; do
		[ -e "$(dirname "$s")/$f" ] || { old="$old $(cat "$s")"; continue 2; }
	done
	n=$((n + 1))
	gen "$(dirname "$s")" || bad="$bad $(cat "$s")"
done
if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
	ok "kcopy: every cached source makes its copies ($n sources${old:+; cached before a file joined a sources list, not counted:$old})"
else
	not_ok "kcopy: every cached source makes its copies ($n sources)" "failed:${bad:- none cached}"
fi
