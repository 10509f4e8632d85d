#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen-docs.sh [--check] - the knob and counter tables of docs/counters.md,
# generated from include/foliotune.h's FOLIOTUNE_KNOBS and
# FOLIOTUNE_COUNTERS X-macros (their help strings are the one source of
# truth).  Rewrites the text between the "<!-- generated:NAME -->" and
# "<!-- end:NAME -->" markers; --check only compares and exits 1 naming
# what differs (tests/host/test-docs.sh).
#
# The tables are printed by a tiny C program compiled against the header,
# so every preprocessor detail (string concatenation, line continuations)
# is the compiler's, not a regex's.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
doc=${FT_DOC:-$repo/docs/counters.md}
inc=${FT_INCLUDE:-$repo/include}	# overridable for the self-test
check=0
[ "${1:-}" = --check ] && check=1
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT

cat > "$w/gen.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "foliotune.h"

/* one markdown cell: '|' escaped */
static void cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			putchar('\\');
		putchar(*s);
	}
}

/* where a counter is counted, from its name (module/ files) */
static const char *source(const char *name)
{
	if (!strncmp(name, "fa_unmap_", 9))
		return "`try_to_unmap_one` replacement (`unmap.c`), file PTEs, only while tuning is on";
	if (!strcmp(name, "fa_auto_changes") ||
	    !strcmp(name, "fa_auto_age_changes"))
		return "auto tuner (`fa_tuner.c`)";
	if (!strncmp(name, "fa_", 3))
		return "`set_pte_range` replacement (`faultaround.c`)";
	if (!strncmp(name, "unmap_", 6))
		return "`try_to_unmap_one` replacement (`unmap.c`)";
	if (!strncmp(name, "referenced_", 11))
		return "`folio_referenced_one` replacement (`referenced.c`)";
	if (!strcmp(name, "pgpgoutclean"))
		return "kprobe `workingset_eviction` (`reclaim_probes.c`), only while `reclaim_probes` = 1";
	if (!strncmp(name, "pageref_", 8))
		return "kretprobe `folio_referenced` (`reclaim_probes.c`), only while `reclaim_probes` = 1";
	return "module init (`main.c`)";
}

/* "4K..2M" for bytes, "100..60000" for numbers; bool and enum need none */
static void range(const char *kind, unsigned long long min, unsigned long long max)
{
	if (!strcmp(kind, "BYTES"))
		printf(", %lluK..%lluM", min >> 10, max >> 20);
	else if (!strcmp(kind, "UINT"))
		printf(", %llu..%llu", min, max);
}

#define KNOB(name, kind, unit, min, max, help) \
	printf("| `%s` | %s | ", #name, #kind); cell(unit); range(#kind, min, max); \
	printf(" | "); cell(help); printf(" |\n");
#define COUNTER(name, help) \
	printf("| `%s` | ", #name); cell(help); printf(" | %s |\n", source(#name));

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "knobs")) {
		printf("| knob | kind | values | meaning |\n|---|---|---|---|\n");
		FOLIOTUNE_KNOBS(KNOB)
	} else {
		printf("| counter | meaning | counted in |\n|---|---|---|\n");
		FOLIOTUNE_COUNTERS(COUNTER)
	}
	return 0;
}
C
cc -std=c11 -Wall -Werror -I "$inc" -o "$w/gen" "$w/gen.c" || { echo "gen-docs.sh: cannot compile the table generator" >&2; exit 2; }

[ -f "$doc" ] || { echo "gen-docs.sh: $doc missing" >&2; exit 2; }
cp "$doc" "$w/new.md"
for what in knobs counters; do
	"$w/gen" "$what" > "$w/$what.md" || exit 2
	grep -q "^<!-- generated:$what -->" "$w/new.md" && grep -q "^<!-- end:$what -->" "$w/new.md" ||
		{ echo "gen-docs.sh: $doc has no <!-- generated:$what --> ... <!-- end:$what --> markers" >&2; exit 2; }
	# replace the text between the markers with the generated table
	awk -v what="$what" -v tab="$w/$what.md" '
		$0 == "<!-- generated:" what " -->" { print; while ((getline l < tab) > 0) print l; skip = 1; next }
		$0 == "<!-- end:" what " -->" { skip = 0 }
		!skip' "$w/new.md" > "$w/tmp.md" && mv "$w/tmp.md" "$w/new.md"
done
if [ "$check" = 1 ]; then
	if ! diff -u "$doc" "$w/new.md" > "$w/diff"; then
		echo "docs/counters.md does not match include/foliotune.h (run scripts/gen-docs.sh):"
		cat "$w/diff"
		exit 1
	fi
	exit 0
fi
cmp -s "$doc" "$w/new.md" || cp "$w/new.md" "$doc"
