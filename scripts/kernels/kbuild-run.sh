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
case $kver in
*+deb13*) command -v gcc-14 >/dev/null || exec "$(dirname "$0")/buildroot.sh" trixie -- "$@" ;;
esac
exec "$@"
