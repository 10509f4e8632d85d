#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo-guest.sh OUTDIR - the guest half of bench/demo.sh (runs inside the
# test box).  Three results, each through `foliotune ab` (ABBA pairs, the
# knobs set per run, the exact signed-rank test), so that every figure
# shown carries its verdict:
#
#   1. reclaim (the headline): memcg memory.reclaim of 80% of an xfs file
#      mapped by PTE-mapped 2 MiB folios, the reclaim's own time: every arm
#      of RECLAIM_ARMS against the first (stock: both walks one PTE at a
#      time), and the first against itself (A/A: the noise floor);
#   2. Yin Fengwei's MADV_PAGEOUT micro-benchmark (his 2023 batched-unmap
#      series): loops/s, unmap_batch=0 against 1;
#   3. app launch (the 2016 fault-around thread's workload, in a memcg
#      under pressure with zram swap): the average launch time,
#      fault_around_mkold=0 against 2 (old pre-mapped PTEs).
#
# Each prints its arms (settings, the metric's median and range, and the
# module counters that prove the path each arm took: the premise, checked)
# and one line "verdict PART: B vs A: METRIC B/A x (L% CI lo..hi), N pairs,
# p P: VERDICT" (bench/demo-report.py lays them out from foliotune's own
# report).  A step that fails says so ("FAILED: ...") and the script exits
# 1; ab's runs and files stay in OUTDIR.  Every step prints a
# "[demo  SECONDS] ..." line, and ab a line per run with the time left.
#
# Environment: DEMO_PAIRS (6: the fewest pairs the signed-rank test can call
# at p < 0.05, when all agree), DEMO_RECLAIM_MB (192), DEMO_PAGEOUT_SECONDS
# (2), DEMO_APPS (6), DEMO_LIMIT_MB (40: memory.max of the launch memcg),
# DEMO_PARTS ("reclaim pageout launch": a subset runs only those).
set -uo pipefail
out=${1:?usage: demo-guest.sh OUTDIR}
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=SCRIPTDIR/../tests/lib.sh
. "$repo/tests/lib.sh"
# shellcheck source=SCRIPTDIR/bench-lib.sh
. "$repo/bench/bench-lib.sh"
ft=$repo/userspace/foliotune
report=$repo/bench/demo-report.py
pairs=${DEMO_PAIRS:-6}
mb=${DEMO_RECLAIM_MB:-192}
secs=${DEMO_PAGEOUT_SECONDS:-2}
apps=${DEMO_APPS:-6}
limit=${DEMO_LIMIT_MB:-40}
parts=" ${DEMO_PARTS:-reclaim pageout launch} "
t0=$(date +%s)
step() { printf '[demo %4ds] %s\n' $(( $(date +%s) - t0 )) "$*"; }
die() { step "FAILED: $*"; exit 1; }
mkdir -p "$out" || die "mkdir $out"
for p in $parts; do
	case $p in reclaim | pageout | launch) ;; *) die "DEMO_PARTS: '$p' is none of reclaim, pageout, launch" ;; esac
done
rm -f "$out"/*.ab "$out"/*.ab.* "$out"/*.txt

# The reclaim arms, "NAME|KNOB=VALUE ...": each after the first is put to ab
# against the first, the first to an A/A.  On 6.12 the kernel's own code
# (knob value 0) is one PTE at a time: stock against foliotune's batching.
# Linux 7 batches both walks itself: its own code is the anchor, against
# one PTE at a time (2: what upstream's batching buys) and foliotune's.
if ft_linux7; then
	reclaim_arms=(
		"upstream|unmap_batch=0 referenced_batch=0"
		"per-PTE|unmap_batch=2 referenced_batch=2"
		"foliotune|unmap_batch=1 referenced_batch=1"
	)
else
	reclaim_arms=(
		"stock|unmap_batch=0 referenced_batch=0"
		"batched|unmap_batch=1 referenced_batch=1"
	)
fi
# The premise: the counter each knob value must move (demo-report.py
# fails the part when one stays at 0 over the runs of an arm).
path_counter() {
	case $1 in
	unmap_batch=0) if ft_linux7; then echo unmap_kernel_batches; else echo unmap_nobatch_off; fi ;;
	unmap_batch=1) echo unmap_batches ;;
	unmap_batch=2) echo unmap_nobatch_off ;;
	referenced_batch=0)
		if ft_linux7; then echo referenced_kernel_batches; else echo referenced_nobatch_off; fi ;;
	referenced_batch=1) echo referenced_batches ;;
	referenced_batch=2) echo referenced_nobatch_off ;;
	fault_around_mkold=2) echo fa_pages_mapped_old ;;
	esac
}

# ab_part PART NAME_A "SETTINGS_A" NAME_B "SETTINGS_B" AB-OPTIONS... -- CMD...:
# foliotune ab of the two arms (SETTINGS_B empty: an A/A of A), every run
# with reclaim_probes=0 (their kprobes cost time), then the arms' lines
# and the verdict.
ab_part() {
	local part=$1 na=$2 sa=$3 nb=$4 sb=$5 file k c opts=() shown=()
	shift 5
	file=$out/$part-$nb.ab
	[ -z "$sb" ] && file=$out/$part-aa.ab
	for k in $sa; do
		opts+=(-a "$k")
		c=$(path_counter "$k") && [ -n "$c" ] && shown+=("A:$c")
	done
	opts+=(-a reclaim_probes=0)
	if [ -z "$sb" ]; then
		opts+=(--aa)
	else
		for k in $sb; do
			opts+=(-b "$k")
			c=$(path_counter "$k") && [ -n "$c" ] && shown+=("B:$c")
		done
		opts+=(-b reclaim_probes=0)
	fi
	step "$part: foliotune ab, $pairs pairs: $na ($sa) against ${nb:-itself (A/A)}${sb:+ ($sb)}"
	"$ft" ab -o "$file" "${opts[@]}" -n "$pairs" "$@" > "$file.txt" 2> "$file.err"
	local rc=$?
	sed -n 's/^foliotune: \(run [0-9]*\/[0-9]*\)/    \1/p' "$file.err"
	[ "$rc" = 0 ] || die "$part: foliotune ab exited $rc: $(grep -v '^foliotune: run ' "$file.err" | tail -3 | tr '\n' ' ')"
	python3 "$report" "$ft" "$part" "$na" "${nb:-$na}" "$file" "${shown[@]}" > "$file.lines" ||
		die "$part: no report of $file (bench/demo-report.py)"
}

step "guest up: $(uname -r), $(nproc) vCPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB"
step "setup: scratch xfs on /dev/vda, zram swap, foliotune load"
modprobe virtio_blk 2>/dev/null
modprobe xfs || die "modprobe xfs"
loop_until 10 test -b /dev/vda || die "no /dev/vda"
mkdir -p "$FT_XFS" && mount /dev/vda "$FT_XFS" || die "mount /dev/vda"
ft_zram_swap 512M || die "zram swap"
"$ft" load || die "foliotune load"
trap '"$ft" unload > /dev/null 2>&1; ft_zram_swapoff; umount "$FT_XFS" 2>/dev/null' EXIT
lru=$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null)
case $lru in 0x0000 | "") lru=classic ;; *) lru=MGLRU ;; esac
quiesce='sync; echo 3 > /proc/sys/vm/drop_caches'

# ---- 1. reclaim of PTE-mapped 2 MiB file folios ---------------------------
if [[ $parts == *" reclaim "* ]]; then
	# 2 MiB folios (MADV_HUGEPAGE readahead), 2 MiB-aligned and yet
	# PTE-mapped (PR_SET_THP_DISABLE: no PMD mapping): each folio is one run
	# of 512 PTEs; the metric is the memory.reclaim write alone
	rcmd=(perl -e "$BENCH_NOTHP" "$repo/tests/progs/ft_reclaim_bench" -d "$FT_XFS" -s "$mb" -H -U 0 -x 0.8)
	ropts=(-p "$quiesce" -m '^reclaim_seconds ([0-9.]+)' -N reclaim_seconds -t)
	first=${reclaim_arms[0]%%|*} first_set=${reclaim_arms[0]#*|}
	for arm in "${reclaim_arms[@]:1}"; do
		ab_part reclaim "$first" "$first_set" "${arm%%|*}" "${arm#*|}" -w 1 "${ropts[@]}" -- "${rcmd[@]}"
	done
	# the box is warm by now: no warm-up run
	ab_part reclaim "$first" "$first_set" "" "" -w 0 "${ropts[@]}" -- "${rcmd[@]}"
fi

# ---- 2. Yin Fengwei's MADV_PAGEOUT micro-benchmark -------------------------
if [[ $parts == *" pageout "* ]]; then
	pcmd=("$repo/tests/progs/ft_pageout_bench" -d "$FT_XFS" -t "$secs")
	# Linux 7's readahead gives these 2 MiB files order-0 folios in the
	# box (no batch for either arm): 2 MiB folios by MADV_HUGEPAGE, kept
	# PTE-mapped as in part 1
	ft_linux7 && pcmd=(perl -e "$BENCH_NOTHP" "${pcmd[@]}" -H)
	ab_part pageout stock "unmap_batch=0" batched "unmap_batch=1" \
		-w 1 -m '^loops_per_sec ([0-9.]+)' -N loops_per_sec -- "${pcmd[@]}"
fi

# ---- 3. app launch under memory pressure, fault-around ---------------------
if [[ $parts == *" launch "* ]]; then
	adir=$FT_XFS/apps
	step "launch: $apps app files + framework files on xfs (ft_applaunch setup)"
	"$repo/bench/progs/ft_applaunch" setup -d "$adir" -n "$apps" > "$out/launch-setup.txt" 2>&1 ||
		die "ft_applaunch setup: $(tail -1 "$out/launch-setup.txt")"
	ab_part launch stock "fault_around_mkold=0" mkold2 "fault_around_mkold=2" \
		-w 1 -p "sync -f $FT_XFS" -m 'summary .* avg_ms=([0-9.]+)' -N avg_launch_ms -t -- \
		"$repo/bench/progs/ft_applaunch" run -d "$adir" -n "$apps" -r 2 -m "$limit"
fi
step "foliotune unload"
"$ft" unload > /dev/null || die "foliotune unload"
# every comparison made has its verdict line (a part that lost one fails)
want=0
[[ $parts == *" reclaim "* ]] && want=$((want + ${#reclaim_arms[@]}))
[[ $parts == *" pageout "* ]] && want=$((want + 1))
[[ $parts == *" launch "* ]] && want=$((want + 1))
got=$(cat "$out"/*.ab.lines 2> /dev/null | grep -c '^verdict ')
[ "$got" = "$want" ] || die "$got verdict lines, $want comparisons made (see $out)"
trap 'ft_zram_swapoff; umount "$FT_XFS" 2>/dev/null' EXIT

# ---- the tables ------------------------------------------------------------
echo
echo "=== foliotune demo: $(uname -r) in a QEMU TCG guest (software emulation), $(nproc) vCPUs: only ratios within this boot mean anything ==="
echo "    Every figure: foliotune ab, $pairs ABBA pairs after a warm-up run; medians (min..max) per arm; the verdict is"
echo "    the exact Wilcoxon signed-rank test of the pairs with the Hodges-Lehmann interval of B/A (docs/cli.md)."
if [[ $parts == *" reclaim "* ]]; then
	echo
	echo "1. Reclaim of PTE-mapped 2 MiB file folios ($lru): memory.reclaim of 80% of a $mb MiB xfs file mapped by"
	echo "   2 MiB folios, each one run of 512 PTEs; reclaim_seconds is the reclaim alone (lower is better)."
	if ft_linux7; then
		echo "   Linux 7 batches both walks itself (upstream, knobs 0): against one PTE at a time (2) and foliotune's (1)"
		echo "   batching of try_to_unmap_one (unmap_batch) and folio_referenced_one (referenced_batch);"
	else
		echo "   Both walks batched: try_to_unmap_one (unmap_batch) and folio_referenced_one (referenced_batch);"
	fi
	echo "   the counters per run show the path each arm took."
	for arm in "${reclaim_arms[@]:1}"; do
		cat "$out/reclaim-${arm%%|*}.ab.lines"
	done
	cat "$out/reclaim-aa.ab.lines"
fi
if [[ $parts == *" pageout "* ]]; then
	echo
	echo "2. Yin Fengwei's MADV_PAGEOUT micro-benchmark (his 2023 batched-unmap series): 2 MiB xfs files read and paged out"
	echo "   in a loop, loops/s (higher is better), batched try_to_unmap_one alone.  Under TCG that function is about"
	echo "   4% of this loop's time (18% on his IceLake), so a few percent is all it can gain here (bench/README.md)."
	ft_linux7 && echo "   Linux 7: stock batches too; the files are 2 MiB folios, PTE-mapped (its readahead gave order 0 here)."
	cat "$out/pageout-batched.ab.lines"
fi
if [[ $parts == *" launch "* ]]; then
	echo
	echo "3. App launch under memory pressure ($apps apps x 2 rounds in a $limit MiB memcg, zram swap; the 2016 fault-around"
	echo "   thread's workload): the average launch time (lower is better), pre-mapped PTEs young (stock) or old but"
	echo "   the faulting page (fault_around_mkold=2)."
	cat "$out/launch-mkold2.ab.lines"
fi
echo
step "done: ab files, their reports and each run's output in $out"
