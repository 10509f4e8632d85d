#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# buildroot.sh SUITE [--dir | -- COMMAND...] - a minimal Debian build root
# (mmdebstrap, Debian's own packages) in $FT_CACHE/buildroot-SUITE, made
# once and reused.  A module for a Debian 13 kernel must be compiled by
# Debian 13's gcc-14, which bookworm does not have; one for unstable's
# Linux 7 (+deb14) by unstable's gcc-16 (SUITE sid).
#
#   buildroot.sh trixie            make it if missing
#   buildroot.sh trixie --dir      print its path (made or not)
#   buildroot.sh trixie -- CMD...  run CMD in it, in the current directory,
#                                  with the worktree, the cache, /tmp and
#                                  /var/tmp bound at their own paths
#                                  (private mount namespace:
#                                  nothing stays mounted afterwards)
set -euo pipefail
suite=${1:?usage: buildroot.sh SUITE [--dir | -- COMMAND...]}
shift
cache=${FT_CACHE:-/var/cache/foliotune}
root=$cache/buildroot-$suite
repo=$(cd "$(dirname "$0")/../.." && pwd)
mirror=${FT_DEBIAN_MIRROR:-http://deb.debian.org}
# What kbuild needs for an external module, plus what linux-kbuild depends on.
case $suite in
sid) cc=gcc-16 ;;
*) cc=gcc-14 ;;
esac
pkgs=$cc,make,libc6-dev,libelf-dev,bc,pahole,kmod,binutils,libssl3t64,zlib1g,xz-utils
# (unstable has no security suite)
sources=("deb $mirror/debian $suite main")
[ "$suite" = sid ] || sources+=("deb $mirror/debian-security $suite-security main")
# mmdebstrap's apt does not read the host's apt.conf.d: a host that accepts
# expired Release files (a mirror frozen in time) passes that on.
aptopts=()
eval "$(apt-config shell valid_until Acquire::Check-Valid-Until)"
[ "${valid_until:-}" != false ] || aptopts+=(--aptopt='Acquire::Check-Valid-Until "false"')

if [ "${1:-}" = --dir ]; then
	echo "$root"
	exit 0
fi

if [ ! -e "$root/.complete" ]; then
	[ "$(id -u)" = 0 ] || { echo "buildroot: $root missing and making it needs root" >&2; exit 1; }
	command -v mmdebstrap >/dev/null || { echo "buildroot: mmdebstrap missing: apt-get install mmdebstrap" >&2; exit 1; }
	echo "buildroot: making $root (Debian $suite, $pkgs)" >&2
	tmp=$(mktemp -d "$cache/.buildroot-$suite.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	if ! mmdebstrap --quiet --variant=minbase --include="$pkgs" "${aptopts[@]}" \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$suite" "$tmp/root" "${sources[@]}" >&2; then
		echo "buildroot: mmdebstrap $suite failed (network? FT_DEBIAN_MIRROR=$mirror)" >&2
		exit 1
	fi
	chroot "$tmp/root" dpkg-query -W -f='${Package} ${Version}\n' "$cc" make libelf-dev pahole > "$tmp/root/.complete"
	rm -rf "$root"
	mv "$tmp/root" "$root"
	rmdir "$tmp"
	trap - EXIT
fi
[ "${1:-}" = -- ] || exit 0
shift
[ $# -ge 1 ] || { echo "usage: buildroot.sh SUITE -- COMMAND..." >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "buildroot: running in $root needs root (chroot)" >&2; exit 1; }
# The bind targets are the same paths inside the root, so every path the
# Makefile computes (worktree, KDIR in the cache) means the same thing.
exec unshare --mount --propagation private -- /bin/bash -c '
	set -e
	root=$1 repo=$2 cache=$3 cwd=$4
	shift 4
	for d in proc sys dev; do mount --rbind "/$d" "$root/$d"; done
	mkdir -p "$root$repo" "$root$cache"
	mount --bind "$repo" "$root$repo"
	mount --bind "$cache" "$root$cache"
	mount --bind /tmp "$root/tmp"
	mount --bind /var/tmp "$root/var/tmp"
	exec chroot "$root" /usr/bin/env -C "$cwd" "$@"
' bash "$root" "$repo" "$cache" "$PWD" "$@"
