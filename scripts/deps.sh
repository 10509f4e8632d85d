#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh KVER - install everything foliotune builds and tests with, from
# Debian's packages.  Idempotent and quiet when everything is there.
#
# No kernel is installed on the host: the test box's kernels (KVER, the
# wrong kernel of the refusal test) and their headers are unpacked into the
# kernel cache (scripts/kernels/fetch.sh), and a Debian 13 build gets its
# compiler (gcc-14) from a cached trixie build root when the host has none,
# unstable's Linux 7 (+deb14) its gcc-16 from a sid one
# (scripts/kernels/kbuild-run.sh, buildroot.sh).
#
# On a test box that runs a verified build (module/verified/$(uname -r).h,
# or the box's own header from make verify-kernel, /var/lib/foliotune/
# verified/$(uname -r).h) and is not building for another one, only what building and running
# foliotune there needs: the running kernel's headers from Debian's
# registry, the compiler they name, the tools the suites use.  No QEMU, no
# kernel cache, never another kernel.
set -euo pipefail
kver=${1:?usage: deps.sh KVER}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
running=$(uname -r)
on_box=0
[ "$kver" = "$running" ] && [ -f "$repo/module/verified/$running.h" ] && on_box=1
[ "$kver" = "$running" ] && [ -f "${FT_STATE_DIR:-/var/lib/foliotune}/verified/$running.h" ] && on_box=1
if [ "$on_box" = 1 ]; then
	pkgs=(
		build-essential libelf-dev pkg-config bc kmod xz-utils zstd
		dwarves "linux-headers-$running" xfsprogs util-linux bpftrace
		stress-ng liburing-dev python3 gnuplot-nox
		# man foliotune: make install puts the man page there
		man-db
	)
else
pkgs=(
	# dwarves: pahole, which kbuild runs to give a module BTF on
	# kernels built with DEBUG_INFO_BTF_MODULES (every Debian 6.12)
	build-essential gcc-12 libelf-dev pkg-config bc dwarves
	kmod cpio busybox-static xz-utils zstd
	qemu-system-x86 xfsprogs util-linux bpftrace
	# bats: the CLI's host tests (tests/host/cli/*.bats)
	valgrind gnuplot-nox bats
	stress-ng liburing-dev python3 python3-scipy
	# the kernel cache and the Debian 13 build root
	debian-archive-keyring mmdebstrap binutils
	# the debug-kernel lane (harness/debug-kernel/build.sh) builds a kernel
	flex bison libssl-dev
)
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=900 update -qq
	apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "$on_box" = 1 ] && exit 0

# Into the cache (each a no-op once there): KVER's image, headers and the
# source files foliotune's copies are made from (make kcopy), the kernel
# tests/guest/reliability/wrongkernel.sh boots, the build root KVER's
# compiler needs (trixie's gcc-14, unstable's gcc-16).
"$here/kernels/fetch.sh" "$kver" image headers source
"$here/kernels/fetch.sh" "${FT_WRONG_KVER:-6.1.0-57-amd64}" image
"$here/kernels/kbuild-run.sh" "$kver" --prepare
