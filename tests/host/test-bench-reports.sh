#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark reports (scripts/bench/report.sh, faultaround-report.sh)
# rebuild results.md from raw/ alone: run both on copies of the raw files
# of committed results and check that they finish and write the sections
# people read.  Both are awk programs inside shell quotes, where one stray
# apostrophe breaks the whole report without any other test noticing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
repo=$FT_REPO
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# copy_raw DIR NAME: DIR/raw (only) into $w/NAME/raw
copy_raw() {
	mkdir -p "$w/$2" && cp -r "$1/raw" "$w/$2/"
}

# has NAME FILE HEADING...: every heading is a line of FILE
has() {
	local name=$1 file=$2 h missing=""
	shift 2
	for h in "$@"; do grep -qF -- "$h" "$file" || missing="$missing '$h'"; done
	if [ -z "$missing" ]; then ok "$name"; else not_ok "$name" "missing:$missing"; fi
}

unmap=$repo/bench/results/2026-12-01-07db09e
fa=$repo/bench/results/2026-12-01-a75a374-faultaround
smoke=$repo/bench/results/2026-11-29-fd6f518-smoke

for d in "$unmap" "$fa" "$smoke/faultaround"; do
	[ -d "$d/raw" ] || not_ok "reports: fixture $d" "no raw/ directory"
done

copy_raw "$unmap" unmap
if "$repo/scripts/bench/report.sh" "$w/unmap" > "$w/unmap.log" 2>&1; then
	ok "reports: report.sh rebuilds results.md of $(basename "$unmap")"
else
	not_ok "reports: report.sh rebuilds results.md of $(basename "$unmap")" "$(tail -3 "$w/unmap.log" | tr '\n' '|')"
fi
has "reports: report.sh writes its sections" "$w/unmap/results.md" \
	"## Batched vs stock" "## Module loaded with unmap_batch=0 vs no module" \
	"## Time inside try_to_unmap_one per call" "## What batching can gain here" \
	"## Benchmarks and exact commands"
has "reports: report.sh names the stalled run of that boot" "$w/unmap/results.md" \
	"seed.stock.5: loops/s 0.12 against a median of 116.60"

for d in "$fa" "$smoke/faultaround"; do
	n=$(basename "$d")
	copy_raw "$d" "$n"
	if "$repo/scripts/bench/faultaround-report.sh" "$w/$n" > "$w/$n.log" 2>&1; then
		ok "reports: faultaround-report.sh rebuilds results.md of $n"
	else
		not_ok "reports: faultaround-report.sh rebuilds results.md of $n" "$(tail -3 "$w/$n.log" | tr '\n' '|')"
	fi
done
has "reports: faultaround-report.sh writes its sections" "$w/$(basename "$fa")/results.md" \
	"## launch-zram: launch latency" "## seqread: fault-around" "## Targets" \
	"## fault_around_auto: the windows it chose" "## Exact commands"
has "reports: the seqread targets use ns per touched page" "$w/$(basename "$fa")/results.md" \
	"seqread = median ns per touched page of the pattern" "| seqread/stride16 | fa4k |"

# make bench-box writes "accel box": the reports name the machine's CPU
# and do not call its figures emulator figures.
for r in unmap:report.sh fa:faultaround-report.sh; do
	name=${r%%:*} script=${r#*:}
	copy_raw "$([ "$name" = unmap ] && echo "$unmap" || echo "$fa")" "box-$name"
	sed -i 's/^accel .*/accel box/' "$w/box-$name/raw/host-meta.txt"
	sed -i 's/^guest_cpu_model .*/guest_cpu_model Intel(R) Xeon(R) Test CPU @ 2.00GHz/' "$w/box-$name/raw/guest-meta.txt"
	"$repo/scripts/bench/$script" "$w/box-$name" > /dev/null 2>&1
	cpus=$(awk '$1 == "guest_cpus" { print $2 }' "$w/box-$name/raw/guest-meta.txt")
	if grep -qF "measured on Intel(R) Xeon(R) Test CPU @ 2.00GHz, $cpus CPUs" "$w/box-$name/results.md" &&
		! grep -q 'QEMU TCG\|emulator figures\|emulator times' "$w/box-$name/results.md"; then
		ok "reports: $script labels a bench-box run with the machine's CPU model"
	else
		not_ok "reports: $script labels a bench-box run with the machine's CPU model" \
			"$(grep -m3 'measured\|TCG' "$w/box-$name/results.md" | tr '\n' '|')"
	fi
done
