#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verify.sh KVER - prove foliotune on one Debian kernel build (make
# verify-kernel KVER=...), then write its verified header.  Two modes:
#
#   tree   (KVER is not the running kernel): in the QEMU test box; writes
#          module/verified/KVER.h, to be committed.
#   local  (KVER is the running kernel, on the user's own test box): no
#          QEMU; the image is /boot/vmlinuz-KVER, the symbols the machine's
#          own /proc/kallsyms, and the smoke suite runs on the machine
#          itself, so it needs root and FT_TEST_BOX=1 (as make check-box);
#          writes /var/lib/foliotune/verified/KVER.h (FT_STATE_DIR), which
#          names the machine and the time and is never part of the tree.
#   FT_VERIFY_LOCAL=1 asks for local (and refuses another KVER than the
#   running one), FT_VERIFY_LOCAL=0 for tree (a developer box that runs a
#   Debian build and verifies it for the tree).
#
# Stages, each timed; the first failure stops the run with one line naming
# what failed and how to go on, and leaves no header (nor any partial cache
# entry):
#
#   fetch    tree: image, headers and the source package of KVER into the
#            cache (scripts/kernels/fetch.sh; cached after the first run);
#            local: the source package only, of the version `uname -v`
#            names, through the same private apt configuration (apt.sh;
#            the host's apt sources are never used)
#   config   what the test box and the livepatch need: LIVEPATCH, KPROBES,
#            9p or virtiofs (the box's root; tree only), no PREEMPT_RT
#   source   foliotune's copies of kernel code are made from KVER's source:
#            module/kcopy/'s patch applies with no fuzz, every change marked
#            (make kcopy: scripts/kernels/kcopy.py)
#   symbols  tree: one boot with nokaslr: /proc/kallsyms and `uname -v`
#            (cached); local: the machine's /proc/kallsyms and version
#   binary   vmlinux from the image (scripts/extract-vmlinux, cached); no
#            clones, no inlined call sites, every klp symbol resolves, the
#            replaced functions' sizes (scripts/kernels/binary-check.py;
#            local: kallsyms rebased by the KASLR offset)
#   build    module built against a candidate header (make verify-module)
#   boot     tree: the module loads in the test box and tests/guest/smoke-suite.sh
#            passes with a clean console; local: the same suite on this
#            machine (harness/own-box/box-lib.sh: scratch xfs on a loop device), and
#            the console gate on its kernel log
#
# Timings: build/verify/KVER/times.txt.  FT_VERIFY_SKIP_BOOT=1 stops after
# "build" without writing the header (for looking at a build quickly).
# Testing only (tests/host/test-verify-local.sh): FT_VERIFY_ROOT prefixes
# /proc, /boot, /etc and /var/lib/foliotune; FT_VERIFY_UID replaces the
# effective uid.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
kver=${1:?usage: verify.sh KVER}
k=scripts/kernels
cache=${FT_CACHE:-/var/cache/foliotune}
work=$repo/build/verify/$kver
root=${FT_VERIFY_ROOT:-}
state=${FT_STATE_DIR:-$root/var/lib/foliotune}

die() { echo "verify-kernel $kver: $*" >&2; exit 1; }

# The mode (above), before anything is fetched, built or written.
running=$(cat "$root/proc/sys/kernel/osrelease" 2>/dev/null || uname -r)
case "${FT_VERIFY_LOCAL:-}" in
1) [ "$kver" = "$running" ] ||
	die "FT_VERIFY_LOCAL=1 verifies the running kernel, $running, not KVER=$kver: run make verify-kernel without KVER (or FT_VERIFY_LOCAL=0 for the QEMU test box)"
	vmode=local ;;
0) vmode=tree ;;
"") if [ "$kver" = "$running" ]; then vmode=local; else vmode=tree; fi ;;
*) die "FT_VERIFY_LOCAL=$FT_VERIFY_LOCAL: use 1 (this machine) or 0 (the QEMU test box)" ;;
esac
header_tree=module/verified/$kver.h
if [ "$vmode" = local ]; then
	header=$state/verified/$kver.h
else
	header=$header_tree
fi
t_all=$(date +%s)
stage() {
	[ -n "${st:-}" ] && echo "$st $(( $(date +%s) - t0 ))" >> "$work/times.txt"
	st=$1; t0=$(date +%s)
	# (progress on standard output: standard error is the one line of a failure)
	[ "$st" = done ] || echo "verify-kernel $kver: $st"
}

rt="refused: PREEMPT_RT (the per-CPU fault-around record assumes preemption is off under the page-table lock); boot a Debian build without -rt"
case "$kver" in
*-rt-amd64) die "$rt" ;;
6.12.*+deb1[23]*-amd64 | 7.*+deb1[3-9]*-amd64) ;;
*) die "'$kver' is not a Debian 6.12 or Linux 7 build (e.g. 6.12.118+deb13-amd64, 7.3.4+deb13-amd64; scripts/kernels/list.sh lists them)" ;;
esac
# the source package (fetch.sh): linux-source-6.12, linux-source-7.3, ...
srcpkg=linux-source-$(echo "$kver" | cut -d. -f1,2)

# Local: every reason not to start on this machine, first.
if [ "$vmode" = local ]; then
	version=$(cat "$root/proc/sys/kernel/version" 2>/dev/null) ||
		die "cannot read $root/proc/sys/kernel/version"
	case "$version" in *PREEMPT_RT*) die "$rt" ;; esac
	# The tree's own verification of this very build: nothing to do.
	if [ -z "${FT_VERIFY_LOCAL:-}" ] && [ -r "$header_tree" ] &&
	   grep -qF "\"$version\"" "$header_tree"; then
		echo "verify-kernel $kver: already verified in the tree ($header_tree): nothing to do (FT_VERIFY_LOCAL=1 verifies it on this machine all the same)" >&2
		exit 0
	fi
	[ "${FT_TEST_BOX:-}" = 1 ] ||
		die "verifying the running kernel loads foliotune and runs its smoke suite on THIS machine (livepatch, reclaim, a scratch xfs): set FT_TEST_BOX=1 on a test box you can afford to crash (docs/own-box.md), or FT_VERIFY_LOCAL=0 to verify in the QEMU test box"
	[ "${FT_VERIFY_UID:-$(id -u)}" = 0 ] ||
		die "verifying the running kernel reads /proc/kallsyms and loads the module: run as root (sudo FT_TEST_BOX=1 make verify-kernel)"
	# Linux 7 packages install both under /usr/lib/modules/KVER/
	# (vmlinuz, config); /boot has them only through linux-base's
	# legacy-boot hook.  6.12 has /boot only.
	image=$root/boot/vmlinuz-$kver
	config=$root/boot/config-$kver
	[ -r "$image" ] || [ ! -r "$root/usr/lib/modules/$kver/vmlinuz" ] || image=$root/usr/lib/modules/$kver/vmlinuz
	[ -r "$config" ] || [ ! -r "$root/usr/lib/modules/$kver/config" ] || config=$root/usr/lib/modules/$kver/config
	[ -r "$image" ] ||
		die "$image is missing: the running kernel's image is not in /boot; reinstall it (apt-get install --reinstall linux-image-$kver) and run again"
	[ -r "$config" ] ||
		die "$config is missing: reinstall the running kernel's package (apt-get install --reinstall linux-image-$kver) and run again"
	# "... Debian 6.12.118-1 (2025-11-...)": the package the build came from
	pkgver=$(echo "$version" | sed -n 's/.* Debian \([0-9][^ ]*\) .*/\1/p')
	[ -n "$pkgver" ] ||
		die "the running kernel's version '$version' names no Debian package version: only Debian's own builds can be verified"
	awk '$3 == "_text" { found = 1; exit $1 ~ /^0+$/ } END { exit !found }' "$root/proc/kallsyms" 2>/dev/null ||
		die "$root/proc/kallsyms shows no addresses (kptr_restrict or not root): run as root with kernel.kptr_restrict < 2"
	# what make check-box needs of the machine too (lockdown, swap, ...)
	(FT_BOX_ROOT=$root FT_BOX_UID=${FT_VERIFY_UID:-} && . harness/own-box/box-lib.sh && box_preflight verify) || exit 1
fi

rm -rf "$work"
mkdir -p "$work"
: > "$work/times.txt"
# On any failure: no candidate header left behind either.
trap '[ "$?" = 0 ] || [ "${FT_VERIFY_SKIP_BOOT:-0}" = 1 ] || rm -f "$work/verified.h" "$header.tmp"' EXIT

stage fetch
if [ "$vmode" = local ]; then
	export FT_SOURCE_VERSION=$pkgver
	if ! $k/fetch.sh "$kver" source > "$work/fetch.txt" 2>&1; then
		die "the source package $srcpkg $pkgver cannot be fetched ($(grep -v '^kernels: fetching' "$work/fetch.txt" | tail -1)): check the network (or FT_DEBIAN_MIRROR); a kernel older than the archive's current one is not there any more: upgrade it (apt-get upgrade), reboot, and run again"
	fi
	src=$($k/fetch.sh "$kver" --path source)
else
	$k/fetch.sh "$kver" image headers source || die "fetch failed (above); fix the cause and run again"
	kdir=$($k/fetch.sh "$kver" --path kdir)
	src=$($k/fetch.sh "$kver" --path source)
	pkgver=$($k/fetch.sh "$kver" --path version)
	image=$($k/fetch.sh "$kver" --path kernel)
	config=$(dirname "$image")/config-$kver
fi

stage config
for opt in LIVEPATCH KPROBES DEBUG_FS KALLSYMS_ALL; do
	grep -qE "^CONFIG_$opt=[ym]" "$config" ||
		die "CONFIG_$opt is not set in $config: foliotune cannot work on this build"
done
[ "$vmode" = local ] || grep -qE '^CONFIG_(9P_FS|VIRTIO_FS)=[ym]' "$config" ||
	die "neither 9p nor virtiofs in $config: the test box cannot mount its root"
grep -q '^CONFIG_PREEMPT_RT=y' "$config" && die "$rt"

stage source
# (another package version of the same release may have made the copies)
[ "$vmode" = tree ] || rm -f "build/kcopy/$kver/patch"
if ! make --no-print-directory KVER="$kver" KCOPY_KSRC="$src" kcopy > "$work/source.txt" 2>&1; then
	if [ "$vmode" = local ]; then
		die "foliotune's patch does not apply to this kernel's source, $srcpkg $pkgver (build/verify/$kver/source.txt): this foliotune cannot patch it; update foliotune (git pull), or boot a verified build (scripts/kernels/support.sh lists them)"
	fi
	grep -v '^make' "$work/source.txt" >&2
	die "foliotune's copies cannot be made from $srcpkg $pkgver (above): port module/kcopy/ (docs/kernels.md), then make verify-kernel again"
fi
kcopy=$(cut -d" " -f1 "build/kcopy/$kver/patch")

stage symbols
mkdir -p build
if [ "$vmode" = local ]; then
	syms=$work/kallsyms.txt
	cat "$root/proc/kallsyms" > "$syms" || die "cannot read $root/proc/kallsyms"
elif syms=$cache/kernels/$kver/kallsyms.txt; [ ! -s "$syms" ] || [ ! -s "$cache/kernels/$kver/version.txt" ]; then
	harness/vm/vmrun.sh -k "$kver" -q -a nokaslr -- \
		"cat /proc/kallsyms > $work/kallsyms.txt && uname -v > $work/version.txt" ||
		die "the test box could not boot $kver to read /proc/kallsyms (log: build/vm/runs/last/console.log)"
	mv "$work/kallsyms.txt" "$syms.tmp" && mv "$syms.tmp" "$syms"
	mv "$work/version.txt" "$cache/kernels/$kver/version.txt"
fi
[ "$vmode" = local ] || version=$(cat "$cache/kernels/$kver/version.txt")
cp "$syms" "build/kallsyms-$kver.txt"

stage binary
vmlinux=$cache/kernels/$kver/vmlinux
kaslr=()
if [ "$vmode" = local ]; then
	# this machine's image, not the cache's; its kallsyms moved by KASLR
	vmlinux=$work/vmlinux
	kaslr=(--kaslr)
fi
if [ ! -s "$vmlinux" ]; then
	sh "$src/scripts/extract-vmlinux" "$image" > "$vmlinux.tmp" && mv "$vmlinux.tmp" "$vmlinux" ||
		{ rm -f "$vmlinux.tmp"; die "scripts/extract-vmlinux could not unpack $image"; }
fi
if ! python3 $k/binary-check.py "${kaslr[@]}" "$repo" "$syms" "$vmlinux" "$src" "$config" > "$work/sizes.txt"; then
	cat "$work/sizes.txt" >&2
	die "the binary does not allow the livepatch (above): foliotune cannot patch this build as it is"
fi
if [ "$vmode" = local ]; then
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$config")
	by=(--local "$root")
else
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$kdir/.config")
	by=()
fi

# The header, first as a candidate for the build and boot stages.
$k/verified-header.sh "$kver" "$version" "$pkgver" "$kcopy" "$cc" "$work/sizes.txt" "${by[@]}" \
	> "$work/verified.h" || die "could not write the candidate header"

stage build
make --no-print-directory KVER="$kver" FT_VERIFY_HEADER="$work/verified.h" verify-module > "$work/build.log" 2>&1 || {
	tail -20 "$work/build.log" >&2
	die "the module does not build for $kver (build/verify/$kver/build.log)"
}
ko=$repo/build/verify/$kver/module/foliotune.ko

if [ "${FT_VERIFY_SKIP_BOOT:-0}" = 1 ]; then
	stage done
	echo "verify-kernel $kver: FT_VERIFY_SKIP_BOOT=1: stopped before the boot; no header written" >&2
	exit 1
fi

stage boot
if [ "$vmode" = local ]; then
	passed=$(harness/own-box/local-smoke.sh "$ko" "$work") ||
		die "the smoke suite failed on this machine (build/verify/$kver/smoke.tap, dmesg.txt): foliotune does not work on this build as it is; report it with those files"
	passed=${passed%% *}
else
	smoke=$(scripts/kernels/smoke.sh "$kver" "$ko" "$work") ||
		die "the smoke suite failed in the test box (above; build/verify/$kver/)"
	passed=${smoke%% *}
fi
echo "smoke $passed passed" >> "$work/times.txt"

stage done
echo "total $(( $(date +%s) - t_all ))" >> "$work/times.txt"
if ! { mkdir -p "$(dirname "$header")" && cp "$work/verified.h" "$header.tmp" && mv "$header.tmp" "$header"; }; then
	die "could not write $header"
fi
if [ "$vmode" = local ]; then
	echo "verify-kernel $kver: now build and install for it: make install, or dkms autoinstall (docs/own-box.md)" >&2
fi
echo "verify-kernel $kver: verified ($passed smoke checks passed); wrote $header" >&2
tr '\n' ' ' < "$work/times.txt" >&2
echo >&2
