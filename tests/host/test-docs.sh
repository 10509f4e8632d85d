#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs/counters.md's knob and counter tables and the man page's knob list
# are what scripts/gen-docs.sh makes from include/foliotune.h, and the
# check catches a header change that the docs miss (self-tests on copies
# with one counter, one knob added).
. "$(dirname "$0")/lib-host.sh"

if out=$("$repo/scripts/gen-docs.sh" --check 2>&1); then
	ok "docs: docs/counters.md tables and the man page's knobs match include/foliotune.h"
else
	not_ok "docs: docs/counters.md tables and the man page's knobs match include/foliotune.h" "$(echo "$out" | head -8 | tr '\n' '|')"
fi

# every counter name of the header appears as a table row (independent of
# the generator: names pulled from the X-macro text)
missing=$(sed -n '/define FOLIOTUNE_COUNTERS/,/^$/p' "$repo/include/foliotune.h" |
	grep -oE '\bX\([a-z0-9_]+' | cut -c3- | while read -r c; do
		grep -q "^| \`$c\` |" "$repo/docs/counters.md" || echo "$c"; done | tr '\n' ' ')
check_eq "docs: every counter of include/foliotune.h has a row in docs/counters.md" "" "$missing"

# the check must be able to fail: a header with one more counter
mkdir -p "$w/include"
# (after the last line of FOLIOTUNE_COUNTERS, whichever counter it is)
awk '/define FOLIOTUNE_COUNTERS/ { in_c = 1 }
	in_c && !/\\$/ { print $0 " \\"; print "\tX(ft_docs_selftest, \"not documented\")"; in_c = 0; next }
	{ print }' "$repo/include/foliotune.h" > "$w/include/foliotune.h"
cp "$repo/docs/counters.md" "$w/counters.md"
if ! grep -q ft_docs_selftest "$w/include/foliotune.h"; then
	not_ok "docs: self-test header has an extra counter" "sed did not match the last counter line"
elif FT_DOC=$w/counters.md FT_INCLUDE=$w/include "$repo/scripts/gen-docs.sh" --check > "$w/out" 2>&1; then
	not_ok "docs: the check fails when the header gains an undocumented counter" "gen-docs.sh --check passed"
else
	check "docs: the check fails when the header gains an undocumented counter" grep -q 'ft_docs_selftest' "$w/out"
fi

# and a header with one more knob: the man page's list misses it
mkdir -p "$w/knob/include"
awk '/define FOLIOTUNE_KNOBS/ { in_k = 1 }
	in_k && !/\\$/ { print $0 " \\"; print "\tX(ft_docs_knob, BOOL, \"bool\", 0, 1, 0, \"not documented\")"; in_k = 0; next }
	{ print }' "$repo/include/foliotune.h" > "$w/knob/include/foliotune.h"
cp "$repo/docs/counters.md" "$w/knob/counters.md"
cp "$repo/userspace/foliotune.8" "$w/knob/foliotune.8"
if ! grep -q ft_docs_knob "$w/knob/include/foliotune.h"; then
	not_ok "docs: self-test header has an extra knob" "awk did not match the last knob line"
elif FT_DOC=$w/knob/counters.md FT_MAN=$w/knob/foliotune.8 FT_INCLUDE=$w/knob/include \
	"$repo/scripts/gen-docs.sh" --check > "$w/out" 2>&1; then
	not_ok "docs: the check fails when the header gains a knob the man page lacks" "gen-docs.sh --check passed"
else
	check "docs: the check fails when the header gains a knob the man page lacks" \
		grep -q '^+\.B ft_docs_knob$' "$w/out"
fi
