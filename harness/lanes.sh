#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lanes.sh - the lanes that run outside CI, and whether their last recorded
# run still describes the tree.
#
#   harness/lanes.sh hash LANE       the hash of LANE's inputs in the work tree
#   harness/lanes.sh status [LANE..] one line per lane, what its last run found:
#                                    passed, failed (with the first failure) or
#                                    incomplete at the current inputs, or stale
#                                    since the first commit that changed them
#                                    (and what that older run found)
#   harness/lanes.sh fresh LANE      exit 1 unless LANE's last run passed at
#                                    the current inputs
#
# A lane's run is recorded, by the lane itself, as a line of its record
# file that matches the lane's selector and holds the commit it ran on (the
# first word of 7 to 40 hex digits that names a commit), "inputs HASH"
# (12 hex digits; older records have none, and are stale once a commit
# after theirs changed an input) and its result: PASS, FAIL or INCOMPLETE,
# each optionally followed by "(...)" saying why (the first failure; where
# it stopped).  A mutation-lane row says "N caught, M missed" instead: it
# passed when M is 0.  A record that names no result counts as incomplete.
# The last such line counts.  The hash covers the content of the lane's input paths (git
# tree hashes of the work tree, committed or not, untracked files included,
# ignored ones not): it changes exactly when a file the lane's result
# depends on changes, whatever else is committed meanwhile.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

# LANE  record-file  selector (ERE)  input paths...
# (docs/testing.md, "Lanes outside CI", says what each lane is)
# A path ":!P" leaves P out of the inputs listed before it; @KVER@ is the
# default build (scripts/kernels/default-kver).  The mutation lane boots
# only the default build, so another build's header (a kernel verified, or
# the debug kernel's) does not make it stale.
# Nor do the reliability suites, which no mutant boots (a mutant's Tests:
# must name a guest test among the inputs, and every file a mutant patches
# must be one: tests/host/test-lanes.sh; of the CLI that is set.c).
# The lanes that boot guest tests hash what those tests source
# (tests/lib.sh, tests/plan.sh) and the programs they run (tests/progs).
# A benchmark hashes the programs it runs and the helpers linked into
# them (ft_common.h and the files behind it), the shell helpers its guest
# half sources (tests/lib.sh) and the CLI that records and analyses its
# runs (userspace).
lanes() {
	local kver
	kver=$(cat scripts/kernels/default-kver)
	sed "s/@KVER@/$kver/g; s|@COMMON@|tests/progs/ft_common.h tests/progs/ft_common.c tests/progs/ft_cgroup.c tests/progs/ft_pattern.c tests/progs/ft_folios.c tests/progs/Makefile|g" <<'EOF'
mutants docs/mutants.md ^\|.20[0-9-]+ module :!module/verified module/verified/@KVER@.h scripts/kernels/default-kver include tests/guest :!tests/guest/reliability tests/lib.sh tests/plan.sh tests/progs tests/mutants scripts/kernels/kcopy.py userspace/set.c userspace/status.c
debug docs/debug-runs.md ^\|.20[0-9-]+ module include tests/guest tests/lib.sh tests/plan.sh tests/progs tests/mm-selftests harness/debug-kernel scripts/kernels/kcopy.py
box-proof docs/own-box.md ^Last.run: module include userspace harness/own-box bench/box.sh tests/guest tests/lib.sh tests/plan.sh tests/progs Makefile scripts
kernels docs/kernels.md ^\|.20[0-9-]+.[0-9:]+.\|.*\|.inputs module include scripts/kernels tests/guest/smoke-suite.sh harness/vm/schedule.sh
bench-unmap bench/README.md Latest.results:.\[[0-9-]+-[0-9a-f]{7}\] module include bench/unmap.sh bench/unmap-guest.sh bench/bench-lib.sh bench/report/unmap.py bench/report/session.py bench/records.py tests/lib.sh userspace tests/progs/ft_pageout_bench.c tests/progs/ft_reclaim_bench.c @COMMON@
bench-faultaround bench/README.md Latest.results:.\[[0-9-]+-[0-9a-f]{7}-faultaround\] module include bench/faultaround.sh bench/faultaround-guest.sh bench/bench-lib.sh bench/report/faultaround.py bench/report/session.py bench/records.py tests/lib.sh userspace tests/progs/ft_seqread.c tests/progs/ft_spawn.c bench/progs @COMMON@
bench-reclaim bench/README.md Latest.results:.\[[0-9-]+-[0-9a-f]{7}-reclaim\] module include bench/reclaim.sh bench/reclaim-guest.sh bench/reclaim-arms.sh bench/bench-lib.sh bench/report/reclaim.py bench/report/session.py bench/records.py tests/lib.sh userspace tests/progs/ft_reclaim_bench.c @COMMON@
EOF
}

lane_line() {
	lanes | awk -v l="$1" '$1 == l' | grep . ||
		{ echo "lanes: no lane '$1' (lanes: $(lanes | cut -d' ' -f1 | xargs))" >&2; exit 2; }
}

# inputs_hash PATH...: the work tree's content of PATHs, hashed.
inputs_hash() {
	local idx
	idx=$(mktemp)
	# a private index: the real one (and what is staged) is left alone
	cp "$(git rev-parse --git-path index)" "$idx" 2>/dev/null || :
	local p incl=() excl=()
	for p in "$@"; do
		case $p in
		:!*) excl+=("${p#:!}") ;;
		*) incl+=("$p") ;;
		esac
	done
	GIT_INDEX_FILE=$idx git add -A -- "${incl[@]}" 2>/dev/null
	local tree
	tree=$(GIT_INDEX_FILE=$idx git write-tree)
	rm -f "$idx"
	local e cut
	for p in "${incl[@]}"; do
		cut=
		for e in "${excl[@]}"; do
			case $e in "$p"/*) cut+="${cut:+|}^$e/" ;; esac
		done
		if [ -n "$cut" ]; then
			# a tree with a part left out: its listing, without that part
			echo "$p $(git ls-tree -r --full-tree "$tree" -- "$p" |
				awk -F'\t' -v cut="$cut" '$2 !~ cut' | sha256sum | cut -c1-12)"
		else
			echo "$p $(git rev-parse -q --verify "$tree:$p" || echo absent)"
		fi
	done | sha256sum | cut -c1-12
}

# last_record FILE SELECTOR: "COMMIT HASH" of the last run FILE records
# (HASH "none" when it recorded none).
last_record() {
	local line h c w
	line=$(grep -E "$2" "$1" 2>/dev/null | tail -1)
	[ -n "$line" ] || return 1
	h=$(grep -oE 'inputs [0-9a-f]{12}\b' <<<"$line" | tail -1 | cut -d' ' -f2)
	h=${h:-none}
	c=unknown
	for w in $(grep -oE '\b[0-9a-f]{7,40}\b' <<<"$line"); do
		[ "$w" = "$h" ] && continue
		git cat-file -e "$w^{commit}" 2>/dev/null && { c=$w; break; }
	done
	echo "$c $h"
}

# result LINE: what a record line says its run found, as "passed",
# "failed DETAIL" or "incomplete DETAIL".
result() {
	local line=$1 why missed
	why=$(grep -oE '\b(PASS|FAIL|INCOMPLETE)\b( \([^|]*\))?' <<<"$line" | tail -1)
	case $why in
	INCOMPLETE*) echo "incomplete${why#INCOMPLETE}" ;;
	FAIL*) # a run stopped early is incomplete, whatever failed first
		if grep -qiE '\bincomplete\b|\bstopped\b' <<<"${why#FAIL}"; then
			echo "incomplete${why#FAIL}"
		else
			echo "failed${why#FAIL}"
		fi ;;
	PASS*) echo passed ;;
	*)	if missed=$(grep -oE '\b[0-9]+ missed\b' <<<"$line"); then
			if [ "${missed%% *}" = 0 ]; then
				echo passed
			else
				echo "failed ($missed)"
			fi
		else
			echo "incomplete (the record names no result)"
		fi ;;
	esac
}

# status LANE: prints one line; returns 1 unless the last run passed at
# the current inputs.
status() {
	local name file sel paths rec commit hash now since found line
	read -r name file sel paths <<<"$(lane_line "$1")"
	# shellcheck disable=SC2086  # paths is a list
	now=$(inputs_hash $paths)
	if ! rec=$(last_record "$file" "$sel"); then
		echo "lane $name: stale since ever: $file records no run"
		return 1
	fi
	read -r commit hash <<<"$rec"
	line=$(grep -E "$sel" "$file" | tail -1)
	found=$(result "$line")
	if [ "$hash" = "$now" ]; then
		case $found in
		passed) echo "lane $name: passed at the current inputs (run at $commit, inputs $hash)"
			return 0 ;;
		*) local detail=${found#"${found%% *}"}
		   detail=${detail# (}
		   echo "lane $name: ${found%% *} at the current inputs (run at $commit, inputs $hash)${detail:+: ${detail%)}}"
		   return 1 ;;
		esac
	fi
	since=
	if [ "$commit" != unknown ]; then
		# shellcheck disable=SC2086
		since=$(git log --reverse --format=%h "$commit..HEAD" -- $paths | head -1)
		# no commit changed an input: the work tree did, or the list of
		# inputs did (this file)
		# shellcheck disable=SC2086
		if [ -z "$since" ] && [ -z "$(git status --porcelain -- $paths)" ]; then
			since=$(git log --reverse --format=%h "$commit..HEAD" -- harness/lanes.sh | head -1)
			[ -n "$since" ] && since="$since (its list of inputs)"
		fi
	fi
	# stale lines end with what that run found, so "stale" never hides a failure
	if [ "$hash" = none ]; then
		echo "lane $name: stale since ${since:-?}: its last run ($commit, $file) recorded no inputs hash; that run: $found"
	else
		echo "lane $name: stale since ${since:-uncommitted changes}: inputs $now, last run at $commit had $hash ($file); that run: $found"
	fi
	return 1
}

case ${1:-} in
hash)
	read -r _ _ _ paths <<<"$(lane_line "${2:?usage: lanes.sh hash LANE}")"
	# shellcheck disable=SC2086
	inputs_hash $paths ;;
status)
	shift
	[ $# -gt 0 ] || set -- $(lanes | cut -d' ' -f1)
	for l in "$@"; do status "$l" || :; done ;;
fresh)
	status "${2:?usage: lanes.sh fresh LANE}" ;;
*)
	sed -n '3,/^#$/{/^#$/d;s/^# \{0,1\}//p}' "$0" >&2
	exit 2 ;;
esac
