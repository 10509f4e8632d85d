#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# all.sh - `make bench`: the unmap, fault-around and reclaim benchmarks as
# one command, then the figures, into one results directory:
#
#   bench/results/<date>-<commit>/
#     README.md            what is where, the exact command
#     unmap/results.md     batched vs stock try_to_unmap_one (bench/report/unmap.py)
#     unmap/raw/           its records, outputs, bpftrace maps, console log
#     faultaround/results.md, faultaround/raw/   (bench/report/faultaround.py)
#     reclaim/results.md, reclaim/raw/   unmap_batch x referenced_batch (bench/report/reclaim.py)
#     plots/*.png *.svg *.dat   (bench/report/plot.py, from the raw/ dirs)
#
# Three test-box boots, one per benchmark script (each sets up its own disk,
# swap and module state and is calibrated on its own; merging them would
# buy a 4 s boot each).  Defaults are the full runs: about 1 h + 12 min under
# TCG on an idle host for the first two; bench/reclaim.sh prints its own
# estimate.
#
# Environment:
#   BENCH_OUT      results directory (default bench/results/<date>-<commit>)
#   BENCH_UNMAP    settings for bench/unmap.sh only, e.g.
#                  "BENCH_REPS=1 BENCH_ONLY=seed,file2m BENCH_SIZE_MB=32"
#   BENCH_FA       settings for bench/faultaround.sh only, e.g.
#                  "BENCH_REPS=1 BENCH_ONLY=seqread BENCH_CONFIGS=stock,fa4k"
#   BENCH_RECLAIM  settings for bench/reclaim.sh only, e.g.
#                  "BENCH_REPS=5 BENCH_WORKLOADS=file2m:1024 BENCH_LRU=classic"
#   BENCH_SKIP     benchmarks not to run: any of "unmap faultaround reclaim"
# Other BENCH_* variables reach both scripts unchanged (BENCH_KERNEL_ARGS,
# BENCH_SCRATCH, ...); BENCH_REPS and BENCH_ONLY mean different things to
# each, so set those through BENCH_UNMAP / BENCH_FA / BENCH_RECLAIM.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 2
[ $# -gt 0 ] && { echo "all.sh takes no arguments (environment only)" >&2; exit 1; }

. "$here/bench-lib.sh"
commit=$(bench_commit)
out=$(bench_results_dir "$commit" "") || exit 2
skip=" ${BENCH_SKIP:-} "

# run NAME SCRIPT SETTINGS: one benchmark script with its own settings
# (word-split on purpose: VAR=VALUE words for env).
run() {
	local name=$1 script=$2 settings=$3 t0 rc
	echo "bench: == $name: $settings $script (results in $out/$name)"
	t0=$(date +%s)
	# shellcheck disable=SC2086
	env BENCH_OUT="$out/$name" $settings "$script"
	rc=$?
	echo "bench: == $name took $(( $(date +%s) - t0 )) s, exit status $rc"
	return "$rc"
}

rc=0 ran=()	# ran: the benchmarks this command ran
case $skip in *" unmap "*) ;; *)
	run unmap bench/unmap.sh "${BENCH_UNMAP:-}" || rc=1; ran+=(unmap) ;;
esac
case $skip in *" faultaround "*) ;; *)
	run faultaround bench/faultaround.sh "${BENCH_FA:-}" || rc=1; ran+=(faultaround) ;;
esac
case $skip in *" reclaim "*) ;; *)
	run reclaim bench/reclaim.sh "${BENCH_RECLAIM:-}" || rc=1; ran+=(reclaim) ;;
esac

echo "bench: == plots"
bench/report/plot.py "$out" || rc=1

{
	echo "# foliotune benchmarks: $(basename "$out")"
	echo
	echo "**Measured in a QEMU TCG guest (software emulation)** unless a results.md says KVM;"
	echo "only ratios within one boot mean anything."
	echo
	case $(basename "$out") in *smoke*) echo "> **SMOKE RUN** (a short run to check the scripts): not a result."; echo ;; esac
	echo "- command: \`$(for v in BENCH_OUT BENCH_UNMAP BENCH_FA BENCH_RECLAIM BENCH_SKIP BENCH_KERNEL_ARGS; do
		[ -n "${!v:-}" ] && printf "%s='%s' " "$v" "${!v}"; done)make bench\` (bench/all.sh)"
	echo "- commit: \`$commit\`, date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	for r in unmap faultaround reclaim; do
		[ -d "$out/$r/raw" ] || [ -f "$out/$r/raw.tar.xz" ] || continue
		echo "- $r: [$r/results.md]($r/results.md), raw records in \`$r/raw/\` (\`$r/raw.tar.xz\` once packed)$(
			[[ " ${ran[*]} " == *" $r "* ]] || echo " (not re-run by this command)")"
	done
	echo
	echo "## Figures"
	echo
	rel=$out; case $out in "$repo"/*) rel=${out#"$repo"/} ;; esac
	echo "Made by \`bench/report/plot.py $rel\` from the raw/ files"
	echo "(each PNG has an SVG and the .dat it plotted next to it)."
	echo
	for p in unmap-time unmap-speedup unmap-batches fa-launch fa-seqread; do
		[ -f "$out/plots/$p.png" ] && echo "![$p](plots/$p.png)" && echo
	done
} > "$out/README.md"
echo "bench: $out/README.md"
echo "bench: to commit it, first bench/pack.sh $out (raw/ -> raw.tar.xz)"
exit "$rc"
