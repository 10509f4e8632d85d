#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report.sh DIR - turn the raw files of bench/unmap.sh (DIR/raw/ or
# DIR/raw.tar.xz) into DIR/results.md, and print it: the awk program
# bench/report/unmap.awk does the work, on the records as bench/records.py
# reads them.  Needs only bash, tar, python3 and a POSIX awk.
#
# Raw files (written by unmap-guest.sh):
#   BENCH.CONFIG.REP.rec   `foliotune record` file: wall time, exit status,
#                          command, knobs, counter deltas
#   BENCH.CONFIG.REP.out   the benchmark's own output (loops_per_sec or
#                          reclaim_seconds, "# orders: ORDER:FOLIOS ..." from -R)
#   BENCH.trace-MODE.REP.bt  bpftrace maps: @calls/@ns/@max_ns by folio order
#   host-meta.txt, guest-meta.txt  "key value" lines
#   note.txt (optional, written by hand): shown at the top of results.md
# CONFIG: stock (unmap_batch=0), batched (unmap_batch=1), modstock (module
# loaded, unmap_batch=0, overhead phase), nomod (module unloaded); REP
# "warmup" runs are ignored.
#
# Verdict rules (printed in the file too):
#   ratio = median(batched) / median(stock) of the benchmark's metric;
#   "per-rep" = min..max of batched/stock within each ABBA pair (same rep);
#   "paired test" = foliotune stats on the ABBA pairs (exact Wilcoxon
#   signed-rank, 95% Hodges-Lehmann; bench/README.md, "Statistics");
#   order-0: "met" unless that test shows batched slower ("not shown" with
#   fewer than 6 pairs), overhead: modstock/nomod within 1% (towards slower).
set -uo pipefail

dir=${1:?usage: report.sh RESULTS_DIR}
. "$(dirname "$0")/raw.sh"
bench_raw "$dir" || { echo "report.sh: no $dir/raw or $dir/raw.tar.xz" >&2; exit 2; }
raw=$BENCH_RAW
# medians, spread, outliers and verdicts: foliotune stats (bench/report/stats.awk)
bench_ft || { echo "report.sh: cannot build userspace/foliotune (its stats command)" >&2; exit 2; }
sttmp=$(mktemp) || exit 2

shopt -s nullglob
recs=("$raw"/*.rec)
runs=("$raw"/*.out "$raw"/*.bt "$raw"/note.tx[t])
[ $((${#recs[@]} + ${#runs[@]})) -gt 0 ] || { echo "report.sh: no runs in $raw" >&2; exit 2; }

gate=""
[ -r "$raw/console.log" ] &&
	gate=$(grep -m1 -E 'BUG:|WARNING:|Oops|Bad page|lockup|rcu_.*stall|general protection' "$raw/console.log" |
		sed 's/^\[ *[0-9.]*\] //' | tr -d '`|')

# The records come from bench/records.py, the one reader of .rec files
# outside C, as a stream on stdin ("-") read where the .rec files were.
report=$(dirname "$0")/report
python3 "$(dirname "$0")/records.py" "$raw" |
	LC_ALL=C awk -v ft="$BENCH_FT" -v sttmp="$sttmp" -v gate="$gate" -f "$report/stats.awk" -f "$report/runs.awk" -f "$report/unmap.awk" \
	"$raw"/host-meta.txt "$raw"/guest-meta.txt - "${runs[@]}" > "$dir/results.md.tmp" || { rm -f "$sttmp"; exit 2; }
rm -f "$sttmp"
mv "$dir/results.md.tmp" "$dir/results.md"
cat "$dir/results.md"
