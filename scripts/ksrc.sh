#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ksrc.sh DIR [KVER] - unpack Debian's linux-source-6.12, in the package
# version of kernel build KVER (default: the default build,
# scripts/kernels/default-kver), into DIR, once.  checkpatch.pl and the
# kernel's mm selftests come from the default build's tree (the Makefile's
# KSRC); the debug-kernel lane builds its own 6.12.117 tree.
#
# DIR/.ft-version records the package version; a DIR that holds another
# version is an error (never replaced: a debug kernel may be built from it).
set -euo pipefail
dir=${1:?usage: ksrc.sh DIR [KVER]}
here=$(cd "$(dirname "$0")" && pwd)
kver=${2:-$(cat "$here/kernels/default-kver")}
# The package comes through the kernel cache's private apt configuration
# (scripts/kernels/apt.sh).
version=$("$here/kernels/fetch.sh" "$kver" --path version)
[ -n "$version" ] || { echo "ksrc: no package version for $kver in the registry" >&2; exit 1; }
if [ -f "$dir/Makefile" ]; then
	if [ -f "$dir/.ft-version" ]; then
		have=$(cat "$dir/.ft-version")
	else
		# a tree unpacked before .ft-version existed: its upstream version
		have=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$dir/Makefile" | paste -sd.)
		version=${version%%-*}
	fi
	[ "$have" = "$version" ] && exit 0
	echo "ksrc: $dir holds linux-source-6.12 $have, $kver needs $version (move it away, or set KSRC)" >&2
	exit 1
fi
parent=$(dirname "$dir")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "ksrc: unpacking linux-source-6.12 $version into $dir" >&2
(cd "$tmp" && "$here/kernels/apt.sh" apt-get -qq download "linux-source-6.12=$version") ||
	{ echo "ksrc: download of linux-source-6.12=$version failed (network?)" >&2; exit 1; }
dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.12_*.deb |
	tar -xO ./usr/src/linux-source-6.12.tar.xz | tar -C "$tmp" -xJ
echo "$version" > "$tmp/linux-source-6.12/.ft-version"
mv "$tmp/linux-source-6.12" "$dir"
