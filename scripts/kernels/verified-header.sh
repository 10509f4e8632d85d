#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verified-header.sh KVER VERSION PKGVER PATCH CC SIZES [--local ROOT] - the
# verified header make verify-kernel writes (scripts/kernels/verify.sh), on
# standard output.  What a header holds and what the module checks with it
# is said once, in docs/kernels.md ("Verified headers"): the header's
# comment points there.  VERSION is the build's `uname -v`, PKGVER its Debian
# package version, PATCH the module/kcopy/ patch the copies were made with,
# CC its compiler, SIZES a file of "FUNCTION SIZE" lines (binary-check.py).
#
# --local ROOT: the header of a build verified on the machine that runs it
# (written to /var/lib/foliotune/verified/, never committed).  It defines
# FT_VERIFIED_BY: the machine (its hostname and a hash of /etc/machine-id,
# never the id itself) and the time, which the module's refusal line,
# debugfs "build", foliotune status and support.sh show.  ROOT prefixes
# /proc and /etc (empty on the machine; a fake root in host tests).
set -euo pipefail
[ $# = 6 ] || [ $# = 8 ] || {
	echo "usage: verified-header.sh KVER VERSION PKGVER PATCH CC SIZES [--local ROOT]" >&2
	exit 2
}
kver=$1 version=$2 pkgver=$3 patch=$4 cc=$5 sizes=$6
local_root=""
local=0
if [ $# = 8 ]; then
	[ "$7" = --local ] || { echo "verified-header.sh: unknown option $7" >&2; exit 2; }
	local=1 local_root=$8
fi
repo=$(cd "$(dirname "$0")/../.." && pwd)
now=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)

if [ "$local" = 1 ]; then
	host=$({ cat "$local_root/proc/sys/kernel/hostname" 2>/dev/null || hostname; } | tr -cd "A-Za-z0-9.-")
	[ -n "$host" ] || host=unnamed	# ("(none)" before anything names it)
	if [ -s "$local_root/etc/machine-id" ]; then
		mid="machine-id sha256 $(sha256sum < "$local_root/etc/machine-id" | cut -c1-16)"
	else
		mid="no /etc/machine-id"
	fi
	by="on $host ($mid) at $now"
	where="on the machine that runs it, not a header of the tree
 * (docs/own-box.md, \"Verifying the running kernel\")"
else
	where="(docs/kernels.md, \"Verified headers\")"
fi

cat <<EOT
/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel build foliotune is verified on, written by make verify-kernel
 * $where; do not edit, verify again.
 *
 * Verified $(date -u +%Y-%m-%d) at commit $commit.
 * Copies made with module/kcopy/$patch.
 * Compiler: $cc
 */
#define FT_VERIFIED_RELEASE	"$kver"
#define FT_VERIFIED_VERSION	\\
	"$version"
#define FT_VERIFIED_SOURCE	"linux-source-$(echo "$kver" | cut -d. -f1,2) $pkgver"
EOT
if [ "$local" = 1 ]; then
	cat <<EOT
/* Verified on this machine, not in the tree: which machine, and when. */
#define FT_VERIFIED_BY	"$by"
EOT
fi
printf '\n/* Functions foliotune replaces, with their size in this build. */\n'
while read -r fn size; do
	printf '#define FT_VERIFIED_SIZE_%s\t%s\n' "$fn" "$size"
done < "$sizes"
