#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# faultaround-report.sh DIR - turn the raw files of bench/faultaround.sh
# (DIR/raw/ or DIR/raw.tar.xz) into DIR/results.md, and print it: the awk
# program bench/report/faultaround.awk does the work, on the records as
# bench/records.py reads them (bench/report/report.sh).  Needs only bash,
# tar, python3 and a POSIX awk (mawk is fine).
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
. "$(dirname "$0")/report/report.sh"
report_raw "$dir"
shopt -s nullglob
report_run faultaround "$dir" -- "$raw"/*.out "$raw"/*.auto
