#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench/plot.sh makes every figure from the raw/ files of the
# committed smoke results (old layout: <dir>/raw; make bench's layout:
# <dir>/{unmap,faultaround}/raw), and the data it plots is the data in the
# records.  Needs gnuplot (scripts/deps.sh installs gnuplot-nox).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
repo=$FT_REPO
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

if ! command -v gnuplot > /dev/null; then
	not_ok "plot: gnuplot installed" "gnuplot missing: run make deps (gnuplot-nox)"
	exit 0
fi

old=$repo/bench/results/2026-11-29-3af711d-dirty-smoke
new=$repo/bench/results/2026-11-29-fd6f518-smoke
for d in "$old" "$new"; do
	[ -d "$d" ] || { not_ok "plot: fixture $(basename "$d")" "missing"; continue; }
	mkdir -p "$w/$(basename "$d")"
	# the raw files only: the figures must not depend on anything else
	(cd "$d" && find . -path '*/raw/*' -type f | cpio -pdm --quiet "$w/$(basename "$d")")
done
o=$w/$(basename "$old") n=$w/$(basename "$new")

"$repo/scripts/bench/plot.sh" "$o" > "$w/old.log" 2>&1
check_eq "plot: old layout (DIR/raw) exits 0" 0 "$?"
for f in unmap-time unmap-speedup unmap-batches; do
	check "plot: old layout makes $f.png and $f.svg" test -s "$o/plots/$f.png" -a -s "$o/plots/$f.svg"
done
check "plot: old layout says there is no fault-around data" grep -q 'no fault-around runs' "$w/old.log"
# 9 reclaim benchmarks with both modes (seed is loops/s, not reclaim time)
check_eq "plot: unmap-time has one row per reclaim benchmark" 9 "$(grep -c '^"' "$o/plots/unmap-time.dat")"
# file2m's batched run unmapped 103 runs of 512 PTEs (its .rec: unmap_batch_order9
# 103); the header's first label is three words, so column = field - 2
check_eq "plot: unmap-batches takes the order9 runs of file2m from its record" 103.0 \
	"$(awk 'NR == 1 { for (i = 2; i <= NF; i++) if ($i == "file2m") c = i - 2 } $1 == "\"512\"" { print $c }' "$o/plots/unmap-batches.dat")"
check "plot: figures of a -smoke directory say so" grep -q 'SMOKE RUN' "$o/plots/unmap-time.svg"
check "plot: figures say QEMU TCG" grep -q 'QEMU TCG guest (software emulation)' "$o/plots/unmap-time.svg"

"$repo/scripts/bench/plot.sh" "$n" > "$w/new.log" 2>&1
check_eq "plot: make bench layout (DIR/*/raw) exits 0" 0 "$?"
for f in unmap-time unmap-speedup unmap-batches fa-launch fa-seqread; do
	check "plot: make bench layout makes $f.png and $f.svg" test -s "$n/plots/$f.png" -a -s "$n/plots/$f.svg"
done
# fa-launch: the stock median is the summary avg_ms of launch-zram.stock.1.out
want=$(awk '$1 == "summary" { for (i = 2; i <= NF; i++) if ($i ~ /^avg_ms=/) print substr($i, 8) }' \
	"$n/faultaround/raw/launch-zram.stock.1.out")
check_eq "plot: fa-launch plots the stock run's average launch time" "$want" \
	"$(awk '$1 == "\"launch-zram\"" { print $2 }' "$n/plots/fa-launch.dat")"

mkdir -p "$w/empty"
"$repo/scripts/bench/plot.sh" "$w/empty" > /dev/null 2>&1
rc=$?
check "plot: a directory without raw/ fails (exit $rc)" test "$rc" -ne 0
