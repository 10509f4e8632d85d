#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# box.sh - make bench-box: the benchmarks of make bench-unmap, make
# bench-faultaround and make bench-reclaim on this machine, with the same
# guest scripts, settings (BENCH_*, see bench/unmap.sh, faultaround.sh and
# reclaim.sh) and reports:
# bench/results/<date>-<commit>-box[-faultaround|-reclaim]/results.md (+ raw/),
# labelled with this machine's CPU model.  The box itself (preflight, setup,
# teardown) is the harness's, shared with make check-box.  Settings:
# harness/own-box/box-lib.sh, and
#   FT_BOX_BENCH   benchmarks to run (default "unmap faultaround reclaim")
#   BENCH_OUT      results directory (one benchmark only)
set -u
. "$(dirname "$0")/../harness/own-box/box-lib.sh"
box_preflight bench
cd "$FT_BOX_REPO" || exit 2
. "$FT_BOX_REPO/bench/bench-lib.sh"
benches=${FT_BOX_BENCH:-unmap faultaround reclaim}

commit=$(bench_commit)

# host_meta: what bench/*.sh write on the host, for this machine.
host_meta() {
	echo "command $(for v in FT_BOX_BENCH FT_BOX_ZRAM BENCH_REPS BENCH_SECONDS BENCH_SIZE_MB BENCH_ONLY \
		BENCH_OVERHEAD BENCH_TRACE_REPS BENCH_WARMUP BENCH_CONFIGS BENCH_WORKLOADS BENCH_LRU \
		BENCH_TRACE_WORKLOADS BENCH_LOOK_REPS; do
		[ -n "${!v+x}" ] && printf '%s=%q ' "$v" "${!v}"; done)FT_TEST_BOX=1 make bench-box"
	bench_host_meta "$commit" box "$(nproc)"
}

trap box_teardown EXIT
trap 'exit 130' INT TERM
rc=0
for b in $benches; do
	case $b in
	unmap)		out=$(bench_results_dir "$commit" -box) guest=bench/unmap-guest.sh report=bench/report/unmap.py ;;
	faultaround)	out=$(bench_results_dir "$commit" -box-faultaround) guest=bench/faultaround-guest.sh
			report=bench/report/faultaround.py ;;
	reclaim)	out=$(bench_results_dir "$commit" -box-reclaim) guest=bench/reclaim-guest.sh
			report=bench/report/reclaim.py ;;
	*)		echo "bench-box: unknown benchmark $b (unmap, faultaround, reclaim)" >&2; rc=2; continue ;;
	esac
	[ -n "$out" ] && mkdir -p "$out/raw" || exit 2
	host_meta > "$out/raw/host-meta.txt"
	# plot.py draws no unmap figures from a reclaim session
	[ "$b" = reclaim ] && echo "benchmark reclaim" >> "$out/raw/host-meta.txt"
	box_setup > "$out/raw/setup.out" 2>&1 || { cat "$out/raw/setup.out" >&2; exit 2; }
	echo "bench-box: $b: results in $out"
	t0=$(date +%s)
	bash "$guest" "$out"
	grc=$?
	box_teardown
	box_dmesg "$out/raw/console.log"
	# the console gate's verdict takes the place of the test box's exit 252
	harness/vm/console-gate.sh "$out/raw/console.log" || grc=252
	{
		echo "vmrun_exit $grc"
		echo "host_seconds $(( $(date +%s) - t0 ))"
		echo "host_loadavg_after $(cut -d' ' -f1-3 /proc/loadavg)"
	} >> "$out/raw/host-meta.txt"
	if ! "$report" "$out" > /dev/null && [ "$grc" = 0 ]; then
		grc=2
	fi
	echo "bench-box: $out/results.md"
	[ "$grc" = 0 ] || rc=$grc
done
exit "$rc"
