#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh KVER - install everything foliotune builds and tests with, from
# Debian's packages.  Idempotent and quiet when everything is there.
set -euo pipefail
kver=${1:?usage: deps.sh KVER}
pkgs=(
	build-essential gcc-12 libelf-dev pkg-config bc
	kmod cpio busybox-static xz-utils zstd
	qemu-system-x86 xfsprogs util-linux bpftrace
	valgrind gnuplot-nox
	stress-ng liburing-dev python3
	"linux-image-$kver-unsigned" "linux-headers-$kver"
	linux-source-6.12
	# tests/guest/reliability/wrongkernel.sh boots Debian's 6.1 kernel
	"linux-image-${FT_WRONG_KVER:-6.1.0-57-amd64}-unsigned"
	# the debug-kernel lane (scripts/debug-kernel/build.sh) builds 6.12.117
	flex bison libssl-dev
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" = 0 ] || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=900 update -qq
apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
