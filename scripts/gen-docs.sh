#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen-docs.sh [--check] - the knob and counter tables of docs/counters.md
# and the knob list of the man page (userspace/foliotune.8), generated from
# include/foliotune.h's FOLIOTUNE_KNOBS and FOLIOTUNE_COUNTERS X-macros
# (their help strings are the one source of truth; foliotune --help prints
# the same table, from the same macro).  Rewrites the text between the
# "<!-- generated:NAME -->" and "<!-- end:NAME -->" markers (in the man
# page: '.\" generated:NAME' and '.\" end:NAME'); --check only compares
# and exits 1 naming what differs (tests/host/test-docs.sh).
#
# The tables are printed by a tiny C program compiled against the header,
# so every preprocessor detail (string concatenation, line continuations)
# is the compiler's, not a regex's.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
doc=${FT_DOC:-$repo/docs/counters.md}
man=${FT_MAN:-$repo/userspace/foliotune.8}
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
		return "auto tuner (`fa_auto.c`)";
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

/* a default as the CLI takes it: 64K for bytes, the number otherwise */
static void dflt(const char *kind, unsigned long long def)
{
	if (!strcmp(kind, "BYTES") && def >= 1024 && !(def & 1023))
		printf("%lluK", def >> 10);
	else
		printf("%llu", def);
}

#define KNOB(name, kind, unit, min, max, def, help) \
	printf("| `%s` | %s | ", #name, #kind); cell(unit); range(#kind, min, max); \
	printf(" | "); dflt(#kind, def); printf(" | "); cell(help); printf(" |\n");
/* roff text: a backslash doubled (the help strings hold no other roff) */
static void roff(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			putchar('\\');
		putchar(*s);
	}
}

#define MANKNOB(name, kind, unit, min, max, def, help) \
	printf(".TP\n.B %s\n", #name); roff(unit); range(#kind, min, max); \
	printf(", default "); dflt(#kind, def); printf(": "); roff(help); printf(".\n");
#define COUNTER(name, help) \
	printf("| `%s` | ", #name); cell(help); printf(" | %s |\n", source(#name));

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "manknobs")) {
		FOLIOTUNE_KNOBS(MANKNOB)
	} else if (argc > 1 && !strcmp(argv[1], "knobs")) {
		printf("| knob | kind | values | default | meaning |\n|---|---|---|---|---|\n");
		FOLIOTUNE_KNOBS(KNOB)
	} else {
		printf("| counter | meaning | counted in |\n|---|---|---|\n");
		FOLIOTUNE_COUNTERS(COUNTER)
	}
	return 0;
}
C
cc -std=c11 -Wall -Werror -I "$inc" -o "$w/gen" "$w/gen.c" || { echo "gen-docs.sh: cannot compile the table generator" >&2; exit 2; }

# fill FILE NEW PREFIX SUFFIX WHAT...: FILE, with the generated WHAT
# between the lines PREFIX"generated:"WHAT SUFFIX and PREFIX"end:"WHAT
# SUFFIX, written to NEW
fill() {
	local file=$1 new=$2 pre=$3 post=$4 what open close
	shift 4
	[ -f "$file" ] || { echo "gen-docs.sh: $file missing" >&2; exit 2; }
	cp "$file" "$new"
	for what in "$@"; do
		open="${pre}generated:$what$post" close="${pre}end:$what$post"
		"$w/gen" "$what" > "$w/$what.txt" || exit 2
		grep -qxF -- "$open" "$new" && grep -qxF -- "$close" "$new" ||
			{ echo "gen-docs.sh: $file has no '$open' ... '$close' markers" >&2; exit 2; }
		# replace the text between the markers with the generated text
		# (ENVIRON, not -v: awk would read the man page's backslash)
		open=$open close=$close tab=$w/$what.txt awk '
			$0 == ENVIRON["open"] { print; while ((getline l < ENVIRON["tab"]) > 0) print l; skip = 1; next }
			$0 == ENVIRON["close"] { skip = 0 }
			!skip' "$new" > "$w/tmp" && mv "$w/tmp" "$new"
	done
}
fill "$doc" "$w/new.md" "<!-- " " -->" knobs counters
fill "$man" "$w/new.8" '.\" ' "" manknobs
status=0
for pair in "$doc:$w/new.md" "$man:$w/new.8"; do
	old=${pair%%:*} new=${pair#*:}
	if [ "$check" = 1 ]; then
		if ! diff -u "$old" "$new" > "$w/diff"; then
			echo "$old does not match include/foliotune.h (run scripts/gen-docs.sh):"
			cat "$w/diff"
			status=1
		fi
	else
		cmp -s "$old" "$new" || cp "$new" "$old"
	fi
done
exit $status
