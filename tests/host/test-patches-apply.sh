#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-patches-apply.sh - every planted bug (tests/mutants/*.patch) and the
# load-failure build (tests/inject/load-failures.patch) still applies, with
# no fuzz, to the tree as it is, the way the Makefile applies it
# (build_module_copy: -p2 into a flat copy of module/ and the default
# build's copied kernel code, kcopy-gen/ of make kcopy; a userspace mutant:
# -p1 into a copy of userspace/ and include/).  A patch that no longer
# applies is a mutant the mutation lane reports as missed, or an inject
# build that fails, long after the change that broke it.  Applied for
# real, not --dry-run: a dry run checks each section of a patch against
# the unchanged file, so a patch that holds its diff twice passed.
. "$(dirname "$0")/lib-host.sh"

kver=$(cat "$repo/scripts/kernels/default-kver")
kcopy=$repo/build/kcopy/$kver/kcopy-gen
if ! out=$(make --no-print-directory -C "$repo" KVER="$kver" kcopy 2>&1); then
	not_ok "patches: the default build's copied kernel code (make kcopy)" "$(echo "$out" | tail -3 | tr '\n' ' ')"
	exit 0
fi

applies() {
	local p=$1 d=$w/$(basename "$p" .patch)

	rm -rf "$d"
	if grep -q '^+++ b/userspace/' "$p"; then
		mkdir -p "$d/userspace"
		cp "$repo"/userspace/*.c "$repo"/userspace/*.h "$repo/userspace/Makefile" "$d/userspace/"
		cp -r "$repo/include" "$d/"
		patch -s -p1 -F0 -d "$d" < "$p"
	else
		mkdir -p "$d"
		cp "$repo"/module/*.c "$repo"/module/*.h "$repo/module/Kbuild" "$d/"
		cp -r "$repo/module/verified" "$repo/module/kcopy" "$kcopy" "$d/"
		patch -s -p2 -F0 -d "$d" < "$p"
	fi
}

n=0
for p in "$repo"/tests/mutants/*.patch "$repo"/tests/inject/*.patch; do
	[ -e "$p" ] || continue
	n=$((n + 1))
	name=${p#"$repo"/tests/}
	if out=$(applies "$p" 2>&1); then
		ok "patches: $name applies to the tree without fuzz"
	else
		not_ok "patches: $name applies to the tree without fuzz" "$(echo "$out" | head -3 | tr '\n' ' ')"
	fi
done
check "patches: there are mutants to apply ($n patches)" test "$n" -ge 2
