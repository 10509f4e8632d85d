#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reclaim-report.sh DIR - turn the raw files of bench/reclaim.sh (DIR/raw/
# or DIR/raw.tar.xz) into DIR/results.md, and print it: the awk program
# bench/report/reclaim.awk does the work, on the records as
# bench/records.py reads them (bench/report/report.sh).  Needs only bash,
# tar, python3 and a POSIX awk.
#
# Raw files (written by reclaim-guest.sh):
#   RUN.CONFIG.REP.rec   `foliotune record` file: wall time, exit status,
#                        command, knobs, counter deltas
#   RUN.CONFIG.REP.out   the benchmark's own output (reclaim_seconds,
#                        "# orders: ORDER:FOLIOS ..." from -R), and
#                        lru_gen_before/lru_gen_after: lru_gen/enabled
#                        read around the run
#   RUN.trace-CONFIG.REP.bt  bpftrace maps of the trace phase:
#                        @ref_{calls,ns,max_ns}[ORDER] (folio_referenced_one),
#                        @unmap_{calls,ns,max_ns}[ORDER] (try_to_unmap_one)
#   host-meta.txt, guest-meta.txt  "key value" lines
#   note.txt (optional, written by hand): shown at the top of results.md
# RUN: WORKLOAD-MB-LRU (file2m-1024-classic); CONFIG: stock (unmap_batch=0
# referenced_batch=0), unmap (1 0), refs (0 1), both (1 1); REP "warmup"
# runs are ignored.
#
# Verdicts: speedup = median(stock) / median(CONFIG) of reclaim_seconds;
# per-rep = min..max of CONFIG/stock within each rep (the runs of one rep
# are neighbours in time); paired test = foliotune stats on those pairs
# (exact Wilcoxon signed-rank, 95% Hodges-Lehmann; bench/README.md,
# "Statistics"): faster or slower at p < 0.05, else no difference shown.
set -uo pipefail

dir=${1:?usage: reclaim-report.sh RESULTS_DIR}
. "$(dirname "$0")/report/report.sh"
report_raw "$dir"

gate=$(report_gate)

shopt -s nullglob
report_run reclaim "$dir" -v gate="$gate" -- "$raw"/*.out "$raw"/*.bt "$raw"/note.tx[t]
