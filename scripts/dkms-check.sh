#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dkms-check.sh KVER - dkms's PRE_BUILD hook (dkms.conf): fail in one line
# unless foliotune can be built for KVER here.  It needs a verified build
# (module/verified/KVER.h, or this machine's own header, which make
# verify-kernel writes into $FT_STATE_DIR/verified/, default
# /var/lib/foliotune: docs/own-box.md) and that build's symbol table, which
# a machine reads from its own /proc/kallsyms: for another kernel than the
# running one, the build waits until the machine runs it (then: verify it
# there if it is not verified, and dkms autoinstall).
kver=${1:?usage: dkms-check.sh KVER}
cd "$(dirname "$0")/.." || exit 1
state=${FT_STATE_DIR:-/var/lib/foliotune}
if [ ! -f "module/verified/$kver.h" ] && [ ! -f "$state/verified/$kver.h" ]; then
	echo "foliotune: not building for $kver: this kernel build is not verified (no module/verified/$kver.h nor $state/verified/$kver.h): once it runs, verify it from foliotune's source tree with sudo FT_TEST_BOX=1 make verify-kernel, then dkms autoinstall (docs/own-box.md)" >&2
	exit 1
fi
if [ "$kver" != "$(uname -r)" ] && [ ! -s "build/kallsyms-$kver.txt" ]; then
	echo "foliotune: not building for $kver yet: its symbols come from /proc/kallsyms once it runs (dkms autoinstall)" >&2
	exit 1
fi
exit 0
