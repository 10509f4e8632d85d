#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild-run.sh KVER COMMAND... - run COMMAND (a kbuild make for kernel
# build KVER) with the compiler KVER's headers name.  A Debian 13 build
# (+deb13, trixie and trixie-backports) names trixie's gcc-14, a Debian 14
# one (+deb14: unstable's Linux 7) unstable's gcc-16: where that compiler
# is missing (a bookworm host, the QEMU test box, which runs the host's
# root), COMMAND runs in the cached build root of that suite
# (buildroot.sh), after a check that its compiler is the one the build was
# made with (the headers' CONFIG_CC_VERSION_TEXT; unstable moves on); on a
# machine with the compiler (Debian 13 itself), and for bookworm builds
# (gcc-12), it runs as it is.  The Makefile's KBUILD_RUN and the host tests
# that build modules use this.
#
# kbuild-run.sh KVER --prepare: make the build root KVER needs, if any
# (make deps).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kver=${1:?usage: kbuild-run.sh KVER COMMAND... | kbuild-run.sh KVER --prepare}
shift
case $kver in
*+deb13*) suite=trixie cc=gcc-14 ;;
*+deb14*) suite=sid cc=gcc-16 ;;
*) suite="" cc="" ;;
esac
if [ "${1:-}" = --prepare ]; then
	[ -z "$suite" ] || command -v "$cc" >/dev/null || exec "$here/buildroot.sh" "$suite"
	exit 0
fi
# The build root sees only the worktree, the kernel cache, /tmp and /var/tmp
# (buildroot.sh): a kernel tree (-C DIR) elsewhere is refused here, in one
# line, rather than by make inside it ("No such file or directory").
in_buildroot() {
	local repo cache prev= a real kdir="" want have
	repo=$(cd "$here/../.." && pwd)
	cache=$(readlink -f "${FT_CACHE:-/var/cache/foliotune}")
	for a in "$@"; do
		if [ "$prev" = -C ]; then
			real=$(readlink -m "$a")
			kdir=$real
			case $real/ in
			"$repo"/* | "$cache"/* | /tmp/* | /var/tmp/*) ;;
			*)
				echo "kbuild-run: $a ($real) is outside what the $suite build root sees (worktree, $cache, /tmp): give KDIR=$cache/kernels/$kver/headers/usr/src/linux-headers-$kver (scripts/kernels/fetch.sh $kver headers)" >&2
				exit 1 ;;
			esac
		fi
		prev=$a
	done
	"$here/buildroot.sh" "$suite"
	# The compiler the headers name, against the build root's.
	want=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$kdir/.config" 2>/dev/null || true)
	if [ -n "$want" ]; then
		have=$(chroot "$("$here/buildroot.sh" "$suite" --dir)" "x86_64-linux-gnu-$cc" --version 2>/dev/null | head -1)
		[ "$have" = "$want" ] || {
			echo "kbuild-run: $kver was built by '$want', the $suite build root has '${have:-no x86_64-linux-gnu-$cc}': remake it (rm -r $("$here/buildroot.sh" "$suite" --dir)), or, if $suite has moved past that compiler, this build cannot be built for exactly" >&2
			exit 1
		}
	fi
	exec "$here/buildroot.sh" "$suite" -- "$@"
}
[ -z "$suite" ] || command -v "$cc" >/dev/null || in_buildroot "$@"
exec "$@"
