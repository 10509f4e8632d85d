#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# faultaround-guest.sh OUTDIR [BENCH_VAR=VALUE]... - the fault-around
# benchmarks, inside the test box.
#
# Started by bench/faultaround.sh (one boot, vmrun.sh -s); the host
# passes its BENCH_* settings as VAR=VALUE arguments.  Writes raw files
# only, into OUTDIR/raw/ (bench/report/faultaround.py makes
# OUTDIR/results.md from them).
#
# Setup: scratch xfs on /dev/vda (FT_SCRATCH_DEV) at /mnt/ft-xfs, zram swap, foliotune
# loaded, every fault-around knob and counter present (else it stops with a
# "fatal" line naming the missing one), the app files and the seqread file
# created once.  Then, for rep = 1..BENCH_REPS, every scenario, every
# configuration (the order of the configurations rotates by one each rep,
# so drift and position favour none), one recorded run:
#
#   foliotune record -l SCEN.CONFIG -s KNOB=VALUE... -o raw/SCEN.CONFIG.REP.rec -- CMD
#
# (knob values, foliotune counter and /proc/vmstat deltas, wall time; the
# program's own output in raw/SCEN.CONFIG.REP.out).
#
# Scenarios:
#   launch-zram           ft_applaunch run, zram swap on, MGLRU on (default)
#   launch-noswap         ft_applaunch run, no swap, MGLRU on
#   launch-zram-classic   as launch-zram, /sys/kernel/mm/lru_gen/enabled = 0
#   launch-noswap-classic as launch-noswap, lru_gen off
#   seqread               ft_seqread (no memory pressure), MGLRU on, zram on
#   spawn                 ft_spawn: fork+exec of /bin/true and short shell
#                         scripts (unixbench's execl and shell pattern: the
#                         cost side of old pre-mapped PTEs), no pressure
# Configurations (knobs set for the run; all others at their defaults):
#   stock   fault_around_bytes=64K fault_around_mkold=0 fault_around_auto=0
#   fa4k    fault_around_bytes=4K  (fault-around off)
#   mkold1  64K, fault_around_mkold=1 (pre-mapped PTEs old but the faulting run)
#   mkold2  64K, fault_around_mkold=2 (only the faulting PTE young)
#   auto    fault_around_auto=1, fault_around_auto_max_bytes=BENCH_AUTO_MAX
#   auto200 as auto, fault_around_auto_period_ms=200
#   autoage as auto, fault_around_auto_age=1 (the tuner decides the age too)
#
# Settings (arguments or environment):
#   BENCH_REPS (8)  BENCH_ONLY (all: applaunch seqread; or scenario names)
#   BENCH_CONFIGS ("stock fa4k mkold1 mkold2 auto auto200 autoage")  BENCH_WARMUP (1)
#   BENCH_APPS (10) BENCH_APP_MB (6) BENCH_FW_MB (24) BENCH_ANON_MB (3)
#   BENCH_LIMIT_MB (48) BENCH_ROUNDS (2) BENCH_LAUNCH_ARGS ("")
#   BENCH_ZRAM_MB (512) BENCH_SEQ_MB (128)
#   BENCH_SEQ_PATTERNS (seq,stride2,stride4,stride16,rand) BENCH_SEQ_PASSES (3)
#   BENCH_SEQ_SECONDS (10: each pattern repeats its passes this long)
#   BENCH_AUTO_MAX (64K)  BENCH_SPAWN_SECONDS (10)
set -uo pipefail

out=${1:?usage: faultaround-guest.sh OUTDIR [VAR=VALUE]...}
shift
for kv in "$@"; do
	case $kv in
	BENCH_[A-Z0-9_]*=*) export "${kv%%=*}=${kv#*=}" ;;
	*) echo "faultaround-guest.sh: bad argument '$kv' (want BENCH_VAR=VALUE)" >&2; exit 1 ;;
	esac
done
repo=${FT_REPO:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=bench-lib.sh
. "$repo/bench/bench-lib.sh"
bench_guest_init "$out"

REPS=${BENCH_REPS:-8}
ALL_SCEN="launch-zram launch-noswap launch-zram-classic launch-noswap-classic seqread spawn"
ONLY=" $(echo "${BENCH_ONLY:-all}" | tr ',' ' ') "
CONFIGS=$(echo "${BENCH_CONFIGS:-stock fa4k mkold1 mkold2 auto auto200 autoage}" | tr ',' ' ')
WARMUP=${BENCH_WARMUP:-1}
APPS=${BENCH_APPS:-10}
APP_MB=${BENCH_APP_MB:-6}
FW_MB=${BENCH_FW_MB:-24}
ANON_MB=${BENCH_ANON_MB:-3}
LIMIT_MB=${BENCH_LIMIT_MB:-48}
ROUNDS=${BENCH_ROUNDS:-2}
LAUNCH_ARGS=${BENCH_LAUNCH_ARGS:-}
ZRAM_MB=${BENCH_ZRAM_MB:-512}
SEQ_MB=${BENCH_SEQ_MB:-128}
SEQ_PATTERNS=${BENCH_SEQ_PATTERNS:-seq,stride2,stride4,stride16,rand}
SEQ_PASSES=${BENCH_SEQ_PASSES:-3}
SEQ_SECONDS=${BENCH_SEQ_SECONDS:-10}
AUTO_MAX=${BENCH_AUTO_MAX:-64K}
SPAWN_SECONDS=${BENCH_SPAWN_SECONDS:-10}

FT=$repo/userspace/foliotune
AL=$repo/bench/progs/ft_applaunch
SR=$repo/tests/progs/ft_seqread
SP=$repo/tests/progs/ft_spawn
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
ADIR=$FT_XFS/applaunch
KNOBS="fault_around_bytes fault_around_mkold fault_around_auto fault_around_auto_max_bytes"
COUNTERS="fa_events fa_pages_mapped fa_pages_mapped_old fa_unmap_old_ptes fa_unmap_young_ptes
	pgpgoutclean pageref_activate pageref_activate_vm_exec pageref_keep"

say() { echo "bench: $*"; [ -w /dev/kmsg ] && echo "foliotune-bench: $*" > /dev/kmsg; return 0; }
die() { say "FATAL: $*"; echo "fatal $*" >> "$raw/guest-meta.txt"; exit 2; }
want() {
	case $ONLY in *" all "* | *" $1 "*) return 0 ;; esac
	case $1 in launch-*) case $ONLY in *" applaunch "*) return 0 ;; esac ;; esac
	return 1
}

for t in $ONLY; do
	case " all applaunch $ALL_SCEN " in *" $t "*) ;; *) die "BENCH_ONLY: unknown '$t' (all applaunch $ALL_SCEN)" ;; esac
done
for c in $CONFIGS; do
	case $c in stock | fa4k | mkold1 | mkold2 | auto | auto200 | autoage) ;; *) die "BENCH_CONFIGS: unknown '$c' (stock fa4k mkold1 mkold2 auto auto200 autoage)" ;; esac
done
for f in "$FT" "$AL" "$SR" "$SP"; do
	[ -x "$f" ] || die "$f missing: run make progs on the host"
done
[ -r "$FT_KO" ] || die "$FT_KO missing: run make on the host"

# ---- setup -------------------------------------------------------------
[ "$FT_SCRATCH_DEV" = /dev/vda ] && modprobe virtio_blk 2>/dev/null
modprobe xfs || die "modprobe xfs"
loop_until 10 test -b "$FT_SCRATCH_DEV" || die "no $FT_SCRATCH_DEV (scratch xfs image)"
mkdir -p "$FT_XFS"
mount "$FT_SCRATCH_DEV" "$FT_XFS" || die "mount $FT_SCRATCH_DEV $FT_XFS"
ft_zram_swap "${ZRAM_MB}M" || die "zram swap"
ft_unload
ft_load || die "ft_load (insmod $FT_KO)"
[ -r "$FT_DEBUGFS/vmstat" ] || die "no $FT_DEBUGFS/vmstat"
for k in $KNOBS; do
	[ -e "$FT_DEBUGFS/$k" ] ||
		die "knob $FT_DEBUGFS/$k missing: this foliotune.ko has no fault-around tuning (build the module with module/faultaround.c)"
done
for c in $COUNTERS; do
	grep -q "^$c " "$FT_DEBUGFS/vmstat" || die "counter $c missing from $FT_DEBUGFS/vmstat"
done
case " $CONFIGS " in *" autoage "*)
	[ -e "$FT_DEBUGFS/fault_around_auto_age" ] || die "knob fault_around_auto_age missing: this foliotune.ko is older" ;;
esac
if want launch-zram-classic || want launch-noswap-classic; then
	[ -w "$LRU_GEN" ] || die "$LRU_GEN missing: no MGLRU in this kernel, cannot compare"
fi
lru_gen_orig=$(cat "$LRU_GEN" 2>/dev/null || echo -)

teardown() {
	[ "$lru_gen_orig" != - ] && echo "$lru_gen_orig" > "$LRU_GEN"
	ft_unload || say "ft_unload failed"
	ft_zram_swapoff
	umount "$FT_XFS" 2>/dev/null
}
trap teardown EXIT

launch_cmd=("$AL" run -d "$ADIR" -n "$APPS" -f "$APP_MB" -F "$FW_MB" -a "$ANON_MB"
	-m "$LIMIT_MB" -r "$ROUNDS")
# shellcheck disable=SC2206
[ -n "$LAUNCH_ARGS" ] && launch_cmd+=($LAUNCH_ARGS)
seq_cmd=("$SR" -d "$FT_XFS" -s "$SEQ_MB" -p "$SEQ_PATTERNS" -n "$SEQ_PASSES" -t "$SEQ_SECONDS")
spawn_cmd=("$SP" -t "$SPAWN_SECONDS" -m both)

t_setup=$(date +%s)
if want launch-zram || want launch-noswap || want launch-zram-classic || want launch-noswap-classic; then
	"$AL" setup -d "$ADIR" -n "$APPS" -f "$APP_MB" -F "$FW_MB" > "$raw/setup-applaunch.out" 2>&1 ||
		die "ft_applaunch setup: $(tail -1 "$raw/setup-applaunch.out")"
fi
if want seqread; then
	"$SR" -d "$FT_XFS" -s "$SEQ_MB" -S > "$raw/setup-seqread.out" 2>&1 ||
		die "ft_seqread setup: $(tail -1 "$raw/setup-seqread.out")"
fi

{
	bench_guest_meta
	echo "reps $REPS"
	echo "warmup $WARMUP"
	echo "only $ONLY"
	echo "configs $CONFIGS"
	echo "apps $APPS"
	echo "app_mb $APP_MB"
	echo "fw_mb $FW_MB"
	echo "anon_mb $ANON_MB"
	echo "limit_mb $LIMIT_MB"
	echo "rounds $ROUNDS"
	echo "launch_args $LAUNCH_ARGS"
	echo "zram_mb $ZRAM_MB"
	echo "seq_mb $SEQ_MB"
	echo "seq_patterns $SEQ_PATTERNS"
	echo "seq_passes $SEQ_PASSES"
	echo "seq_seconds $SEQ_SECONDS"
	echo "auto_max $AUTO_MAX"
	echo "spawn_seconds $SPAWN_SECONDS"
	echo "spawn_cmd ${spawn_cmd[*]}"
	echo "launch_cmd ${launch_cmd[*]}"
	echo "seq_cmd ${seq_cmd[*]}"
	echo "read_ahead_kb $(cat "$FT_RA")"
	echo "thp_enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	echo "lru_gen $lru_gen_orig"
	echo "kernel_fault_around_bytes $(cat /sys/kernel/debug/fault_around_bytes 2>/dev/null || echo -)"
	echo "swap $(awk 'NR > 1 { print $1, $3 "kB" }' /proc/swaps | tr '\n' ' ')"
	echo "module_build $(tr '\n' ' ' < "$FT_DEBUGFS/build")"
	for k in $KNOBS fault_around_auto_period_ms; do
		[ -r "$FT_DEBUGFS/$k" ] && echo "knob_default_$k $(cat "$FT_DEBUGFS/$k")"
	done
	echo "setup_seconds $(( $(date +%s) - t_setup ))"
} > "$raw/guest-meta.txt"

# ---- configurations and scenarios ---------------------------------------
# config_sets CONFIG: the foliotune record -s arguments, in SETS.
config_sets() {
	case $1 in
	stock)  SETS=(-s fault_around_auto=0 -s fault_around_bytes=64K -s fault_around_mkold=0) ;;
	fa4k)   SETS=(-s fault_around_auto=0 -s fault_around_bytes=4K -s fault_around_mkold=0) ;;
	mkold1) SETS=(-s fault_around_auto=0 -s fault_around_bytes=64K -s fault_around_mkold=1) ;;
	mkold2) SETS=(-s fault_around_auto=0 -s fault_around_bytes=64K -s fault_around_mkold=2) ;;
	auto)   SETS=(-s fault_around_bytes=64K -s fault_around_mkold=0 -s fault_around_auto_period_ms=1000
		  -s "fault_around_auto_max_bytes=$AUTO_MAX" -s fault_around_auto=1) ;;
	# the same tuner with a 200 ms period: the launch runs last 3-4 s, in
	# which the default 1 s period allows only a few steps from 64K.
	auto200) SETS=(-s fault_around_bytes=64K -s fault_around_mkold=0 -s fault_around_auto_period_ms=200
		  -s "fault_around_auto_max_bytes=$AUTO_MAX" -s fault_around_auto=1) ;;
	# mkold is written before the age knob: writing it turns the age off
	autoage) SETS=(-s fault_around_bytes=64K -s fault_around_mkold=0 -s fault_around_auto_period_ms=1000
		  -s "fault_around_auto_max_bytes=$AUTO_MAX" -s fault_around_auto_age=1 -s fault_around_auto=1) ;;
	*) return 1 ;;
	esac
}

swap_on() {
	grep -q '^/dev/zram0 ' /proc/swaps || swapon /dev/zram0 || die "swapon /dev/zram0"
}
swap_off() {
	grep -q '^/dev/zram0 ' /proc/swaps || return 0
	swapoff /dev/zram0 || die "swapoff /dev/zram0"
}
# lru_set VALUE: write lru_gen/enabled only when it changes (a write costs
# about 0.5 s under TCG even with the same value).
lru_set() {
	[ "$lru_gen_orig" = - ] && return 0
	[ "$(cat "$LRU_GEN")" = "$(printf '0x%04x' "$1")" ] && return 0
	echo "$1" > "$LRU_GEN" || die "write $1 to $LRU_GEN"
}

# scenario SCEN: set swap and MGLRU, CMD = the command.
scenario() {
	case $1 in
	launch-zram)           swap_on;  lru_set "$lru_gen_orig"; CMD=("${launch_cmd[@]}") ;;
	launch-noswap)         swap_off; lru_set "$lru_gen_orig"; CMD=("${launch_cmd[@]}") ;;
	launch-zram-classic)   swap_on;  lru_set 0;               CMD=("${launch_cmd[@]}") ;;
	launch-noswap-classic) swap_off; lru_set 0;               CMD=("${launch_cmd[@]}") ;;
	seqread)               swap_on;  lru_set "$lru_gen_orig"; CMD=("${seq_cmd[@]}") ;;
	spawn)                 swap_on;  lru_set "$lru_gen_orig"; CMD=("${spawn_cmd[@]}") ;;
	*) return 1 ;;
	esac
}

# quiesce: the same starting state for every run.  The programs drop their
# own files from the page cache (ft_applaunch: POSIX_FADV_DONTNEED on every
# app file) or read them in anyway (ft_seqread); a global drop_caches would
# also drop the 9p cache of the binaries and costs about 1 s under TCG, as
# does a global sync (the 9p share): sync the scratch xfs only.
quiesce() {
	sync -f "$FT_XFS"
	echo 1 > /proc/sys/vm/compact_memory 2>/dev/null
	sleep 0.5
}

# sampler FILE: the window every second while the auto tuner runs.
sampler() {
	local t=0 v
	while :; do
		read -r v < "$FT_DEBUGFS/fault_around_bytes" && echo "$t $v"
		sleep 1
		t=$((t + 1))
	done > "$1"
}

# run_one SCEN CONFIG TAG: one recorded run.
run_one() {
	local scen=$1 config=$2 tag=$3 base rc spid=""
	scenario "$scen" || die "unknown scenario $scen"
	config_sets "$config" || die "unknown configuration $config"
	base=$raw/$scen.$config.$tag
	rm -f "$base.rec" "$base.out" "$base.auto"
	quiesce
	say "$scen $config $tag"
	if [ "${config#auto}" != "$config" ]; then
		sampler "$base.auto" &
		spid=$!
	fi
	"$FT" record -l "$scen.$config" -o "$base.rec" "${SETS[@]}" -- "${CMD[@]}" > "$base.out" 2>&1
	rc=$?
	if [ -n "$spid" ]; then
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		cp "$FT_DEBUGFS/fault_around_auto_state" "$base.autostate" 2>/dev/null
	fi
	[ "$rc" = 0 ] || say "$scen $config $tag: foliotune record exit $rc"
	grep -E '^(error|round |summary|total |spawns )' "$base.out" | sed 's/^/    /' | cut -c1-200
}

scens=()
for s in $ALL_SCEN; do
	want "$s" && scens+=("$s")
done
[ ${#scens[@]} -gt 0 ] || die "nothing to run (BENCH_ONLY='$ONLY')"
read -r -a confs <<< "$CONFIGS"
nc=${#confs[@]}
t_start=$(date +%s)

# warm-up: one unrecorded stock run of the first launch scenario and of seqread
if [ "$WARMUP" = 1 ]; then
	wl=""
	for s in "${scens[@]}"; do
		case $s in
		launch-*) [ -z "$wl" ] && { wl=$s; run_one "$s" stock warmup; } ;;
		seqread | spawn) run_one "$s" stock warmup ;;
		esac
	done
fi

for rep in $(seq 1 "$REPS"); do
	for s in "${scens[@]}"; do
		for i in $(seq 0 $((nc - 1))); do
			run_one "$s" "${confs[$(( (i + rep - 1) % nc ))]}" "$rep"
		done
	done
	echo "rep_done $rep $(( $(date +%s) - t_start ))" >> "$raw/guest-meta.txt"
done

echo "timed_phase_seconds $(( $(date +%s) - t_start ))" >> "$raw/guest-meta.txt"
echo "guest_seconds $(( $(date +%s) - t_setup ))" >> "$raw/guest-meta.txt"
say "done: $raw"
