#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild-run.sh KVER COMMAND... - run COMMAND (a kbuild make for kernel
# build KVER) with the compiler KVER's headers name.  A Debian 13 build
# (+deb13) names gcc-14: where gcc-14 is missing (a bookworm host, the
# QEMU test box, which runs the host's root), COMMAND runs in the cached
# trixie build root (buildroot.sh); on a machine with gcc-14 (Debian 13
# itself), and for bookworm builds (gcc-12), it runs as it is.  The
# Makefile's KBUILD_RUN and the host tests that build modules use this.
set -euo pipefail
kver=${1:?usage: kbuild-run.sh KVER COMMAND...}
shift
# The build root sees only the worktree, the kernel cache, /tmp and /var/tmp
# (buildroot.sh): a kernel tree (-C DIR) elsewhere is refused here, in one
# line, rather than by make inside it ("No such file or directory").
in_buildroot() {
	local repo cache prev= a real
	repo=$(cd "$(dirname "$0")/../.." && pwd)
	cache=$(readlink -f "${FT_CACHE:-/var/cache/foliotune}")
	for a in "$@"; do
		if [ "$prev" = -C ]; then
			real=$(readlink -m "$a")
			case $real/ in
			"$repo"/* | "$cache"/* | /tmp/* | /var/tmp/*) ;;
			*)
				echo "kbuild-run: $a ($real) is outside what the trixie build root sees (worktree, $cache, /tmp): give KDIR=$cache/kernels/$kver/headers/usr/src/linux-headers-$kver (scripts/kernels/fetch.sh $kver headers)" >&2
				exit 1 ;;
			esac
		fi
		prev=$a
	done
	exec "$(dirname "$0")/buildroot.sh" trixie -- "$@"
}
case $kver in
*+deb13*) command -v gcc-14 >/dev/null || in_buildroot "$@" ;;
esac
exec "$@"
