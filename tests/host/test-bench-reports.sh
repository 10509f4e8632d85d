#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark reports (bench/report/unmap.py, faultaround.py, reclaim.py)
# rebuild results.md from the raw files alone: run them on the raw.tar.xz
# archives of the committed sessions and on the smoke fixture, and check
# that they finish, write the sections people read and reproduce the
# committed results.md, every committed session's.  They run nowhere else,
# so a slip there breaks a report without any other test noticing.  Their
# medians, spread, outliers and verdicts come from `foliotune analyze`, called
# in one place (bench/report/session.py): the reports fail without it, and
# no bench script computes them itself.  Also: every committed session is
# evidence, not a dump (results, plots, one archive).
. "$(dirname "$0")/lib-host.sh"

# has NAME FILE HEADING...: every heading is a line of FILE
has() {
	local name=$1 file=$2 h missing=""
	shift 2
	for h in "$@"; do grep -qF -- "$h" "$file" || missing="$missing '$h'"; done
	if [ -z "$missing" ]; then ok "$name"; else not_ok "$name" "missing:$missing"; fi
}

# report SCRIPT DIR NAME: bench/report/SCRIPT on a copy of DIR's raw.tar.xz
# (or raw/) only
report() {
	local script=$1 d=$2 n=$3
	mkdir -p "$w/$n"
	if [ -f "$d/raw.tar.xz" ]; then cp "$d/raw.tar.xz" "$w/$n/"; else cp -r "$d/raw" "$w/$n/"; fi
	if "$repo/bench/report/$script" "$w/$n" > "$w/$n.log" 2>&1; then
		ok "reports: $script rebuilds results.md of $n"
	else
		not_ok "reports: $script rebuilds results.md of $n" "$(tail -3 "$w/$n.log" | tr '\n' '|')"
	fi
}

# same_as_committed DIR NAME: the rebuilt results.md is the committed one
same_as_committed() {
	if cmp -s "$1/results.md" "$w/$2/results.md"; then
		ok "reports: results.md of $2 rebuilt from raw.tar.xz equals the committed one"
	else
		not_ok "reports: results.md of $2 rebuilt from raw.tar.xz equals the committed one" \
			"$(diff "$1/results.md" "$w/$2/results.md" | head -4 | tr '\n' '|')"
	fi
}

unmap=$repo/bench/results/2026-12-01-07db09e
fa=$repo/bench/results/2026-12-01-a75a374-faultaround
smoke=$repo/tests/host/fixtures/bench-smoke

for d in "$unmap" "$fa"; do
	check "reports: $(basename "$d") keeps its raw files as raw.tar.xz" test -s "$d/raw.tar.xz"
done
check "reports: fixture $smoke/faultaround/raw" test -d "$smoke/faultaround/raw"

report unmap.py "$unmap" unmap
has "reports: unmap.py writes its sections" "$w/unmap/results.md" \
	"## Batched vs stock" "## Module loaded with unmap_batch=0 vs no module" \
	"## Time inside try_to_unmap_one per call" "## What batching can gain here" \
	"## Benchmarks and exact commands"
has "reports: unmap.py names the stalled run of that boot" "$w/unmap/results.md" \
	"seed.stock.5: loops/s 0.12 against a median of 116.6"
has "reports: unmap.py gives the paired verdicts of foliotune analyze" "$w/unmap/results.md" \
	"| file2m | reclaim s | 0.0756 | 0.0276 | 0.365 | 0.3402..0.5779 (7) | 2.74x | batched faster, p 0.0156 |" \
	"| order0 | reclaim s | 0.2784 | 0.2777 | 0.997 | 0.9006..1.137 (7) | 1.00x | no difference these runs can show: the smallest effect they could detect is 6.8% | no slowdown beyond noise | met (no slowdown shown) |"
same_as_committed "$unmap" unmap

report faultaround.py "$fa" fa
has "reports: faultaround.py writes its sections" "$w/fa/results.md" \
	"## launch-zram: launch latency" "## seqread: fault-around" "## Targets" \
	"## fault_around_auto: the windows it chose" "## Exact commands"
has "reports: the seqread targets use ns per touched page" "$w/fa/results.md" \
	"seqread = median ns per touched page of the pattern" "| seqread/stride16 | fa4k |"
same_as_committed "$fa" fa

# Every other committed session rebuilds to its committed results.md too.
for d in "$repo"/bench/results/*/; do
	d=${d%/} n=$(basename "$d")
	if [ "$d" = "$unmap" ] || [ "$d" = "$fa" ] || [ ! -f "$d/raw.tar.xz" ]; then continue; fi
	case $n in *-faultaround) s=faultaround.py ;; *-reclaim) s=reclaim.py ;; *) s=unmap.py ;; esac
	report "$s" "$d" "all-$n"
	same_as_committed "$d" "all-$n"
done

# 5 reps: the report says that no difference can be shown, never just "no
# difference" (the fault-around run of f2a3efa: BENCH_REPS=5)
f5=$w/all-2026-12-02-f2a3efa-faultaround/results.md
has "reports: with 5 pairs the report says no difference can be shown" "$f5" \
	"- **WARNING** BENCH_REPS=5: configurations are compared in pairs of runs of the same rep, and with 5 pairs no difference can be shown at p < 0.05" \
	"| spawn | mkold2 | 93635330.0 | 117471203.0 | 1.25 | not shown (5 pairs) |" \
	"| fa4k | 5 | 74.9 / **84.9** / 149.1 | 0.53 (-47%) | with 5 pairs no difference can be shown at p < 0.05 (6 are needed) |"
check "reports: no verdict of a 5-rep run is a bare \"no difference\"" \
	bash -c "! grep -q 'no difference (\|inside the spread\|| inside |' '$f5'"

# Without foliotune analyze there is no report (nothing falls back to awk).
for r in faultaround.py:"$fa" unmap.py:"$unmap"; do
	s=${r%%:*} d=${r#*:}
	mkdir -p "$w/nostats-$s" && cp "$d/raw.tar.xz" "$w/nostats-$s/"
	FOLIOTUNE=/bin/false "$repo/bench/report/$s" "$w/nostats-$s" > /dev/null 2>&1
	check_eq "reports: $s fails when foliotune analyze gives nothing" 2 "$?"
done
# One home: no median, sort or outlier rule of its own in bench/, and one
# place that runs foliotune analyze for the reports and figures (make demo's
# table, bench/demo-guest.sh, runs it in the box on its own).
own=$(grep -rlE 'function (median|nsort|outlier)|statistics\.median|def median|\(n \+ 1\) / 2' "$repo/bench" \
	--include='*.awk' --include='*.sh' --include='*.py' | sed "s|$repo/||" | tr '\n' ' ')
check_eq "reports: bench/ computes no median or outlier rule of its own" "" "$own"
callers=$(grep -rlE '(\$[{A-Za-z_][A-Za-z_0-9]*\}?"? analyze( |$|\|))|("analyze"[],)])' "$repo/bench" \
	--include='*.sh' --include='*.py' --include='*.awk' |
	sed "s|$repo/||" | grep -v '^bench/demo' | tr '\n' ' ')
check_eq "reports: foliotune analyze is run in one place" "bench/report/session.py " "$callers"
# One language: the report programs and what they share are Python.
check_eq "reports: bench/report/ holds Python only" "" \
	"$(cd "$repo/bench/report" && ls | grep -v '\.py$' | grep -v '^__pycache__$' | tr '\n' ' ')"

report faultaround.py "$smoke/faultaround" smoke-fa
has "reports: faultaround.py reads the smoke fixture's runs" "$w/smoke-fa/results.md" \
	"## launch-zram: launch latency" "## seqread: fault-around"

mkdir -p "$w/none"
"$repo/bench/report/unmap.py" "$w/none" > /dev/null 2>&1
check_eq "reports: unmap.py without raw/ or raw.tar.xz exits 2" 2 "$?"

# Committed sessions: results.md, plots and one raw.tar.xz, never raw/ (pack.sh).
if git -C "$repo" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	for d in "$repo"/bench/results/*/; do
		n=$(basename "$d")
		files=$(git -C "$repo" ls-files -- "bench/results/$n")
		[ -n "$files" ] || continue
		raw=$(printf '%s\n' "$files" | grep -c '/raw/')
		arch=$(printf '%s\n' "$files" | grep -c '/raw\.tar\.xz$')
		res=$(printf '%s\n' "$files" | grep -c '/results\.md$')
		if [ "$raw" = 0 ] && [ "$arch" -ge 1 ] && [ "$res" = "$arch" ] && [ "$(printf '%s\n' "$files" | wc -l)" -le 20 ]; then
			ok "reports: bench/results/$n is results, plots and raw.tar.xz"
		else
			not_ok "reports: bench/results/$n is results, plots and raw.tar.xz" \
				"$(printf '%s\n' "$files" | wc -l) files, $raw under raw/, $arch archives, $res results.md: run bench/pack.sh"
		fi
	done
fi

# make bench-box writes "accel box": the reports name the machine's CPU
# and do not call its figures emulator figures.
for r in unmap:unmap.py fa:faultaround.py; do
	name=${r%%:*} script=${r#*:}
	mkdir -p "$w/box-$name"
	tar -xf "$([ "$name" = unmap ] && echo "$unmap" || echo "$fa")/raw.tar.xz" -C "$w/box-$name"
	sed -i 's/^accel .*/accel box/' "$w/box-$name/raw/host-meta.txt"
	sed -i 's/^guest_cpu_model .*/guest_cpu_model Intel(R) Xeon(R) Test CPU @ 2.00GHz/' "$w/box-$name/raw/guest-meta.txt"
	"$repo/bench/report/$script" "$w/box-$name" > /dev/null 2>&1
	cpus=$(awk '$1 == "guest_cpus" { print $2 }' "$w/box-$name/raw/guest-meta.txt")
	if grep -qF "measured on Intel(R) Xeon(R) Test CPU @ 2.00GHz, $cpus CPUs" "$w/box-$name/results.md" &&
		! grep -q 'QEMU TCG\|emulator figures\|emulator times' "$w/box-$name/results.md"; then
		ok "reports: $script labels a bench-box run with the machine's CPU model"
	else
		not_ok "reports: $script labels a bench-box run with the machine's CPU model" \
			"$(grep -m3 'measured\|TCG' "$w/box-$name/results.md" | tr '\n' '|')"
	fi
done
