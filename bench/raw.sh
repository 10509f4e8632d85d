# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the report and plot scripts.  A results directory holds its raw
# files as raw/ (a fresh run) or as raw.tar.xz (committed: bench/pack.sh
# turns raw/ into one archive), and both scripts read either.
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
