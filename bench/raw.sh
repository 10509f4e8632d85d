# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the reports (bench/report/report.sh) and plot.sh.  A results
# directory holds its raw files as raw/ (a fresh run) or as raw.tar.xz
# (committed: bench/pack.sh turns raw/ into one archive), and both read
# either.
#
# bench_raw DIR: set BENCH_RAW to DIR/raw, or to DIR/raw.tar.xz unpacked in a
# temporary directory that is removed when the script exits (an EXIT trap:
# the scripts that source this file set none of their own).  Fails (1) when
# DIR has neither.
bench_raw_tmp=""
bench_raw() {
	BENCH_RAW=""
	if [ -d "$1/raw" ]; then
		BENCH_RAW=$1/raw
		return 0
	fi
	[ -f "$1/raw.tar.xz" ] || return 1
	if [ -z "$bench_raw_tmp" ]; then
		bench_raw_tmp=$(mktemp -d) || return 1
		trap 'rm -rf "$bench_raw_tmp"' EXIT
	fi
	local t
	t=$(mktemp -d "$bench_raw_tmp/XXXXXX") || return 1
	tar -xJf "$1/raw.tar.xz" -C "$t" raw || return 1
	BENCH_RAW=$t/raw
}

# bench_ft: set BENCH_FT to the foliotune CLI whose `analyze` command gives
# the reports and plots their medians, spread, outliers and verdicts
# (userspace/util/statistics.c: one home for them): $FOLIOTUNE if set, else
# userspace/foliotune, built (or brought up to date) first.  It runs nothing
# and needs neither the module nor root.  Fails (1) when it cannot be built.
bench_ft() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || return 1
	BENCH_FT=${FOLIOTUNE:-$top/userspace/foliotune}
	if [ -z "${FOLIOTUNE:-}" ]; then
		make -s -C "$top/userspace" > /dev/null || return 1
	fi
	[ -x "$BENCH_FT" ]
}
