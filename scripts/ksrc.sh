#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ksrc.sh DIR - unpack Debian's linux-source-6.12 into DIR (once).
# The kernel copies in module/kcopy/ cite lines of this exact tree, and
# checkpatch.pl comes from it.
set -euo pipefail
dir=${1:?usage: ksrc.sh DIR}
# The package comes through the kernel cache's private apt configuration
# (scripts/kernels/apt.sh), in the version of the default kernel build.
[ -f "$dir/Makefile" ] && exit 0
here=$(cd "$(dirname "$0")" && pwd)
kver=$(cat "$here/kernels/default-kver")
version=$("$here/kernels/fetch.sh" "$kver" --path version)
[ -n "$version" ] || { echo "ksrc: no package version for $kver in the registry" >&2; exit 1; }
parent=$(dirname "$dir")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && "$here/kernels/apt.sh" apt-get -qq download "linux-source-6.12=$version") ||
	{ echo "ksrc: download of linux-source-6.12=$version failed (network?)" >&2; exit 1; }
dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.12_*.deb |
	tar -xO ./usr/src/linux-source-6.12.tar.xz | tar -C "$tmp" -xJ
mv "$tmp/linux-source-6.12" "$dir"
