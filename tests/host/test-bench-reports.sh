#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark reports (bench/unmap-report.sh, faultaround-report.sh)
# rebuild results.md from the raw files alone: run both on the raw.tar.xz
# archives of the latest committed sessions and on the smoke fixture, and
# check that they finish, write the sections people read and reproduce the
# committed results.md.  Their awk programs (bench/report/*.awk) run nowhere
# else, so a slip there breaks a report without any other test noticing.
# Also: every committed session is evidence, not a dump (results, plots, one
# archive).
. "$(dirname "$0")/lib-host.sh"

# has NAME FILE HEADING...: every heading is a line of FILE
has() {
	local name=$1 file=$2 h missing=""
	shift 2
	for h in "$@"; do grep -qF -- "$h" "$file" || missing="$missing '$h'"; done
	if [ -z "$missing" ]; then ok "$name"; else not_ok "$name" "missing:$missing"; fi
}

# report SCRIPT DIR NAME: SCRIPT on a copy of DIR's raw.tar.xz (or raw/) only
report() {
	local script=$1 d=$2 n=$3
	mkdir -p "$w/$n"
	if [ -f "$d/raw.tar.xz" ]; then cp "$d/raw.tar.xz" "$w/$n/"; else cp -r "$d/raw" "$w/$n/"; fi
	if "$repo/bench/$script" "$w/$n" > "$w/$n.log" 2>&1; then
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

report unmap-report.sh "$unmap" unmap
has "reports: unmap-report.sh writes its sections" "$w/unmap/results.md" \
	"## Batched vs stock" "## Module loaded with unmap_batch=0 vs no module" \
	"## Time inside try_to_unmap_one per call" "## What batching can gain here" \
	"## Benchmarks and exact commands"
has "reports: unmap-report.sh names the stalled run of that boot" "$w/unmap/results.md" \
	"seed.stock.5: loops/s 0.12 against a median of 116.60"
same_as_committed "$unmap" unmap

report faultaround-report.sh "$fa" fa
has "reports: faultaround-report.sh writes its sections" "$w/fa/results.md" \
	"## launch-zram: launch latency" "## seqread: fault-around" "## Targets" \
	"## fault_around_auto: the windows it chose" "## Exact commands"
has "reports: the seqread targets use ns per touched page" "$w/fa/results.md" \
	"seqread = median ns per touched page of the pattern" "| seqread/stride16 | fa4k |"
same_as_committed "$fa" fa

report faultaround-report.sh "$smoke/faultaround" smoke-fa
has "reports: faultaround-report.sh reads the smoke fixture's runs" "$w/smoke-fa/results.md" \
	"## launch-zram: launch latency" "## seqread: fault-around"

mkdir -p "$w/none"
"$repo/bench/unmap-report.sh" "$w/none" > /dev/null 2>&1
check_eq "reports: unmap-report.sh without raw/ or raw.tar.xz exits 2" 2 "$?"

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
for r in unmap:unmap-report.sh fa:faultaround-report.sh; do
	name=${r%%:*} script=${r#*:}
	mkdir -p "$w/box-$name"
	tar -xf "$([ "$name" = unmap ] && echo "$unmap" || echo "$fa")/raw.tar.xz" -C "$w/box-$name"
	sed -i 's/^accel .*/accel box/' "$w/box-$name/raw/host-meta.txt"
	sed -i 's/^guest_cpu_model .*/guest_cpu_model Intel(R) Xeon(R) Test CPU @ 2.00GHz/' "$w/box-$name/raw/guest-meta.txt"
	"$repo/bench/$script" "$w/box-$name" > /dev/null 2>&1
	cpus=$(awk '$1 == "guest_cpus" { print $2 }' "$w/box-$name/raw/guest-meta.txt")
	if grep -qF "measured on Intel(R) Xeon(R) Test CPU @ 2.00GHz, $cpus CPUs" "$w/box-$name/results.md" &&
		! grep -q 'QEMU TCG\|emulator figures\|emulator times' "$w/box-$name/results.md"; then
		ok "reports: $script labels a bench-box run with the machine's CPU model"
	else
		not_ok "reports: $script labels a bench-box run with the machine's CPU model" \
			"$(grep -m3 'measured\|TCG' "$w/box-$name/results.md" | tr '\n' '|')"
	fi
done
