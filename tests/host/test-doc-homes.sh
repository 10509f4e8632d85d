#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One home per fact, for the docs a newcomer reads first: `make help` lists
# every make target the docs name; docs/kernels.md's support matrix is the
# one generated part of it, between its markers, and `make kernels-doc`
# rewrites nothing else; the verified headers say once where their meaning
# is documented (the generator's words, no file that does not exist); the
# README fits on a screen.  Self-tests plant each failure.
. "$(dirname "$0")/lib-host.sh"

# ---- make help names every target the docs name -----------------------------
# doc_targets FILE...: the targets of the `make [VAR=V]... TARGET` the files
# name, in code (a fenced or indented block, or `...`; "make mutant-NAME"
# as mutant-NAME), one per line.
doc_targets() {
	awk '/^ *```/ { code = !code; next }
		code || /^    / { print; next }
		{ while (match($0, /`[^`]*`/)) { print substr($0, RSTART, RLENGTH); $0 = substr($0, RSTART + RLENGTH) } }' "$@" |
		grep -oE '(^|[`;&|( ])(sudo )?([A-Z_]+=[^ `]+ )*make( [A-Z_]+=[^ `]+)* [a-z][a-zA-Z0-9-]*' |
		sed -E 's/.*make( [A-Z_]+=[^ `]+)* //' | sort -u
}
# help_targets: the targets `make help` shows ("make a / b" both).
help_targets() {
	make -s --no-print-directory -C "$1" help | sed -nE 's/^ *([A-Z_]+=[^ ]+ )*make( [A-Z_]+=[^ ]+)* //p' |
		sed -E 's/ {2,}.*//; s/ \[[^]]*\]//g; s/ [A-Z_]+=[^ ]*//g' | tr '/' '\n' | tr -d ' ' | grep . | sort -u
}
docs=("$repo/README.md" "$repo"/docs/*.md "$repo/bench/README.md")
missing=$(comm -23 <(doc_targets "${docs[@]}") <(help_targets "$repo") | xargs)
check_eq "doc homes: make help lists every make target the docs name ($(doc_targets "${docs[@]}" | wc -l))" "" "$missing"
printf 'Run `make frobnicate-all` first.\n' > "$w/planted.md"
check_eq "doc homes: self-test: a doc naming a target make help lacks is caught" "frobnicate-all" \
	"$(comm -23 <(doc_targets "$w/planted.md") <(help_targets "$repo") | xargs)"

# ---- the support matrix: generated between markers, the prose by hand -------
m=$w/matrix
mkdir -p "$m/scripts/kernels" "$m/module/verified"
cp "$repo/scripts/kernels/matrix.sh" "$m/scripts/kernels/"
echo 6.12.109+deb13-amd64 > "$m/scripts/kernels/default-kver"
printf '6.12.108+deb13-amd64 why-not-1\n' > "$m/scripts/kernels/refused.list"
# the registry, as list.sh prints it (the real one asks the network)
printf '#!/bin/sh\n[ -e "%s/registry-down" ] && exit 1\nprintf "6.12.99+deb13-amd64 6.12.99-1\\n6.12.108+deb13-amd64 6.12.108-1\\n6.12.109+deb13-amd64 6.12.109-1\\n6.12.109+deb13-rt-amd64 6.12.109-1\\n"\n' \
	"$w" > "$m/scripts/kernels/list.sh"
chmod +x "$m/scripts/kernels/list.sh"
printf ' * Verified 2026-01-02 at commit abc1234.\n' > "$m/module/verified/6.12.109+deb13-amd64.h"
begin=$(sed -n "s/^MARK_BEGIN='\(.*\)'$/\1/p" "$repo/scripts/kernels/matrix.sh")
end=$(sed -n "s/^MARK_END='\(.*\)'$/\1/p" "$repo/scripts/kernels/matrix.sh")
check "doc homes: docs/kernels.md holds the matrix's two markers, once each" \
	test "$(grep -cxF -e "$begin" -e "$end" "$repo/docs/kernels.md")" = 2
printf '# Kernel builds\n\nProse, edited by hand.\n\n%s\nan old table\n%s\n\nMore prose.\n' \
	"$begin" "$end" > "$w/kernels.md"
grep -vxF "$end" "$w/kernels.md" > "$w/nomark.md"
"$m/scripts/kernels/matrix.sh" --update "$w/kernels.md"
{
	printf '# Kernel builds\n\nProse, edited by hand.\n\n%s\n' "$begin"
	echo 'Default build (scripts/kernels/default-kver, what `make` and `make check` build for): `6.12.109+deb13-amd64`.'
	echo
	echo '| build | package | verified | date | commit | note |'
	echo '|---|---|---|---|---|---|'
	echo '| 6.12.108+deb13-amd64 | 6.12.108-1 | no | | | why-not-1 |'
	echo '| 6.12.109+deb13-amd64 | 6.12.109-1 | yes | 2026-01-02 | abc1234 | |'
	echo '| 6.12.109+deb13-rt-amd64 | 6.12.109-1 | no | | | refused: PREEMPT_RT |'
	printf '%s\n\nMore prose.\n' "$end"
} > "$w/kernels.want"
check "doc homes: kernels-doc rewrites the table between the markers, nothing else" \
	diff -u "$w/kernels.want" "$w/kernels.md"
cp "$w/kernels.md" "$w/kernels.keep"
touch "$w/registry-down"
"$m/scripts/kernels/matrix.sh" --update "$w/kernels.md" 2> /dev/null; rc=$?
check "doc homes: a registry that does not answer fails (exit $rc) and leaves the page as it was" \
	sh -c "[ $rc != 0 ] && cmp -s '$w/kernels.md' '$w/kernels.keep'"
rm "$w/registry-down"
out=$("$m/scripts/kernels/matrix.sh" --update "$w/nomark.md" 2>&1); rc=$?
check "doc homes: a page without both markers is refused, untouched (exit $rc: $out)" \
	sh -c "[ $rc = 2 ] && grep -qx 'an old table' '$w/nomark.md'"

# ---- verified headers: the generator's words, pointing to their one home ----
bad=
for h in "$repo"/module/verified/*.h; do
	case $h in *-ftdebug.h) continue ;; esac
	# the comment up to its facts ("Verified DATE at commit ...")
	head=$(sed -n '2,/^ \* Verified [0-9]/p' "$h" | sed '$d')
	[ "$head" = '/*
 * A kernel build foliotune is verified on, written by make verify-kernel
 * (docs/kernels.md, "Verified headers"); do not edit, verify again.
 *' ] || bad+=" ${h##*/}"
done
check_eq "doc homes: every tree header's comment is the generator's two lines, pointing to docs/kernels.md" "" "$bad"
printf 'x 0x10\n' > "$w/sizes"
gen=$("$repo/scripts/kernels/verified-header.sh" 6.12.9+deb13-amd64 "#1 v" 6.12.9-1 foliotune.patch cc "$w/sizes" |
	sed -n '2,/^ \* Verified [0-9]/p' | sed '$d')
check_eq "doc homes: ... and the generator writes those lines" \
	"$(sed -n '2,/^ \* Verified [0-9]/p' "$repo/module/verified/$(cat "$repo/scripts/kernels/default-kver").h" | sed '$d')" "$gen"
check "doc homes: docs/kernels.md has the section the headers point to" grep -qx '### Verified headers' "$repo/docs/kernels.md"
cited=$(grep -ohE '(module|scripts|docs|tests)/[A-Za-z0-9_./-]+\.(diff|patch|md|sh|py|c|h)' "$repo"/module/verified/*.h | sort -u |
	while read -r f; do [ -e "$repo/$f" ] || echo "$f"; done | xargs)
check_eq "doc homes: the verified headers cite no file that does not exist" "" "$cited"

# ---- the README fits on a screen -------------------------------------------
n=$(wc -l < "$repo/README.md")
check "doc homes: README.md has at most 180 lines ($n)" test "$n" -le 180
