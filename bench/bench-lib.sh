# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-lib.sh - sourced by the benchmark drivers (bench/faultaround.sh,
# unmap.sh, reclaim.sh, box.sh) and their guest halves: the
# lines of raw/host-meta.txt and raw/guest-meta.txt every report reads to
# say where and under what load it was measured, the drivers' boot of the
# box (scratch image, private module copy, the boot itself), and what the
# guest halves share (quiescing before a run, the bpftrace session of a
# trace phase and the probes its programs are built from).

. "$(dirname "${BASH_SOURCE[0]}")/../harness/vm/boot.sh"

# bench_accel: what the test box runs on, as harness/vm/vmrun.sh decides.
bench_accel() {
	if [ "${VMRUN_KVM:-auto}" = 1 ] || { [ "${VMRUN_KVM:-auto}" = auto ] &&
		[ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; }; then
		echo kvm
	else
		echo tcg
	fi
}

# bench_commit: HEAD's short commit, "-dirty" when a tracked file differs.
bench_commit() {
	local c
	c=$(git rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
	[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && c=$c-dirty
	echo "$c"
}

# bench_results_dir COMMIT SUFFIX: $BENCH_OUT, else a new
# bench/results/<date>-COMMIT SUFFIX (.2, .3, ... when that is taken);
# made, and printed as an absolute path.
bench_results_dir() {
	local out=${BENCH_OUT:-bench/results/$(date -u +%Y-%m-%d)-$1$2} n=2
	if [ -z "${BENCH_OUT:-}" ] && [ -e "$out" ]; then
		while [ -e "$out.$n" ]; do n=$((n + 1)); done
		out=$out.$n
	fi
	mkdir -p "$out" && (cd "$out" && pwd)
}

# bench_host_meta COMMIT ACCEL VCPUS: the commit, the date, the host and its
# load average now, the accelerator and the guest's (or box's) CPUs.
bench_host_meta() {
	echo "commit $1"
	echo "commit_full $(git rev-parse HEAD 2>/dev/null || echo unknown)"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host $(uname -n) $(uname -r)"
	echo "host_cpu $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "host_cpus $(nproc)"
	echo "host_loadavg_before $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "accel $2"
	echo "vcpus $3"
}

# bench_boot OUT IMG SIZE VMRUN-ARGS...: one boot of the test box with a
# scratch xfs (vm_boot), its console in OUT/raw/console.log; appends how it
# ended and the host's load after it to OUT/raw/host-meta.txt.  Returns the
# boot's status.
bench_boot() {
	local out=$1 img=$2 size=$3 t0 rc
	shift 3
	t0=$(date +%s)
	vm_boot "$img" "$size" -l "$out/raw/console.log" "$@"
	rc=$?
	{
		echo "vmrun_exit $rc"
		echo "host_seconds $(( $(date +%s) - t0 ))"
		echo "host_loadavg_after $(cut -d' ' -f1-3 /proc/loadavg)"
	} >> "$out/raw/host-meta.txt"
	[ "$rc" = 0 ] || echo "${0##*/}: test box exit status $rc: $(vm_why "$rc" ||
		echo "the benchmark failed") (see $out/raw/console.log)" >&2
	return "$rc"
}

# bench_scratch NAME [KO]: BENCH_IMG, a new scratch image
# $BENCH_SCRATCH/NAME.XXXXXX.img (bench/.scratch by default) for the box's
# xfs; with KO=ko also BENCH_KO beside it, a private copy of
# module/foliotune.ko that the guest loads, so that a rebuild on the host
# during the run cannot mix two modules.  Both go on exit.  Exits 2 on
# failure (call it from the driver's own shell, not in $(...)).
bench_scratch() {
	local scratch=${BENCH_SCRATCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/.scratch}
	mkdir -p "$scratch" || exit 2
	BENCH_IMG=$(mktemp "$scratch/$1.XXXXXX.img") || exit 2
	BENCH_KO=
	if [ "${2:-}" = ko ]; then
		BENCH_KO=${BENCH_IMG%.img}.ko
		trap 'rm -f "$BENCH_IMG" "$BENCH_KO"' EXIT
		cp module/foliotune.ko "$BENCH_KO" || exit 2
	else
		trap 'rm -f "$BENCH_IMG"' EXIT
	fi
}

# bench_host_files OUT FILE...: what the box ran, in OUT/raw/host-meta.txt:
# a sha256 prefix and the time of every FILE, and the tracked files that
# differ from HEAD, if any.
bench_host_files() {
	local out=$1 f
	shift
	{
		for f in "$@"; do
			echo "sha256 $f $(sha256sum < "$f" | cut -c1-16) $(date -u -r "$f" +%Y-%m-%dT%H:%M:%SZ)"
		done
		[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] &&
			echo "dirty_files $(git status --porcelain --untracked-files=no | awk '{ print $2 }' | tr '\n' ' ')"
	} >> "$out/raw/host-meta.txt"
}

# bench_boot_guest OUT SIZE MEM TIMEOUT GUEST VAR...: bench_boot of
# BENCH_IMG (SIZE) with MEM and 2 vCPUs, BENCH_KERNEL_ARGS on the kernel's
# command line, that runs `bash GUEST OUT` in the box with FT_KO=$BENCH_KO
# and every VAR that is set exported.  Returns the boot's status.
bench_boot_guest() {
	local out=$1 size=$2 mem=$3 timeout=$4 guest=$5 kargs=()
	shift 5
	[ -n "${BENCH_KERNEL_ARGS:-}" ] && kargs=(-a "$BENCH_KERNEL_ARGS")
	bench_boot "$out" "$BENCH_IMG" "$size" -m "$mem" -c 2 -t "$timeout" "${kargs[@]}" -- \
		"export FT_KO=$(printf %q "$BENCH_KO"); $(for v in "$@"; do
			[ -n "${!v+x}" ] && printf 'export %s=%q; ' "$v" "${!v}"; done)" \
		"bash $(printf %q "$guest") $(printf %q "$out")"
}

# bench_host_start OUT CMDLINE COMMIT ACCEL VM_MEM EST TIMEOUT: the first
# lines of OUT/raw/host-meta.txt (the driver may append its own).
bench_host_start() {
	{
		echo "command $2"
		bench_host_meta "$3" "$4" 2
		echo "vm_mem $5"
		echo "estimate_seconds $6"
		echo "timeout_seconds $7"
	} > "$1/raw/host-meta.txt"
}

# bench_guest_meta: the box's own lines of raw/guest-meta.txt.
bench_guest_meta() {
	echo "guest_date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "guest_kernel $(uname -r)"
	echo "guest_cpus $(nproc)"
	echo "guest_cpu_model $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "guest_mem_kb $(awk '/^MemTotal/ { print $2 }' /proc/meminfo)"
}

# ---- guest halves ----------------------------------------------------------

# bench_guest_init OUTDIR: how every guest half (bench/*-guest.sh) starts:
# OUTDIR/raw made (exit 2 if it cannot be), its path in $raw, and the guest
# helpers (tests/lib.sh) sourced.
bench_guest_init() {
	raw=$1/raw
	mkdir -p "$raw" || exit 2
	# shellcheck source=SCRIPTDIR/../tests/lib.sh
	. "$(dirname "${BASH_SOURCE[0]}")/../tests/lib.sh"
}

# perl -e "$BENCH_NOTHP" CMD...: exec CMD with PR_SET_THP_DISABLE (prctl is
# syscall 157, PR_SET_THP_DISABLE 41; the flag is inherited over fork and
# exec).
# shellcheck disable=SC2016,SC2034  # perl code, expanded by perl; used by the guest halves
BENCH_NOTHP='syscall(157, 41, 1, 0, 0, 0) == 0 or die "prctl: $!"; exec { $ARGV[0] } @ARGV or die "exec: $!"'

# bench_quiesce: the same starting state for every run.
bench_quiesce() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > /proc/sys/vm/compact_memory 2>/dev/null
	sleep 1
}

# A trace phase is one bpftrace session (its start-up costs tens of seconds
# under TCG).  Each run is announced by a marker syscall,
# getpriority(4000 + PHASE, 0) (an invalid "which": EINVAL, no side effect;
# 0 = idle); the program keys its maps by that phase, and bench_trace_stop
# splits them into one NAME.bt per run.

# bench_marker PHASE: announce PHASE to the bpftrace program.
bench_marker() { perl -e 'syscall(140, 4000 + $ARGV[0], 0)' "$1"; }

# bench_trace_attached RAW FUNC...: bpftrace printed "phase 0" into
# RAW/trace-all.bt and a kprobe and a kretprobe are registered on every FUNC.
bench_trace_attached() {
	local raw=$1 f
	shift
	grep -q '^phase 0' "$raw/trace-all.bt" 2>/dev/null || return 1
	for f in "$@"; do
		[ "$(grep -c "$f" /sys/kernel/debug/kprobes/list)" -ge 2 ] || return 1
	done
}

# bench_trace_start BT RAW FUNC...: start `bpftrace -B none BT` (-B none
# works for stdout only: -o FILE stays buffered until exit) writing
# RAW/trace-all.bt, and wait until it is attached to every FUNC (up to 2
# min); BENCH_BTPID is its pid, BENCH_BTTRIES the polls it took.  Returns 1,
# bpftrace stopped, when it did not attach (RAW/trace-bpftrace.log says why).
bench_trace_start() {
	local bt=$1 raw=$2
	shift 2
	rm -f "$raw/trace-all.bt" "$raw/trace-phases.txt"
	bpftrace -B none "$bt" > "$raw/trace-all.bt" 2> "$raw/trace-bpftrace.log" &
	BENCH_BTPID=$!
	BENCH_BTTRIES=0
	until bench_trace_attached "$raw" "$@"; do
		BENCH_BTTRIES=$((BENCH_BTTRIES + 1))
		[ "$BENCH_BTTRIES" -gt 240 ] && break
		kill -0 "$BENCH_BTPID" 2>/dev/null || break
		bench_marker 0
		sleep 0.5
	done
	bench_trace_attached "$raw" "$@" && return 0
	kill -INT "$BENCH_BTPID" 2>/dev/null
	wait "$BENCH_BTPID"
	return 1
}

# bench_bt_time FUNC MAPS TAG: the bpftrace probes (a kprobe and a
# kretprobe) that time FUNC, a function of the module whose arg0 is a folio,
# by phase and folio order into @MAPScalls, @MAPSns and @MAPSmax_ns[PHASE,
# ORDER]; per thread @TAGord and @TAGt0, which the program's END clears
# (bench_bt_time_end TAG).  The folio order is _flags_1 & 0xff (offset 64 =
# sizeof(struct page)) when PG_head (bit 6) is set, else 0 (6.12
# include/linux/mm.h folio_order()).  The one copy of these probes: the
# guest halves build their programs from it.
bench_bt_time() {
	local f=$1 m=$2 t=$3
	cat <<EOF
kprobe:$f
/@phase > 0/
{
	@${t}ord[tid] = (*(uint64 *)arg0 & 0x40) ? (*(uint64 *)(arg0 + 64) & 0xff) : 0;
	@${t}t0[tid] = nsecs;
}
kretprobe:$f
/@${t}t0[tid]/
{
	\$d = nsecs - @${t}t0[tid];
	@${m}calls[@phase, @${t}ord[tid]] = count();
	@${m}ns[@phase, @${t}ord[tid]] = sum(\$d);
	@${m}max_ns[@phase, @${t}ord[tid]] = max(\$d);
	delete(@${t}t0[tid]);
	delete(@${t}ord[tid]);
}
EOF
}

# bench_bt_time_end TAG: END's lines that clear bench_bt_time's per-thread maps.
bench_bt_time_end() {
	printf '\tclear(@%st0);\n\tclear(@%sord);\n' "$1" "$1"
}

# bench_trace_phase RAW ID NAME: phase ID is the run NAME (its maps go to
# RAW/NAME.bt); announce it.
bench_trace_phase() {
	echo "$2 $3" >> "$1/trace-phases.txt"
	bench_marker "$2"
}

# bench_trace_stop RAW [SECONDS]: stop bpftrace and split its maps by phase:
# "@MAP[PHASE, KEY]: N" into RAW/NAME.bt as "@MAP[KEY]: N".  With SECONDS,
# wait that long for it to exit, then kill it and go on (a program that
# prints its maps after every run has nothing left to lose); returns 1
# then.
bench_trace_stop() {
	local n=0 rc=0
	kill -INT "$BENCH_BTPID"
	if [ -n "${2:-}" ]; then
		while kill -0 "$BENCH_BTPID" 2>/dev/null && [ "$n" -lt "$2" ]; do
			sleep 1
			n=$((n + 1))
		done
		if kill -0 "$BENCH_BTPID" 2>/dev/null; then
			kill -KILL "$BENCH_BTPID" 2>/dev/null
			rc=1
		else
			wait "$BENCH_BTPID"
		fi
	else
		wait "$BENCH_BTPID"
	fi
	awk -v dir="$1" '
		FNR == NR { name[$1] = $2; next }
		/^@[a-z_]+\[[0-9]+, [0-9]+\]: / {
			split($0, a, /[][,:]/)
			ph = a[2] + 0
			if (!(ph in name)) next
			print a[1] "[" a[3] + 0 "]: " $NF > (dir "/" name[ph] ".bt")
		}' "$1/trace-phases.txt" "$1/trace-all.bt"
	return "$rc"
}
