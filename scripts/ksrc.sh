#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ksrc.sh DIR - unpack Debian's linux-source-6.12 tarball into DIR (once).
# The kernel copies in module/kcopy/ cite lines of this exact tree, and
# checkpatch.pl comes from it.
set -euo pipefail
dir=${1:?usage: ksrc.sh DIR}
tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$dir/Makefile" ] && exit 0
[ -r "$tarball" ] || { echo "ksrc: $tarball missing: apt-get install linux-source-6.12" >&2; exit 1; }
parent=$(dirname "$dir")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.unpack.XXXXXX")
tar -C "$tmp" -xf "$tarball"
mv "$tmp/linux-source-6.12" "$dir"
rmdir "$tmp"
