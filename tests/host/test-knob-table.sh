#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The knobs are spelled once, in include/foliotune.h's FOLIOTUNE_KNOBS:
# knobs.c names every debugfs file from it and each owning file defines
# foliotune_knob_NAME.  No module source spells a knob's name as a string,
# and a knob added to the header that no file defines fails the build:
# a copy of module/ built against a header with one extra knob must fail
# at modpost on exactly that knob, while the same copy without it builds.
. "$(dirname "$0")/lib-host.sh"
KVER=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
KDIR=${KDIR:-$("$repo/scripts/kernels/fetch.sh" "$KVER" --path kdir)}

knobs=$(sed -n '/^#define FOLIOTUNE_KNOBS(X)/,/^$/p' "$repo/include/foliotune.h" |
	grep -oE '^[[:space:]]X\([a-z_0-9]+' | sed 's/.*(//')
check "knob-table: the header lists the knobs ($(wc -w <<<"$knobs"))" test -n "$knobs"
spelled=
for k in $knobs; do
	grep -ln "\"$k\"" "$repo"/module/*.c >/dev/null 2>&1 && spelled+=" $k"
done
check_eq "knob-table: no module source spells a knob's name as a string" "" "$spelled"

# build_copy DIR: module/ with the tree's include/ copied into DIR, built
build_copy() {
	mkdir -p "$1/mod"
	cp "$repo"/module/*.c "$repo"/module/*.h "$repo"/module/Kbuild "$1/mod/"
	cp -r "$repo/module/verified" "$repo/module/kcopy" "$repo/build/kcopy/$KVER/kcopy-gen" "$1/mod/"
	cp "$repo/module/klp-symbols.list" "$1/mod/"
	cp -r "$repo/include" "$1/"
	[ -n "${2:-}" ] && sed -i "s/^#define FOLIOTUNE_KNOBS(X)[[:space:]]*\\\\\$/&\n\tX($2, BOOL, \"bool\", 0, 1, 0, \"planted\")\t\\\\/" "$1/include/foliotune.h"
	"$repo/scripts/kernels/kbuild-run.sh" "$KVER" make -C "$KDIR" M="$1/mod" \
		FT_INCLUDE="$1/include" FT_KCOPY="$1/mod" \
		KBUILD_EXTRA_SYMBOLS="$repo/build/klp-$KVER.symvers" modules > "$1/build.log" 2>&1
}

if [ ! -d "$repo/build/kcopy/$KVER/kcopy-gen" ] || [ ! -f "$repo/build/klp-$KVER.symvers" ]; then
	not_ok "knob-table: a copy of the module builds" "make has not built the module for $KVER"
	exit 0
fi
if build_copy "$w/control"; then
	ok "knob-table: a copy of the module builds"
else
	not_ok "knob-table: a copy of the module builds" "$(tail -3 "$w/control/build.log" | tr '\n' ' ')"
fi
check "knob-table: the planted knob is in the copy's header" \
	test "$(build_copy "$w/planted" planted_knob; grep -c 'X(planted_knob' "$w/planted/include/foliotune.h")" = 1
check "knob-table: a header knob no file defines fails the build at modpost" \
	grep -q '"foliotune_knob_planted_knob" .*undefined' "$w/planted/build.log"
