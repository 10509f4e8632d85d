#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-all.sh [KVER...] - the smoke suite (tests/guest/smoke-suite.sh) on each
# verified build named (default: every one), each built first (make
# kernel-module: module/verified/KVER.h, the build's own copies, its
# kallsyms from one boot) and booted in the test box (smoke.sh).  Builds
# run as jobs of harness/vm/schedule.sh, two at once: one lane builds the
# next module while the other's box runs.  One TAP line per build; exit 1
# if any failed.  make check-kernels runs it (FT_KERNELS: the builds);
# FT_KERNELS_RECORD=1 appends the run to docs/kernels.md's "Smoke runs"
# (the kernels lane's record, harness/lanes.sh).
#
# check-all.sh --one KVER: one build, its line on standard output (what
# tests/run.sh's kernels stage runs as one of its jobs).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
cache=${FT_CACHE:-/var/cache/foliotune}

# one KVER: build, boot, one line
one() {
	local k=$1 log=$repo/build/smoke/$1 r
	mkdir -p "$log"
	# Two jobs may fetch at once: one fetch at a time into the shared
	# cache (it runs apt-get against one private configuration).
	if ! flock "$cache/.fetch.lock" scripts/kernels/fetch.sh "$k" image headers source > "$log/fetch.log" 2>&1; then
		echo "not ok - kernels: $k: fetch # $(tail -1 "$log/fetch.log")"
		return 1
	fi
	if ! make -s --no-print-directory KVER="$k" kernel-module > "$log/build.log" 2>&1; then
		echo "not ok - kernels: $k: module build # $(grep -m1 -iE 'error|refuse|not verified' "$log/build.log" || tail -1 "$log/build.log")"
		return 1
	fi
	if r=$(scripts/kernels/smoke.sh "$k" "$repo/build/modules/$k/foliotune.ko" "$log" 2> "$log/smoke.err"); then
		echo "ok - kernels: $k: smoke suite, $r"
	else
		echo "not ok - kernels: $k: smoke suite # $(tail -1 "$log/smoke.err")"
		return 1
	fi
}

if [ "${1:-}" = --one ]; then
	one "${2:?usage: check-all.sh --one KVER}"
	exit
fi

verified=()
for h in module/verified/*.h; do
	k=$(basename "$h" .h)
	case $k in *-ftdebug) continue ;; esac
	verified+=("$k")
done
kvers=("$@")
[ ${#kvers[@]} -gt 0 ] || kvers=("${verified[@]}")
logs=$repo/build/test-logs-kernels
rm -rf "$logs"
. harness/vm/schedule.sh
sched_init "$logs"
smoke_job() { one "$1" > "$SCHED_PART"; echo "# run plan: kernels $1 1" >> "$SCHED_PART"; }
for k in "${kvers[@]}"; do
	sched_add "kernels-$k" 0 smoke_job "$k"
done
SCHED_ON_DONE=print_done
print_done() { grep -E '^(not )?ok - ' "$logs/parts/$1.tap"; }
t0=$(date +%s)
sched_run
fail=0
for k in "${kvers[@]}"; do
	grep -q '^ok - ' "$logs/parts/kernels-$k.tap" || fail=$((fail + 1))
done
took=$(( ($(date +%s) - t0 + 30) / 60 ))
echo "# ${#kvers[@]} builds, $((${#kvers[@]} - fail)) passed, $fail failed, $took min"
if [ "${FT_KERNELS_RECORD:-0}" = 1 ]; then
	result=PASS
	[ "$fail" = 0 ] || result="FAIL ($(grep -h '^not ok - ' "$logs"/parts/*.tap | head -1 | sed 's/^not ok - kernels: //'))"
	# the lane is every verified build: a subset is a partial run
	[ "$(printf '%s\n' "${kvers[@]}" | sort -u)" = "$(printf '%s\n' "${verified[@]}" | sort -u)" ] ||
		result="INCOMPLETE (${#kvers[@]} of ${#verified[@]} verified builds$([ "$fail" = 0 ] || echo ", $fail failed"))"
	printf '| %s | %s | inputs %s | %d builds, %d passed, %d failed | %d min | %s |\n' \
		"$(date -u '+%Y-%m-%d %H:%M')" "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- module include scripts/kernels tests/guest/smoke-suite.sh || echo ' (uncommitted changes)')" \
		"$(harness/lanes.sh hash kernels)" "${#kvers[@]}" "$((${#kvers[@]} - fail))" "$fail" "$took" "$result" >> docs/kernels.md
fi
[ "$fail" = 0 ]
