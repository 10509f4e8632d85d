#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report/plot.py makes every figure from the raw files alone, in both
# layouts: a committed session's raw.tar.xz (DIR/raw) and the smoke fixture
# (make bench's DIR/{unmap,faultaround}/raw), and the data it plots is the
# data in the records.  Needs gnuplot (scripts/deps.sh installs gnuplot-nox).
. "$(dirname "$0")/lib-host.sh"

if ! command -v gnuplot > /dev/null; then
	not_ok "plot: gnuplot installed" "gnuplot missing: run make deps (gnuplot-nox)"
	exit 0
fi

run=$repo/bench/results/2026-12-01-07db09e
fixture=$repo/tests/host/fixtures/bench-smoke
o=$w/$(basename "$run") n=$w/bench-smoke
# the raw files only: the figures must not depend on anything else
mkdir -p "$o" "$n" && cp "$run/raw.tar.xz" "$o/" && cp -r "$fixture/unmap" "$fixture/faultaround" "$n/"
mkdir -p "$w/expect" && tar -xJf "$run/raw.tar.xz" -C "$w/expect"

"$repo/bench/report/plot.py" "$o" > "$w/old.log" 2>&1
check_eq "plot: a session's raw.tar.xz (DIR/raw) exits 0" 0 "$?"
for f in unmap-time unmap-speedup unmap-batches; do
	check "plot: raw.tar.xz makes $f.png and $f.svg" test -s "$o/plots/$f.png" -a -s "$o/plots/$f.svg"
done
check "plot: an unmap session says there is no fault-around data" grep -q 'no fault-around runs' "$w/old.log"
# one row per benchmark with reclaim_seconds in both modes
want=$(grep -l '^reclaim_seconds ' "$w"/expect/raw/*.stock.[0-9]*.out | sed 's|.*/||; s|\..*||' | sort -u |
	while read -r b; do grep -ql '^reclaim_seconds ' "$w"/expect/raw/"$b".batched.[0-9]*.out && echo "$b"; done | wc -l)
check_eq "plot: unmap-time has one row per reclaim benchmark" "$want" "$(grep -c '^"' "$o/plots/unmap-time.dat")"
# unmap-batches: the mean of file2m's unmap_batch_order9 over its batched records
# (the header's first label is three words, so column = field - 2)
want=$(awk '$3 == "unmap_batch_order9" { s += $4; n++ } END { printf "%.1f", s / n }' "$w"/expect/raw/file2m.batched.[0-9]*.rec)
check_eq "plot: unmap-batches takes the order9 runs of file2m from its records" "$want" \
	"$(awk 'NR == 1 { for (i = 2; i <= NF; i++) if ($i == "file2m") c = i - 2 } $1 == "\"512\"" { print $c }' "$o/plots/unmap-batches.dat")"
check "plot: figures say QEMU TCG" grep -q 'QEMU TCG guest (software emulation)' "$o/plots/unmap-time.svg"
check "plot: figures of a session are not labelled smoke" bash -c "! grep -q 'SMOKE RUN' '$o/plots/unmap-time.svg'"

"$repo/bench/report/plot.py" "$n" > "$w/new.log" 2>&1
check_eq "plot: make bench layout (DIR/*/raw) exits 0" 0 "$?"
for f in unmap-time unmap-speedup unmap-batches fa-launch fa-seqread; do
	check "plot: make bench layout makes $f.png and $f.svg" test -s "$n/plots/$f.png" -a -s "$n/plots/$f.svg"
done
check "plot: figures of a -smoke directory say so" grep -q 'SMOKE RUN' "$n/plots/unmap-time.svg"
want=$(awk '$3 == "unmap_batch_order9" { printf "%.1f", $4 }' "$n/unmap/raw/file2m.batched.1.rec")
check_eq "plot: unmap-batches of one rep is file2m's order9 count" "$want" \
	"$(awk 'NR == 1 { for (i = 2; i <= NF; i++) if ($i == "file2m") c = i - 2 } $1 == "\"512\"" { print $c }' "$n/plots/unmap-batches.dat")"
# fa-launch: the stock median is the summary avg_ms of launch-zram.stock.1.out
want=$(awk '$1 == "summary" { for (i = 2; i <= NF; i++) if ($i ~ /^avg_ms=/) print substr($i, 8) }' \
	"$n/faultaround/raw/launch-zram.stock.1.out")
check_eq "plot: fa-launch plots the stock run's average launch time" "$want" \
	"$(awk '$1 == "\"launch-zram\"" { print $2 }' "$n/plots/fa-launch.dat")"

mkdir -p "$w/empty"
"$repo/bench/report/plot.py" "$w/empty" > /dev/null 2>&1
rc=$?
check "plot: a directory without raw/ or raw.tar.xz fails (exit $rc)" test "$rc" -ne 0
