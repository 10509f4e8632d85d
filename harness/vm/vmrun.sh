#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmrun.sh - run one shell command inside the foliotune test box.
#
#   harness/vm/vmrun.sh [options] -- 'command ...'
#   harness/vm/vmrun.sh [options] -s script.sh [args...]
#
# Boots the Debian kernel under QEMU (TCG; KVM only where it really works),
# with the host root read-only under a tmpfs overlay and the repository
# read-write at the same path, runs the command as root and exits with its
# status.  The guest console is saved and scanned; anything that looks like
# a kernel warning, oops, bad page or lockup fails the run.
#
# Exit status: the command's own, or
#   250  the guest died before the command started (after retries)
#   251  the guest crashed or timed out while the command ran
#   252  the console gate found kernel errors (command status printed)
#
# Options:
#   -k KVER     kernel release (default $KVER or scripts/kernels/default-kver)
#   -K FILE     kernel image (default: KVER's image in the kernel cache,
#               fetched there by scripts/kernels/fetch.sh when missing)
#   -M DIR      the guest's /lib/modules/KVER, bound over it (default: the
#               cached image's modules when -K is not given)
#   -e VAR=VAL  export VAR into the command's environment (repeatable)
#   -m MEM      guest memory (default 4G)        -c CPUS  vCPUs (default 2)
#   -t SECS     host-side timeout (default 600)  -a ARGS  extra kernel args
#   -d FILE     attach FILE as a virtio disk (repeatable: vda, vdb, ...)
#   -l FILE     copy the console log to FILE
#   -R FILE     write the run directory's path (results, dmesg) to FILE
#   -r N        retries for "died before the command started" (default 2)
#   -G          skip the console gate (for the gate's own self-test)
#   -q          print nothing while it runs (the console is still saved)
#   -v          echo the whole console, kernel messages included
#               (default: the command's output only)
# Environment: VMRUN_KVM (auto|0|1), VMRUN_TCG_THREAD (single|multi,
# default single: see the comment at the accelerator choice below),
# VMRUN_CPU (QEMU's -cpu under TCG, default max,-cx16: see the same place),
# VMRUN_FS (9p|virtiofs; default 9p unless the kernel's config, next to its
# image, lacks CONFIG_9P_FS, as Debian's cloud flavour does: then the two
# shares are virtiofs, served by QEMU's virtiofsd).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
kver=${KVER:-$(cat "$repo/scripts/kernels/default-kver")}
mem=4G
cpus=2
timeout_s=600
append=""
disks=()
logcopy=""
runfile=""
retries=2
gate=1
quiet=0
verbose=0
script=""
kernel=""
moddir=""
envs=()

usage() { sed -n '4,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 1; }

while getopts "k:K:M:e:m:c:t:a:d:l:R:r:s:Gqvh" opt; do
	case "$opt" in
	k) kver=$OPTARG ;;
	K) kernel=$OPTARG ;;
	M) moddir=$OPTARG ;;
	e) envs+=("$OPTARG") ;;
	m) mem=$OPTARG ;;
	c) cpus=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	a) append="$append $OPTARG" ;;
	d) disks+=("$OPTARG") ;;
	l) logcopy=$OPTARG ;;
	R) runfile=$OPTARG ;;
	r) retries=$OPTARG ;;
	s) script=$OPTARG ;;
	G) gate=0 ;;
	q) quiet=1 ;;
	v) verbose=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
if [ -z "$script" ] && [ $# -eq 0 ]; then
	usage
fi

# Debian's kernels come from the project's cache, never from /boot.
if [ -z "$kernel" ]; then
	kernel=$("$repo/scripts/kernels/fetch.sh" "$kver" --path kernel) || exit 2
	[ -r "$kernel" ] || "$repo/scripts/kernels/fetch.sh" "$kver" image || exit 2
	if [ -z "$moddir" ]; then
		moddir=$("$repo/scripts/kernels/fetch.sh" "$kver" --path modules) || exit 2
		# bpftrace in the guest reads the -common headers through
		# /lib/modules/KVER/source (a cache unpacked before fetch.sh made
		# that link lacks it; the headers packages of trixie have it
		# under usr/, bookworm's not)
		for hsrc in "${moddir%/image/lib/modules/*}"/headers/{lib,usr/lib}/modules/"$kver"/source; do
			[ -e "$hsrc" ] && [ ! -e "$moddir/source" ] && ln -sfn "$(readlink -f "$hsrc")" "$moddir/source"
		done
	fi
fi
[ -r "$kernel" ] || { echo "vmrun: kernel image $kernel missing" >&2; exit 2; }
if [ -n "$moddir" ]; then
	moddir=$(cd "$moddir" 2>/dev/null && pwd) || { echo "vmrun: modules dir $moddir missing" >&2; exit 2; }
fi
command -v qemu-system-x86_64 >/dev/null || { echo "vmrun: qemu-system-x86_64 missing: make deps" >&2; exit 2; }

fs=${VMRUN_FS:-}
if [ -z "$fs" ]; then
	fs=9p
	config=$(dirname "$kernel")/config-$kver
	[ -r "$config" ] && ! grep -qE '^CONFIG_9P_FS=[ym]' "$config" && fs=virtiofs
fi
virtiofsd=/usr/lib/qemu/virtiofsd
[ "$fs" = 9p ] || [ -x "$virtiofsd" ] || { echo "vmrun: $virtiofsd missing (qemu-system-common): $kver has no 9p" >&2; exit 2; }
export VMRUN_FS=$fs

builddir=$repo/build/vm
mkdir -p "$builddir/runs"
initrd=$builddir/initramfs-$kver.cpio.gz
[ "$fs" = 9p ] || initrd=$builddir/initramfs-$kver-$fs.cpio.gz
# Two boxes may start at once (harness/vm/schedule.sh): one makes the
# initramfs, the other waits for it.
if ! (
	flock 9
	if [ ! -s "$initrd" ] || [ "$here/init" -nt "$initrd" ] || [ "$here/mkinitramfs.sh" -nt "$initrd" ] ||
	   { [ -n "$moddir" ] && [ "$moddir/modules.dep" -nt "$initrd" ]; }; then
		"$here/mkinitramfs.sh" "$kver" "$initrd" ${moddir:+"$moddir"}
	fi
) 9> "$initrd.lock"; then
	exit 2
fi

rundir=$(mktemp -d "$builddir/runs/XXXXXX")
ln -sfn "$rundir" "$builddir/runs/last"	# for people; scripts use -R
[ -n "$runfile" ] && echo "$rundir" > "$runfile"
{
	echo "cd '$PWD' 2>/dev/null || cd '$repo'"
	echo "export KVER='$kver' FT_REPO='$repo' FT_RUNDIR='$rundir'"
	for e in "${envs[@]}"; do
		printf 'export %q\n' "$e"
	done
	# A kernel not installed on the host brings its own modules dir.
	if [ -n "$moddir" ]; then
		printf 'mkdir -p /lib/modules/%q && mount --bind %q /lib/modules/%q ||\n' "$kver" "$moddir" "$kver"
		echo "	{ echo 'vmrun: cannot bind the modules dir' >&2; exit 249; }"
	fi
	if [ -n "$script" ]; then
		printf 'exec bash'
		printf ' %q' "$script" "$@"
		echo
	else
		printf '%s\n' "$*"
	fi
} > "$rundir/cmd.sh"

# KVM only where it can boot a stock kernel: real VMX/SVM in the host CPU.
# (/dev/kvm on these machines is kvm_pvm, which cannot; see docs/qemu-test-box.md.)
# TCG runs one host thread for all vCPUs by default.  Multi-threaded TCG
# is faster for parallel guest work but races with the kernel's live code
# patching (text_poke_bp(): static keys, ftrace, livepatch): now and then a
# vCPU still executes an int3 after the patching CPU has finished and
# removed its handler, and the guest dies with "Oops: int3" at a patch site
# (seen in about one boot in sixty, and in tests that flip static keys or
# load livepatches, e.g. at foliotune_try_to_unmap_one+0xf8).  Single-
# threaded TCG has not shown it.
accel="tcg,thread=${VMRUN_TCG_THREAD:-single}"
# No CX16: QEMU 7.2's TCG now and then leaves garbage in EFLAGS (TF, NT,
# reserved bits) around SLUB's fast path, whose per-cpu cmpxchg16b is the
# one CX16 user there; the guest dies with a double fault, a #DB WARNING or
# a wild oops in kmem_cache_alloc / __kmalloc.  Without CX16 the kernel
# takes its own cmpxchg16b emulation (docs/qemu-test-box.md has the count).
cpu=${VMRUN_CPU:-max,-cx16}
if [ "${VMRUN_KVM:-auto}" = 1 ] || { [ "${VMRUN_KVM:-auto}" = auto ] && [ -w /dev/kvm ] &&
	grep -qwE 'vmx|svm' /proc/cpuinfo; }; then
	accel="kvm"
	cpu="host,-arch-capabilities"
fi

drive_args=()
for d in "${disks[@]}"; do
	drive_args+=(-drive "file=$d,format=raw,if=virtio,cache=unsafe")
done

# watchdog_thresh=60 (the maximum): a soft lockup is reported after 120 s
# instead of 20.  On a busy host a TCG vCPU can go without host CPU time
# for tens of seconds (seen: the stock kernel "stuck for 26..78 s" in
# clear_page_erms while filling the hugetlb pool, with the host at load 8;
# the same allocation takes 2 s on an idle core).  A real lockup still
# shows, and a hang still hits the host-side timeout (exit 251).
# hung_task_panic=1: a task blocked for 120 s (its stack is printed, which
# the console gate fails) ends the boot at once instead of at the timeout
# (the stall it is for: docs/qemu-test-box.md); every CPU's backtrace with
# it shows whether a vCPU was stuck or I/O never completed.
share_args=(
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	-virtfs "local,path=$repo,mount_tag=hostshare,security_model=none,multidevs=remap"
)
# virtiofs: one virtiofsd per share and boot (it ends with the connection);
# guest RAM must be a shared memory backend.  The root share is mounted
# read-only by the guest's init (this virtiofsd has no read-only mode).
vfs_pids=()
start_virtiofsd() {
	local sock
	vfs_pids=()
	share_args=(-object "memory-backend-memfd,id=mem,size=$mem,share=on" -numa node,memdev=mem)
	for s in "hostroot:/:always" "hostshare:$repo:none"; do
		sock=$rundir/${s%%:*}.sock
		rm -f "$sock"
		IFS=: read -r tag path cache <<< "$s"
		"$virtiofsd" --socket-path="$sock" -o source="$path" -o cache="$cache" \
			-o sandbox=chroot -o log_level=err 2>> "$rundir/virtiofsd.log" &
		vfs_pids+=($!)
		share_args+=(-chardev "socket,id=$tag,path=$sock" -device "vhost-user-fs-pci,chardev=$tag,tag=$tag")
	done
	for s in hostroot hostshare; do
		for _ in $(seq 50); do [ -S "$rundir/$s.sock" ] && break; sleep 0.1; done
	done
}
stop_virtiofsd() {
	local p
	for p in "${vfs_pids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	vfs_pids=()
}

boot_once() {
	local log=$1
	[ "$fs" = virtiofs ] && start_virtiofsd
	timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 \
		-nodefaults -no-user-config -nographic -serial mon:stdio \
		-bios /usr/share/qemu/qboot.rom -accel "$accel" -cpu "$cpu" \
		-smp "$cpus" -m "$mem" -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 quiet panic=-1 oops=panic mitigations=off watchdog_thresh=60 hung_task_panic=1 sysctl.kernel.hung_task_all_cpu_backtrace=1 vmrun.dir=$rundir vmrun.share=$repo vmrun.fs=$fs$append" \
		"${share_args[@]}" \
		"${drive_args[@]}" </dev/null 2>&1 | stdbuf -o0 tr -d '\r' |
		if [ "$quiet" = 1 ]; then
			cat > "$log"
		elif [ "$verbose" = 1 ]; then
			tee "$log"
		else
			tee "$log" | grep --line-buffered -vE '^\[ *[0-9]+\.[0-9]+\] |^VMRUN_'
		fi
	[ "$fs" = virtiofs ] && stop_virtiofsd
	return 0
}

attempt=0
early_deaths=0
while :; do
	attempt=$((attempt + 1))
	log=$rundir/console.$attempt.log
	rm -f "$rundir/rc"
	boot_once "$log"
	if grep -q '^VMRUN_START' "$log"; then
		break
	fi
	early_deaths=$((early_deaths + 1))
	echo "vmrun: guest died before the command started (attempt $attempt):" >&2
	grep -E 'Oops|panic|VMRUN_INIT_FAILED|error' "$log" | head -5 >&2
	if [ "$early_deaths" -gt "$retries" ]; then
		echo "vmrun: giving up after $early_deaths early deaths; log: $log" >&2
		exit 250
	fi
done
cp "$log" "$rundir/console.log"
[ -n "$logcopy" ] && cp "$log" "$logcopy"
[ -n "$logcopy" ] && [ -f "$rundir/dmesg.txt" ] && cp "$rundir/dmesg.txt" "${logcopy%.log}.dmesg.txt"
[ "$early_deaths" -gt 0 ] && echo "vmrun: note: $early_deaths early boot death(s) retried" >&2

if [ ! -s "$rundir/rc" ]; then
	echo "vmrun: guest crashed or timed out while the command ran; log: $rundir/console.log" >&2
	grep -nE 'BUG|Oops|panic|Call Trace|WARNING' "$rundir/console.log" | head -20 >&2
	exit 251
fi
rc=$(cat "$rundir/rc")

if [ "$gate" = 1 ]; then
	if ! "$here/console-gate.sh" "$rundir/console.log" ||
	   { [ -f "$rundir/dmesg.txt" ] && ! "$here/console-gate.sh" "$rundir/dmesg.txt"; }; then
		echo "vmrun: console gate failed (command exit status $rc); log: $rundir/console.log" >&2
		exit 252
	fi
fi
exit "$rc"
