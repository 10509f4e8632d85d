#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# support.sh [RELEASE VERSION] - does foliotune support this kernel?  The
# one support check, the module's own (module/build_check.c): the release
# (`uname -r`) and the version string (`uname -v`, /proc/sys/kernel/version)
# must both be those of a module/verified/ header, or of the header make
# verify-kernel wrote on this machine for the kernel it runs
# ($FT_STATE_DIR/verified/, default /var/lib/foliotune; docs/own-box.md),
# which the line says ("verified locally on HOST ... at TIME").  Default:
# the running kernel.  The CLI compiles the same table in (userspace/Makefile); make
# asks this script on a machine that runs the build it makes.
#
# One line: on standard output and exit 0 when supported; else on standard
# error, with the next step (verify this build, or the verified builds to
# boot), and exit 1.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -eq 2 ]; then
	rel=$1 ver=$2
elif [ $# -eq 0 ]; then
	rel=$(uname -r) ver=$(uname -v)
else
	echo "usage: support.sh [RELEASE VERSION]" >&2
	exit 2
fi

# header_version FILE: FT_VERIFIED_VERSION of a header (one or two lines)
header_version() {
	sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' "$1" | head -1
}
verified=$(cd "$repo/module/verified" && LC_ALL=C ls -- *.h 2>/dev/null | sed 's/\.h$//' | grep -v -- '-ftdebug$' | tr '\n' ' ')
verified=${verified% }
no() {
	echo "foliotune does not support $rel ($ver): $*" >&2
	exit 1
}

case "$rel $ver" in
*-rt-* | *PREEMPT_RT*)
	no "PREEMPT_RT kernels cannot be supported (the per-CPU fault-around record assumes preemption is off under the page-table lock); boot a verified build: ${verified// /, }" ;;
esac
h=$repo/module/verified/$rel.h
if [ -r "$h" ]; then
	want=$(header_version "$h")
	[ "$ver" = "$want" ] && { echo "foliotune supports $rel ($ver): module/verified/$rel.h"; exit 0; }
	no "module/verified/$rel.h was verified on version '$want', not this one; verify this build: make verify-kernel KVER=$rel (docs/kernels.md)"
fi
h=${FT_STATE_DIR:-/var/lib/foliotune}/verified/$rel.h
if [ -r "$h" ]; then
	want=$(header_version "$h")
	by=$(sed -n 's/^#define FT_VERIFIED_BY[[:space:]]*"\(.*\)"$/\1/p' "$h")
	[ "$ver" = "$want" ] && { echo "foliotune supports $rel ($ver): verified locally ${by:-(no machine named)}, $h"; exit 0; }
	no "$h was verified on version '$want', not this one; verify this build again: sudo FT_TEST_BOX=1 make verify-kernel (docs/own-box.md)"
fi
case "$rel" in
6.12.*+deb1[23]*-amd64)
	no "this build is not verified; verify it: make verify-kernel KVER=$rel (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md), or boot a verified build: ${verified// /, }" ;;
*)
	no "foliotune serves Debian 6.12 builds; boot a verified one: ${verified// /, }" ;;
esac
