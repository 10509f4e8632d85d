# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the reports, bench/unmap-report.sh, faultaround-report.sh and
# reclaim-report.sh, which differ only in their awk program and in the
# files of a run it reads.
#
# report_raw DIR: set raw to DIR's raw files (bench/raw.sh: raw/ or
# raw.tar.xz) and BENCH_FT to the foliotune CLI whose `stats` command gives
# the medians, spread, outliers and verdicts; exit 2 when either is missing.
#
# report_run NAME DIR [AWK_OPTION...] -- FILE...: write DIR/results.md and
# print it: bench/report/NAME.awk, after stats.awk and runs.awk, reads the
# metadata, the .rec files as bench/records.py reads them (a stream on
# stdin, "-", read where the .rec files were) and FILE...; exit 2 when
# there is no run or the program fails.
. "$(dirname "${BASH_SOURCE[0]}")/../raw.sh"
report_me=$(basename "$0")

report_raw() {
	bench_raw "$1" || { echo "$report_me: no $1/raw or $1/raw.tar.xz" >&2; exit 2; }
	raw=$BENCH_RAW
	bench_ft || { echo "$report_me: cannot build userspace/foliotune (its stats command)" >&2; exit 2; }
}

# report_gate: the first kernel error line of $raw/console.log (its
# timestamp and the characters that break a Markdown table cut), or nothing
report_gate() {
	[ -r "$raw/console.log" ] || return 0
	grep -m1 -E 'BUG:|WARNING:|Oops|Bad page|lockup|rcu_.*stall|general protection' "$raw/console.log" |
		sed 's/^\[ *[0-9.]*\] //' | tr -d '`|'
}

report_run() {
	local name=$1 dir=$2 here sttmp opts=() recs
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	recs=("$raw"/*.rec)
	[ -e "${recs[0]:-}" ] || [ $# -gt 0 ] || { echo "$report_me: no runs in $raw" >&2; exit 2; }
	here=$(dirname "${BASH_SOURCE[0]}")
	sttmp=$(mktemp) || exit 2
	python3 "$here/../records.py" "$raw" |
		LC_ALL=C awk -v ft="$BENCH_FT" -v sttmp="$sttmp" "${opts[@]}" \
		-f "$here/stats.awk" -f "$here/runs.awk" -f "$here/$name.awk" \
		"$raw"/host-meta.txt "$raw"/guest-meta.txt - "$@" > "$dir/results.md.tmp" || { rm -f "$sttmp" "$dir/results.md.tmp"; exit 2; }
	rm -f "$sttmp"
	mv "$dir/results.md.tmp" "$dir/results.md"
	cat "$dir/results.md"
}
