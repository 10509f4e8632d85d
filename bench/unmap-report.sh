#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# unmap-report.sh DIR - turn the raw files of bench/unmap.sh (DIR/raw/ or
# DIR/raw.tar.xz) into DIR/results.md, and print it: the awk program
# bench/report/unmap.awk does the work, on the records as bench/records.py
# reads them (bench/report/report.sh).  Needs only bash, tar, python3 and a
# POSIX awk.
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

dir=${1:?usage: unmap-report.sh RESULTS_DIR}
. "$(dirname "$0")/report/report.sh"
report_raw "$dir"

gate=$(report_gate)

shopt -s nullglob
report_run unmap "$dir" -v gate="$gate" -- "$raw"/*.out "$raw"/*.bt "$raw"/note.tx[t]
