# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - sourced by the benchmark drivers (bench/faultaround.sh,
# unmap.sh, tests/box/bench.sh) and their guest halves: the lines of
# raw/host-meta.txt and raw/guest-meta.txt every report reads to say where
# and under what load it was measured, and the drivers' boot of the box.

. "$(dirname "${BASH_SOURCE[0]}")/../tests/vm/boot.sh"

# bench_accel: what the test box runs on, as tests/vm/vmrun.sh decides.
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
