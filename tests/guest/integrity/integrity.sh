#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# tests/guest/integrity/integrity.sh - batched-unmap tests, run INSIDE the guest (6.12
# or Linux 7) as root, with foliotune.ko loaded (the knob parts report "not
# ok" if it is not).  Builds nothing: the programs are built on the host
# into tests/progs/.
#
#  1. ft_integrity over the case table with each arm of unmap_batch (1
#     foliotune's batching, 0 the kernel's own code, 2 one PTE at a time),
#     and with a background loop turning the knob through them every
#     FT_FLIP_MS (100) ms; each case proves from foliotune's counters that
#     reclaim reached try_to_unmap_one and took the path the case is for
#     (ft_integrity -U), and checks the PTEs foliotune counted against the
#     page tables;
#  2. after each pass: unmap_calls moved over the pass and the counters'
#     bookkeeping identities below hold; the flipping pass saw every arm;
#  3. unmap_batch=1 really batches: a PTE-mapped 2 MiB file folio, fully
#     mapped and reclaimed through a memcg, moves unmap_batch_order9 (one
#     batch of 512) and no large-folio PTE is unmapped singly; with
#     unmap_batch=2 the same run moves unmap_nobatch_off instead; with 0,
#     on Linux 7 the kernel's own batch of 512 (unmap_kernel_batch_order9),
#     on 6.12 what 2 does;
#  4. no BUG/WARNING/Bad page/Bad rss-counter lines appeared in dmesg.
#
# What the guest must provide:
#   xfs mounted at $FT_XFS (default /mnt/ft-xfs) on /dev/vda, cgroup2 at
#   /sys/fs/cgroup, debugfs at /sys/kernel/debug, swap active (zram), root.
#
# Environment:
#   FT_PROGS     directory with the binaries      (default: ../../progs)
#   FT_XFS       xfs mount point                   (default /mnt/ft-xfs)
#   FT_RA        read_ahead_kb of its device        (default /sys/block/vda/queue/read_ahead_kb)
#   FT_SIZE_MB   size per case                     (default 8)
#   FT_CASES     space-separated case globs        (default: all; see ft_integrity -l)
#   FT_SOURCES   pageout,memcg,reclaim or all       (default all)
#   FT_FLIP_MS   knob flip period                  (default 100)
#   FT_TIMEOUT   per-case timeout in seconds       (default 180)
#   FT_STOCK     1: run one pass even without the module (default 1 when it is absent)
#   FT_EXTRA     extra ft_integrity options, e.g. "-N" on a noisy machine
#
# Output: the plan "1..N" first (integrity.sh -P prints only N), TAP-ish
# "ok - ..." / "not ok - ... # reason" lines, "# ..." diagnostics, and a last
# line "integrity.sh: N passed, N failed, N skipped".  Exit status 0 iff nothing
# failed.

set -u

# Counter identities: "LHS OP TERM [TERM...]".  OP is =, >= or <=; a TERM is
# a counter name, a bash glob over counter names, or N*name.  The sum of
# the terms is compared with LHS.  (From include/foliotune.h; the unmap
# engineer may refine them.)
IDENTITIES=(
	"unmap_single_ptes = unmap_nobatch_*"
	"unmap_batches = unmap_batch_order[1-9]"
	"unmap_batched_ptes >= 2*unmap_batches"
	"unmap_kernel_single_ptes = unmap_kernel_nobatch_*"
	"unmap_kernel_batches = unmap_kernel_batch_order[1-9]"
	"unmap_kernel_batched_ptes >= 2*unmap_kernel_batches"
)
# Linux 7 batches in its own try_to_unmap_one(): arm 0 is not per PTE.
LINUX7=0
(( $(uname -r | cut -d. -f1) >= 7 )) && LINUX7=1

HERE=$(cd "$(dirname "$0")" && pwd)
PROGS=${FT_PROGS:-$(cd "$HERE/../../progs" 2>/dev/null && pwd)}
XFS=${FT_XFS:-/mnt/ft-xfs}
RA=${FT_RA:-/sys/block/vda/queue/read_ahead_kb}
SIZE=${FT_SIZE_MB:-8}
SOURCES=${FT_SOURCES:-all}
FLIP_MS=${FT_FLIP_MS:-100}
TIMEOUT=${FT_TIMEOUT:-180}
DBG=${FT_DBG:-/sys/kernel/debug/foliotune}	# FT_DBG: only to test this script
KNOB=$DBG/unmap_batch
VMSTAT=$DBG/vmstat
CGROOT=/sys/fs/cgroup

PASS=0 FAIL=0 SKIPPED=0
TMP=$(mktemp -d /tmp/ft-unmap.XXXXXX) || exit 1
FLIP_PID=
ORIG_KNOB=

ok()     { PASS=$((PASS + 1)); echo "ok - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "not ok - $1 # $2"; }
skip()   { SKIPPED=$((SKIPPED + 1)); echo "ok - $1 # SKIP $2"; }
diag()   { echo "# $*"; }

# flip_start [FIRST [MS]]: turn unmap_batch through its arms (0, 1, 2)
# every MS (default FLIP_MS) milliseconds, starting with FIRST (default
# 0), until flip_stop; MS 0
# flips as fast as the shell writes (one vCPU busy).  The count goes to a
# file at every flip, or every 64 flips without sleeping (renamed into
# place: the kill may land mid-write).  A TERM trap that wrote it once
# could fire while bash parsed a $(...) in the loop, which bash then
# reports as "unexpected EOF" and loses the count.
flip_start() {
	(
		n=0 v=${1:-0} ms=${2:-$FLIP_MS}
		interval=$(awk -v ms="$ms" 'BEGIN { printf "%.3f", ms / 1000 }')
		while :; do
			echo $v >"$KNOB" || exit 1
			n=$((n + 1)) v=$(((v + 1) % 3))
			if ((ms > 0 || n % 64 == 0)); then
				echo $n >"$TMP/flips.new" && mv "$TMP/flips.new" "$TMP/flips"
			fi
			((ms > 0)) && sleep "$interval"
		done
	) &
	FLIP_PID=$!
}

flip_stop() {
	if [[ -n $FLIP_PID ]]; then
		kill "$FLIP_PID" 2>/dev/null
		wait "$FLIP_PID" 2>/dev/null
		FLIP_PID=
	fi
}

# shellcheck disable=SC2317  # invoked by the EXIT trap
cleanup() {
	flip_stop
	if [[ -n $ORIG_KNOB && -w $KNOB ]]; then
		echo "$ORIG_KNOB" >"$KNOB" 2>/dev/null ||
			echo "# cleanup: could not restore $KNOB to $ORIG_KNOB"
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

finish() {
	echo "integrity.sh: $PASS passed, $FAIL failed, $SKIPPED skipped"
	[[ $FAIL -eq 0 ]]
	exit $?
}

# ---- counters ----------------------------------------------------------

declare -A CNT

read_counters() {	# fills CNT from the module's vmstat
	local n v
	CNT=()
	[[ -r $VMSTAT ]] || return 1
	while read -r n v; do
		[[ -n $n ]] && CNT[$n]=$v
	done <"$VMSTAT"
}

# Sum of the terms of an identity (terms as in IDENTITIES).
sum_terms() {
	local t k coef name total=0 matched
	for t in "$@"; do
		coef=1 name=$t
		if [[ $t == *'*'* && $t =~ ^([0-9]+)\*(.+)$ ]]; then
			coef=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}
		fi
		matched=0
		for k in "${!CNT[@]}"; do
			# shellcheck disable=SC2053  # glob match intended
			if [[ $k == $name ]]; then
				total=$((total + coef * CNT[$k]))
				matched=1
			fi
		done
		[[ $matched == 1 ]] || { echo "missing:$name"; return 1; }
	done
	echo "$total"
}

# One pass over IDENTITIES; prints failures, returns 1 if any.
identities_once() {
	local id lhs op rhs l r bad=0
	read_counters || { echo "cannot read $VMSTAT"; return 1; }
	for id in "${IDENTITIES[@]}"; do
		read -r lhs op rhs <<<"$id"
		# shellcheck disable=SC2086  # split the terms
		r=$(sum_terms $rhs) || { echo "$id: counter ${r#missing:} not in $VMSTAT"; bad=1; continue; }
		l=${CNT[$lhs]:-}
		if [[ -z $l ]]; then
			echo "$id: counter $lhs not in $VMSTAT"
			bad=1
			continue
		fi
		case $op in
		'=')  ((l == r)) || { echo "$id: $lhs=$l, sum=$r"; bad=1; } ;;
		'>=') ((l >= r)) || { echo "$id: $lhs=$l, sum=$r"; bad=1; } ;;
		'<=') ((l <= r)) || { echo "$id: $lhs=$l, sum=$r"; bad=1; } ;;
		*) echo "$id: bad operator '$op'"; bad=1 ;;
		esac
	done
	return $bad
}

# pass_start: remember the counters (PASS0) before a pass.
declare -A PASS0
pass_start() {
	local k
	PASS0=()
	read_counters || return
	for k in "${!CNT[@]}"; do PASS0[$k]=${CNT[$k]}; done
}

# delta NAME: how much a counter moved since pass_start (CNT is current).
delta() { echo $(( ${CNT[$1]:-0} - ${PASS0[$1]:-0} )); }

# The identities hold by construction whenever the counters are read
# between unmaps, so they are only worth a line over a pass that unmapped:
# unmap_calls must have moved.  Per-cpu counters are summed one by one on
# read: retry a transient mismatch (a concurrent unmap) a few times.
check_identities() {
	local label=$1 out calls
	for _ in 1 2 3 4 5; do
		out=$(identities_once) && break
		sleep 0.3
	done
	read_counters
	calls=$(delta unmap_calls)
	if [[ -n $out ]]; then
		while read -r line; do diag "$line"; done <<<"$out"
		not_ok "$label: counter bookkeeping" "$(head -1 <<<"$out")"
	elif ((calls <= 0)); then
		not_ok "$label: counter bookkeeping" "unmap_calls did not move over the pass: nothing was unmapped"
	else
		ok "$label: counter bookkeeping holds over $calls unmap calls (${#IDENTITIES[@]} identities)"
	fi
}

# ---- ft_integrity --------------------------------------------------------

CASE_ARGS=()
for c in ${FT_CASES:-}; do CASE_ARGS+=(-c "$c"); done
read -r -a EXTRA_ARGS <<<"${FT_EXTRA:-}"

INTEG=("$PROGS/ft_integrity" -d "$XFS" -b "$RA" -s "$SIZE" -r "$SOURCES" -T "$TIMEOUT"
	"${CASE_ARGS[@]}" "${EXTRA_ARGS[@]}")

run_integrity() {	# label expect(-U) [extra ft_integrity args]
	local label=$1 expect=$2 rc n_ok n_bad n_skip
	shift 2
	diag "ft_integrity pass '$label' (unmap_batch=$( [[ -r $KNOB ]] && cat "$KNOB" || echo n/a), expecting $expect)"
	"${INTEG[@]}" -U "$expect" "$@" >"$TMP/out" 2>&1
	rc=$?
	# Prefix test names with the pass label; the pass's plan is part of ours.
	sed -e "s|^ok - |ok - $label/|" -e "s|^not ok - |not ok - $label/|" \
	    -e 's|^1\.\.\([0-9]*\)$|# (this pass plans \1 results)|' \
	    -e 's|^\(ft_integrity: .*\)$|# \1|' "$TMP/out"
	n_ok=$(grep -c '^ok - ' "$TMP/out")
	n_skip=$(grep -c '^ok - .* # SKIP' "$TMP/out")
	n_bad=$(grep -c '^not ok - ' "$TMP/out")
	PASS=$((PASS + n_ok - n_skip))
	SKIPPED=$((SKIPPED + n_skip))
	FAIL=$((FAIL + n_bad))
	if [[ $rc -ne 0 && $n_bad -eq 0 ]]; then
		not_ok "$label: ft_integrity" "exited with status $rc without a failing case"
	fi
	if [[ $((n_ok + n_bad)) -eq 0 ]]; then
		not_ok "$label: ft_integrity" "ran no case (FT_CASES='${FT_CASES:-}')"
	fi
}

# unmap_batch=VAL, reclaim PTE-mapped 2 MiB folios through a memcg, look at
# the counter deltas.
batch_check() {
	local val=$1 label="batch-check/unmap_batch=$1" rc
	local d9 doff dsingle dsmall dbatches dk9 dkb
	local -A B
	echo "$val" >"$KNOB" || { not_ok "$label" "cannot write $KNOB"; return; }
	read_counters || { not_ok "$label" "cannot read $VMSTAT"; return; }
	for k in "${!CNT[@]}"; do B[$k]=${CNT[$k]}; done
	"$PROGS/ft_integrity" -d "$XFS" -b "$RA" -s "$SIZE" -r memcg -c file-pte2m -T "$TIMEOUT" \
		-U "$val" "${EXTRA_ARGS[@]}" >"$TMP/out" 2>&1
	rc=$?
	read_counters || { not_ok "$label" "cannot read $VMSTAT"; return; }
	sed 's/^/#   /' "$TMP/out"
	d9=$((CNT[unmap_batch_order9] - B[unmap_batch_order9]))
	doff=$((CNT[unmap_nobatch_off] - B[unmap_nobatch_off]))
	dsingle=$((CNT[unmap_single_ptes] - B[unmap_single_ptes]))
	dsmall=$((CNT[unmap_nobatch_small] - B[unmap_nobatch_small]))
	dbatches=$((CNT[unmap_batches] - B[unmap_batches]))
	dk9=$((CNT[unmap_kernel_batch_order9] - B[unmap_kernel_batch_order9]))
	dkb=$((CNT[unmap_kernel_batches] - B[unmap_kernel_batches]))
	diag "deltas: unmap_batch_order9 +$d9, unmap_batches +$dbatches, unmap_single_ptes +$dsingle" \
	     "(of which nobatch_small +$dsmall), unmap_nobatch_off +$doff;" \
	     "unmap_kernel_batch_order9 +$dk9, unmap_kernel_batches +$dkb"
	if [[ $rc -ne 0 ]]; then
		not_ok "$label" "ft_integrity -c file-pte2m -r memcg failed (status $rc)"
	elif [[ $val == 0 && $LINUX7 == 1 ]]; then
		if ((dk9 >= 1 && d9 == 0 && doff == 0 && dbatches == 0)); then
			ok "$label: the kernel's own batches of 512 (unmap_kernel_batch_order9 +$dk9), none of foliotune's"
		else
			not_ok "$label" "expected unmap_kernel_batch_order9 >= +1 and no foliotune batch or nobatch_off; got kernel order9 +$dk9, order9 +$d9, batches +$dbatches, nobatch_off +$doff"
		fi
	elif [[ $val == 1 ]]; then
		if ((d9 >= 1 && doff == 0 && dsingle - dsmall < 512)); then
			ok "$label: 2 MiB folios unmapped in batches of 512 (order9 +$d9)"
		else
			not_ok "$label" "expected unmap_batch_order9 >= +1, unmap_nobatch_off +0 and fewer than 512 large-folio singles; got order9 +$d9, nobatch_off +$doff, singles-small +$((dsingle - dsmall))"
		fi
	else
		if ((d9 == 0 && dkb == 0 && doff >= 512)); then
			ok "$label: per-PTE unmap (nobatch_off +$doff, no batches)"
		else
			not_ok "$label" "expected unmap_batch_order9 +0, no kernel batch and unmap_nobatch_off >= +512; got order9 +$d9, kernel batches +$dkb, nobatch_off +$doff"
		fi
	fi
}

# ---- plan ------------------------------------------------------------------

# With the module: 4 ft_integrity passes, 5 bookkeeping lines, the flip
# check, 3 batch checks; without: 7 "not loaded" lines and the stock pass.
# Both end with the dmesg line.
NCASES=$("${INTEG[@]}" -P 2>/dev/null) || NCASES=0
if [[ -d $DBG ]]; then
	PLAN=$((4 * NCASES + 5 + 1 + 3 + 1))
else
	PLAN=$((7 + 1))
	[[ ${FT_STOCK:-1} == 1 ]] && PLAN=$((PLAN + NCASES))
fi
if [[ ${1:-} == -P ]]; then
	echo "$PLAN"
	exit 0
fi
echo "1..$PLAN"

# ---- preflight -------------------------------------------------------------

diag "foliotune batched-unmap guest tests: $(uname -r), size ${SIZE} MB, sources $SOURCES"
if [[ $EUID -ne 0 ]]; then
	not_ok "preflight: root" "run as root (pagemap PFNs, knobs, cgroups, mounts)"
	finish
fi
if [[ -z $PROGS || ! -x $PROGS/ft_integrity ]]; then
	not_ok "preflight: binaries" "no ft_integrity in '${PROGS:-../../progs}' (build on the host: make -C tests/progs)"
	finish
fi
mountpoint -q "$XFS" || diag "WARNING: $XFS is not a mount point: file cases run on whatever fs holds it"
[[ $(stat -f -c %T "$XFS" 2>/dev/null) == xfs ]] || diag "WARNING: $XFS is not xfs"
[[ -w $RA ]] || diag "WARNING: $RA not writable: the file-ra-* cases will fail (set FT_RA)"
[[ $(stat -f -c %T /sys/kernel/debug 2>/dev/null) == debugfs ]] ||
	diag "WARNING: debugfs not mounted at /sys/kernel/debug"
[[ $(stat -f -c %T "$CGROOT" 2>/dev/null) == cgroup2fs ]] ||
	diag "WARNING: $CGROOT is not cgroup2: memcg/reclaim sources will fail"
if [[ $(wc -l </proc/swaps) -lt 2 ]]; then
	diag "WARNING: no swap active: the anon/shmem/tmpfs/private-dirty cases will fail"
else
	diag "swap: $(tail -n +2 /proc/swaps | awk '{printf "%s %s kB; ", $1, $3}')"
fi
# Leftovers of an earlier killed run (empty cgroups only; rmdir refuses others).
for d in "$CGROOT"/ft-*; do [[ -d $d ]] && rmdir "$d" 2>/dev/null; done
DMESG0=$(dmesg 2>/dev/null | wc -l)

# ---- passes ------------------------------------------------------------------

if [[ -d $DBG && -w $KNOB && -r $VMSTAT ]]; then
	ORIG_KNOB=$(cat "$KNOB")
	diag "foliotune: $(cat "$DBG/build" 2>/dev/null || echo 'build file absent'), unmap_batch=$ORIG_KNOB"

	echo 1 >"$KNOB" || not_ok "unmap_batch=1" "cannot write $KNOB"
	pass_start
	run_integrity batch1 1
	check_identities "batch1"

	echo 0 >"$KNOB" || not_ok "unmap_batch=0" "cannot write $KNOB"
	pass_start
	run_integrity batch0 0
	check_identities "batch0"

	echo 2 >"$KNOB" || not_ok "unmap_batch=2" "cannot write $KNOB"
	pass_start
	run_integrity batch2 2
	check_identities "batch2"

	# One integrity run can fall entirely into one arm's windows (one
	# case, FT_CASES: its 3 unmap calls come in one burst; five runs at
	# 100 ms, each started with the other value, once all fell into
	# unbatched windows).  Run it again, up to 12 times, until every
	# arm ran over the runs, the runs after the first flipping without
	# sleeping.  Even then a burst's 3 calls fit in one flip (1-3 ms under
	# TCG), so each run draws one arm or two.  The results shown are those
	# of the first run that failed a case, or of the last.  What shows that
	# an arm ran: foliotune's batches (1), PTEs done singly for the arm
	# (2; on 6.12 also 0), the calls of the kernel's arm (0).
	b_all=0 off_all=0 k_all=0 flips=0
	for attempt in $(seq 12); do
		flip_start $((attempt % 3)) $((attempt == 1 ? FLIP_MS : 0))
		pass_start
		p0=$PASS f0=$FAIL s0=$SKIPPED
		run_integrity flip flip >"$TMP/flip.out"
		flip_stop
		read_counters
		b=$(delta unmap_batches) off=$(delta unmap_nobatch_off) k=$(delta unmap_calls_kernel)
		b_all=$((b_all + b)) off_all=$((off_all + off)) k_all=$((k_all + k))
		flips=$((flips + $(cat "$TMP/flips" 2>/dev/null || echo 0)))
		if ((b_all > 0 && off_all > 0 && k_all > 0)) || grep -q '^not ok' "$TMP/flip.out" ||
		   ((attempt == 12)); then
			cat "$TMP/flip.out"
			break
		fi
		diag "flip run $attempt: unmap_batches +$b, unmap_nobatch_off +$off, unmap_calls_kernel +$k: again"
		PASS=$p0 FAIL=$f0 SKIPPED=$s0
	done
	check_identities "flip"
	if ((flips >= 3 && b_all > 0 && off_all > 0 && k_all > 0)); then
		ok "flip: every arm ran while the knob turned $flips times in $attempt run(s) (unmap_batches +$b_all, unmap_nobatch_off +$off_all, unmap_calls_kernel +$k_all)"
	else
		not_ok "flip: every arm ran" "knob turned $flips times in $attempt run(s), unmap_batches +$b_all, unmap_nobatch_off +$off_all, unmap_calls_kernel +$k_all"
	fi

	pass_start
	batch_check 1
	batch_check 0
	batch_check 2
	check_identities "batch-check"
	echo "$ORIG_KNOB" >"$KNOB"
else
	why="foliotune not loaded: $DBG (unmap_batch, vmstat) absent"
	for p in batch1 batch0 batch2 flip batch-check/unmap_batch=1 batch-check/unmap_batch=0 \
		 batch-check/unmap_batch=2; do
		not_ok "$p" "$why"
	done
	if [[ ${FT_STOCK:-1} == 1 ]]; then
		run_integrity stock stock
	fi
fi

# ---- kernel log --------------------------------------------------------------

if dmesg >/dev/null 2>&1; then
	dmesg | tail -n +"$((DMESG0 + 1))" |
		grep -E 'BUG:|WARNING:|Oops|Bad page|Bad rss-counter|kernel BUG|general protection|list_(add|del) corruption|refcount_t:|Call Trace' \
		>"$TMP/dmesg"
	if [[ -s $TMP/dmesg ]]; then
		while read -r line; do diag "dmesg: $line"; done <"$TMP/dmesg"
		not_ok "dmesg clean" "$(wc -l <"$TMP/dmesg") suspicious kernel log lines (above)"
	else
		ok "dmesg clean"
	fi
else
	skip "dmesg clean" "dmesg not readable"
fi

finish
