#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo-guest.sh OUTDIR - the guest half of bench/demo.sh (runs inside the
# test box, started by vmrun.sh -s).  Every step prints one "[demo] ..."
# line with the seconds since the guest started, so a person watching the
# terminal knows what the emulated machine is doing.
#
#   1. scratch xfs, zram swap, foliotune load
#   2. Yin Fengwei's 2023 MADV_PAGEOUT micro-benchmark,
#      unmap_batch=0 (stock algorithm) and =1 (batched), alternating,
#      DEMO_REPS runs of DEMO_SECONDS each, every run `foliotune record`ed
#   3. a short app-launch run (ft_applaunch, the 2016 fault-around thread's
#      workload, in a memcg under pressure with zram swap) for stock 64K,
#      fault_around_mkold=2, 4K and the auto mode
#   4. the tables: loops/s per rep with ratios, `foliotune compare` of the
#      counters, launch latency per configuration
# Environment: DEMO_REPS (6: the fewest pairs a paired test can call at
# p < 0.05, when all six agree), DEMO_SECONDS (5), DEMO_APPS (8),
# DEMO_LIMIT_MB (40: memory.max of the launch memcg), DEMO_FA (1; 0 skips
# step 3).
set -uo pipefail
out=${1:?usage: demo-guest.sh OUTDIR}
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/tests/lib.sh"
ft=$repo/userspace/foliotune
reps=${DEMO_REPS:-6}
secs=${DEMO_SECONDS:-5}
apps=${DEMO_APPS:-8}
limit=${DEMO_LIMIT_MB:-40}	# 8 apps x (3 MiB heap + file working set) is ~50 MiB
t0=$(date +%s)
step() { printf '[demo %4ds] %s\n' $(( $(date +%s) - t0 )) "$*"; }
die() { step "FAILED: $*"; exit 1; }
mkdir -p "$out" || die "mkdir $out"

step "guest up: $(uname -r), $(nproc) vCPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB"
step "setup: scratch xfs on /dev/vda, zram swap, foliotune load"
modprobe virtio_blk 2>/dev/null
modprobe xfs || die "modprobe xfs"
loop_until 10 test -b /dev/vda || die "no /dev/vda"
mkdir -p "$FT_XFS" && mount /dev/vda "$FT_XFS" || die "mount /dev/vda"
ft_zram_swap 512M || die "zram swap"
"$ft" load || die "foliotune load"
"$ft" status | grep -E '^ *(kernel release|module|livepatch):|patched$' | sed 's/^ */    /'
trap '"$ft" unload > /dev/null 2>&1; ft_zram_swapoff; umount "$FT_XFS" 2>/dev/null' EXIT

# ---- unmap: the MADV_PAGEOUT micro-benchmark, stock and batched in turn --
for i in $(seq "$reps"); do
	for mode in 0 1; do
		label=stock; [ "$mode" = 1 ] && label=batched
		step "unmap $i/$reps $label: ft_pageout_bench -t $secs, unmap_batch=$mode (MADV_PAGEOUT of 2 MiB xfs files, loop)"
		"$ft" record -o "$out/$label-$i.rec" -l "$label" -s unmap_batch=$mode -- \
			"$repo/tests/progs/ft_pageout_bench" -d "$FT_XFS" -t "$secs" > "$out/$label-$i.out" 2>&1 ||
			die "$label run $i: $(tail -2 "$out/$label-$i.out" | tr '\n' ' ')"
		step "    loops/s $(awk '/^loops_per_sec/ { print $2 }' "$out/$label-$i.out")"
	done
done

# ---- fault-around: a short app-launch run per configuration ---------------
fa_configs=()
if [ "${DEMO_FA:-1}" = 1 ]; then
	adir=$FT_XFS/apps
	step "fault-around setup: $apps app files + framework files on xfs (ft_applaunch setup)"
	"$repo/bench/progs/ft_applaunch" setup -d "$adir" -n "$apps" > "$out/fa-setup.out" 2>&1 ||
		die "ft_applaunch setup: $(tail -1 "$out/fa-setup.out")"
	# name|knob settings for `foliotune record -s`
	fa_configs=("stock|-s fault_around_bytes=64K -s fault_around_mkold=0"
		"mkold2|-s fault_around_bytes=64K -s fault_around_mkold=2"
		"fa4k|-s fault_around_bytes=4K -s fault_around_mkold=0"
		"auto|-s fault_around_bytes=64K -s fault_around_mkold=0 -s fault_around_auto=1")
	for c in "${fa_configs[@]}"; do
		name=${c%%|*}; sets=${c#*|}
		step "fault-around $name ($sets): ft_applaunch run, $apps apps x 2 rounds in a ${limit} MiB memcg"
		sync -f "$FT_XFS"
		# shellcheck disable=SC2086
		"$ft" record -o "$out/fa-$name.rec" -l "fa-$name" $sets -- \
			"$repo/bench/progs/ft_applaunch" run -d "$adir" -n "$apps" -r 2 -m "$limit" > "$out/fa-$name.out" 2>&1 ||
			die "ft_applaunch $name: $(tail -2 "$out/fa-$name.out" | tr '\n' ' ')"
		step "    $(awk '/^summary/ { for (i = 2; i <= 4; i++) printf "%s ", $i }' "$out/fa-$name.out")"
	done
	"$ft" set fault_around_bytes 64K > /dev/null; "$ft" set fault_around_mkold 0 > /dev/null
fi
step "foliotune unload"
"$ft" unload || die "foliotune unload"
trap 'ft_zram_swapoff; umount "$FT_XFS" 2>/dev/null' EXIT

# ---- the headline tables --------------------------------------------------
echo
echo "=== foliotune demo: QEMU TCG guest (software emulation): only ratios mean anything ==="
echo
echo "Batched try_to_unmap_one, Yin Fengwei's MADV_PAGEOUT micro-benchmark, loops/s (higher is better):"
printf '    %-6s %12s %12s %9s\n' rep stock batched batched/stock
for i in $(seq "$reps"); do
	s=$(awk '/^loops_per_sec/ { print $2 }' "$out/stock-$i.out")
	b=$(awk '/^loops_per_sec/ { print $2 }' "$out/batched-$i.out")
	printf '    %-6s %12s %12s %9s\n' "$i" "$s" "$b" "$(awk -v s="$s" -v b="$b" 'BEGIN { printf "%.3f", (s > 0 ? b / s : 0) }')"
done
# min, median, max and the paired verdict: foliotune stats (userspace/stats.c)
for i in $(seq "$reps"); do
	s=$(awk '/^loops_per_sec/ { print $2 }' "$out/stock-$i.out")
	b=$(awk '/^loops_per_sec/ { print $2 }' "$out/batched-$i.out")
	[ -n "$s" ] && echo "stock $s"
	[ -n "$b" ] && echo "batched $b"
	[ -n "$s" ] && [ -n "$b" ] && echo "pairs $s $b"
done | "$ft" stats | awk -F '\t' '$1 ~ /^#/ { next }
	$2 == "samples" { printf "    %-8s min %s  median %s  max %s\n", $1, $7, $4, $8 }
	$2 == "pairs" { t = $12; sub(/^B /, "batched ", t); printf "    paired: batched/stock %.3f (%s pairs, p %s): %s\n", $7, $3, $10, t }'
echo
echo "foliotune compare stock-1 batched-1 (unmap counters and reclaim; all of them: foliotune compare build/demo/stock-1.rec build/demo/batched-1.rec):"
"$ft" compare --only '^(wall_seconds|unmap_|pgpgoutclean|workingset_refault_file)' "$out/stock-1.rec" "$out/batched-1.rec" |
	sed 's/^/    /'
if [ ${#fa_configs[@]} -gt 0 ]; then
	echo
	echo "Fault-around, app launch ($apps apps, 2 rounds, memcg under pressure, zram swap), one run each:"
	printf '    %-7s %14s %14s %9s %9s %16s %16s\n' config "avg launch ms" "max launch ms" majflt minflt fa_pages_mapped "of them old"
	for c in "${fa_configs[@]}"; do
		name=${c%%|*}
		python3 "$repo/bench/records.py" "$out/fa-$name.rec" | awk -v n="$name" '
			function kv(k,   i, a) { for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return "-" }
			FILENAME == "-" { split($0, f, "\t")
				if (f[2] == "counter" && f[4] == "fa_pages_mapped") pm = f[5]
				if (f[2] == "counter" && f[4] == "fa_pages_mapped_old") po = f[5]
				next }
			/^summary/ { avg = kv("avg_ms"); max = kv("max_ms"); maj = kv("majflt"); mi = kv("minflt") }
			END { printf "    %-7s %14s %14s %9s %9s %16s %16s\n", n, avg, max, maj, mi, pm, po }
			' - "$out/fa-$name.out"
	done
	echo "    (stock: 64K window, pre-mapped PTEs young; mkold2: 64K, only the faulting PTE young; fa4k: no fault-around;"
	echo "     auto: fault_around_auto=1 from 64K, 1 s period)"
fi
echo
step "done: records and outputs in $out"
