#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability, peer suites (2/2): stress-ng memory stressors that drive
# reclaim and rmap, with foliotune loaded, inside a memory cgroup that forces
# reclaim through memory.high (a first version used memory.max: the memcg
# OOM killer fired thousands of times under TCG, because reclaim of shmem to
# zram cannot keep up, and its stack dumps fail the console gate; memory.high
# reclaims and throttles and never OOM-kills), zram swap,
# --verify where a stressor has it, --klog-check.  Run A with every feature
# on, run B with every knob flipped at random every 10-100 ms
# (FT_REL_FLIP_SAFE in tests/guest/reliability/rel-lib.sh).  Beside the
# stressors, ft_rel mapload (verified) reclaims PTE-mapped large folios, so
# run A must batch and run B must batch and take unmap_nobatch_off.  A
# stressor failure, a verification error, a kernel error in the log,
# broken counter identities or no batching fail.  Its own boot (tests/run.sh: guest_suite reliability-stress
# -t 900 -- tests/guest/reliability/stress.sh).  FT_REL_MODE=long: 10
# minutes per run instead of 60 + 40 s.  FT_REL_NOMODULE=1: the same on the
# stock kernel (to tell a foliotune bug from a kernel or stress-ng one).
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
w=$(mktemp -d)
trap 'knob_flipper_stop; rm -rf "$w" "$FT_XFS/ft-stress" "$FT_XFS/ft-stress-nobody"' EXIT
if [ "$FT_REL_MODE" = long ]; then ta=600 tb=600; else ta=60 tb=40; fi

nomod=${FT_REL_NOMODULE:-0}
# zram, then per stress-ng run 3 lines (8 with the module: 2 runs), the
# flipper and the unload.
if [ "$nomod" = 1 ]; then plan 4; else plan 19; fi
if ! command -v stress-ng > /dev/null; then
	not_ok "stress: stress-ng installed" "apt-get install stress-ng (scripts/deps.sh)"
	exit 0
fi
[ -x "$FT_RELBIN" ] || { not_ok "stress: ft_rel built" "make progs"; exit 0; }
check "stress: zram swap" ft_zram_swap 1G
ft_unload
if [ "$nomod" = 0 ]; then
	ft_load || { not_ok "stress: load" "insmod failed"; exit 0; }
fi
for kv in unmap_batch=1 fault_around_mkold=1 fault_around_auto=1; do
	[ -e "$FT_DEBUGFS/${kv%=*}" ] && echo "${kv#*=}" > "$FT_DEBUGFS/${kv%=*}"
done
mkdir -p "$FT_XFS/ft-stress" "$FT_XFS/ft-stress-nobody"
chmod 1777 "$FT_XFS/ft-stress-nobody"
cg_make ft-rel-stress max
echo 128M > "$FT_CG/ft-rel-stress/memory.high"
echo 16 > /proc/sys/vm/nr_hugepages

# About 250 MB in all, in a cgroup whose memory.high is 128 MB: always
# reclaiming, never short of memory.  (mmapfork is left out: its children
# map half of free memory each.)  The madvise stressor runs as an
# unprivileged user next to them (see run_stress).
stressors=(
	--vm 1 --vm-bytes 48M
	--mmap 1 --mmap-bytes 32M --mmap-file
	--pageswap 1
	--fork 1 --fork-vm
	--mremap 1 --mremap-bytes 16M
	--userfaultfd 1
	--memfd 1 --memfd-bytes 16M --memfd-fds 16
	--shm 1 --shm-bytes 16M
	--msync 1 --msync-bytes 16M
	--mmaphuge 1 --mmaphuge-mmaps 16
)

run_stress() {	# LABEL SECONDS on|flip (unmap_batch: on, or flipping)
	local label=$1 secs=$2 rc fails
	local m
	m=$(dmesg_mark)
	[ "$nomod" = 0 ] && ft_counters_snapshot "$w/c0"
	# The madvise stressor, as root, also injects MADV_HWPOISON into its own
	# pages; 6.12 then kills it with SIGBUS now and then (MF_ACTION_REQUIRED),
	# on the stock kernel too (stress-ng reports "unsuccessful run").  Run
	# it as nobody: every other advice, no poison (the faults suite poisons).
	( cd "$FT_XFS/ft-stress-nobody" &&
	  cg_run ft-rel-stress setpriv --reuid=65534 --regid=65534 --clear-groups \
		stress-ng --temp-path "$FT_XFS/ft-stress-nobody" --timeout "${secs}s" \
		--verify --metrics-brief --oom-avoid --madvise 1 ) > "$w/out.$label.madvise" 2>&1 &
	local madv=$!
	# Beside them, a verified workload whose reclaim batches for certain
	# (PTE-mapped large xfs folios, MADV_PAGEOUT): the premise of the
	# batching check below, whatever the stressors' own folios are.
	cg_spawn ft-rel-stress "$w/mapload.$label" "$FT_RELBIN" mapload "$FT_XFS/ft-stress" 16 "$secs"
	local mapload=$SPAWN_PID
	# --klog-check: stress-ng fails on kernel errors itself (as does
	# check_kernel_clean below); it would also count "Memory failure:" lines
	# as errors, one more reason to keep the madvise stressor unprivileged.
	cg_run ft-rel-stress stress-ng --temp-path "$FT_XFS/ft-stress" --timeout "${secs}s" \
		--verify --klog-check --metrics-brief --oom-avoid "${stressors[@]}" > "$w/out.$label" 2>&1
	rc=$?
	wait "$madv"; local rcm=$?
	wait "$mapload"; local rcl=$?
	sed "s/^/# $label: mapload: /" "$w/mapload.$label" | tail -3
	cat "$w/out.$label.madvise" >> "$w/out.$label"
	[ "$rcm" = 0 ] || rc=$rcm
	[ -n "${FT_RUNDIR:-}" ] && cp "$w/out.$label" "$FT_RUNDIR/stress-ng-$label.out"
	grep -E 'fail|error|verif|passed|skipped|untrustworthy|metrics-check|successful' "$w/out.$label" | head -30 | sed "s/^/# $label: /"
	echo "# $label: stressor metrics (bogo ops):"
	awk '/stress-ng: metrc:|stress-ng: info: .*(bogo|stressor)/' "$w/out.$label" | head -20 | sed 's/^/#   /'
	fails=$(sed -n 's/.*failed: \([0-9]*\).*/\1/p' "$w/out.$label" | tail -1)
	if [ "$rc" = 0 ] && [ "${fails:-0}" = 0 ]; then
		ok "stress: $label: 11 stressors for $secs s, verify on, no failures"
	else
		not_ok "stress: $label" "stress-ng exit $rc, failed: ${fails:-?} (its error lines are above)"
	fi
	check_kernel_clean "stress: $label: kernel log clean" "$m"
	check_eq "stress: $label: the mapload workload's data intact" 0 "$rcl"
	[ "$nomod" = 0 ] || return 0
	echo "# $label: counters moved: $(ft_counter_moves "$w/c0")"
	check "stress: $label: the replacement ran (unmap_calls +$(ft_counter_delta "$w/c0" unmap_calls))" \
		test "$(ft_counter_delta "$w/c0" unmap_calls)" -gt 0
	rel_identities "stress: $label" "$w/c0"
	rel_batched "stress: $label" "$w/c0" "$3"
}

if [ "$nomod" = 1 ]; then
	run_stress stock "$ta"
else
	run_stress features-on "$ta" on
	# shellcheck disable=SC2086  # a list of knob names
	knob_flipper_start "$w/flips" $FT_REL_FLIP_SAFE
	run_stress knobs-flipping "$tb" flip
	knob_flipper_stop
	echo "# knob flipper: $(tail -1 "$w/flips")"
	check "stress: knob flipper: no valid write refused" grep -q ' refused 0 ' "$w/flips"
fi

cg_remove ft-rel-stress
echo 0 > /proc/sys/vm/nr_hugepages
[ "$nomod" = 0 ] && check "stress: unload" ft_unload
ft_zram_swapoff
