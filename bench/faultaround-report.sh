#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# faultaround-report.sh DIR - turn the raw files of bench/faultaround.sh
# (DIR/raw/ or DIR/raw.tar.xz) into DIR/results.md, and print it: the awk
# program bench/report/faultaround.awk does the work, on the records as
# bench/records.py reads them.  Needs only bash, tar, python3 and a POSIX awk
# (mawk is fine).
#
# Raw files (written by faultaround-guest.sh):
#   SCEN.CONFIG.REP.rec   `foliotune record` file: knobs, wall time, exit
#                         status, command, foliotune + /proc/vmstat deltas
#   SCEN.CONFIG.REP.out   the program's output: ft_applaunch "round" and
#                         "summary" lines, ft_seqread "read" lines, ft_spawn
#                         "spawns" and "failed" lines
#   SCEN.auto.REP.auto    fault_around_bytes sampled every second (auto runs)
#   host-meta.txt, guest-meta.txt   "key value" lines
# REP "warmup" runs are ignored.
#
# Figures per scenario and configuration are over the reps: min / median /
# max of each run's value; "vs stock" = median(config) / median(stock).
# The counter tables (the 2016 thread's table) show the median delta over
# the reps of each counter.  A difference is only called one when
# foliotune stats shows it on the runs paired by rep (each rep runs every
# configuration once); otherwise the tables say why not, and with fewer
# than 6 reps that no difference can be shown at p < 0.05 at all
# (bench/README.md, "Statistics").
set -uo pipefail

dir=${1:?usage: faultaround-report.sh RESULTS_DIR}
. "$(dirname "$0")/raw.sh"
bench_raw "$dir" || { echo "faultaround-report.sh: no $dir/raw or $dir/raw.tar.xz" >&2; exit 2; }
raw=$BENCH_RAW
# medians, spread, outliers and verdicts: foliotune stats (bench/report/stats.awk)
bench_ft || { echo "faultaround-report.sh: cannot build userspace/foliotune (its stats command)" >&2; exit 2; }
sttmp=$(mktemp) || exit 2

shopt -s nullglob
recs=("$raw"/*.rec)
runs=("$raw"/*.out "$raw"/*.auto)
[ $((${#recs[@]} + ${#runs[@]})) -gt 0 ] || { echo "faultaround-report.sh: no runs in $raw" >&2; exit 2; }

# The records come from bench/records.py, the one reader of .rec files
# outside C, as a stream on stdin ("-") read where the .rec files were.
report=$(dirname "$0")/report
python3 "$(dirname "$0")/records.py" "$raw" |
	LC_ALL=C awk -v ft="$BENCH_FT" -v sttmp="$sttmp" -f "$report/stats.awk" -f "$report/runs.awk" -f "$report/faultaround.awk" \
	"$raw"/host-meta.txt "$raw"/guest-meta.txt - "${runs[@]}" > "$dir/results.md.tmp" || { rm -f "$sttmp"; exit 2; }
rm -f "$sttmp"
mv "$dir/results.md.tmp" "$dir/results.md"
cat "$dir/results.md"
