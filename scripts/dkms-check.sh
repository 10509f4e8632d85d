#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dkms-check.sh KVER - dkms's PRE_BUILD hook (dkms.conf): fail in one line
# unless foliotune can be built for KVER here.  It needs a verified build
# (module/verified/KVER.h) and that build's symbol table, which a machine
# reads from its own /proc/kallsyms: for another kernel than the running
# one, the build waits until the machine runs it (dkms autoinstall at boot).
kver=${1:?usage: dkms-check.sh KVER}
cd "$(dirname "$0")/.." || exit 1
if [ ! -f "module/verified/$kver.h" ]; then
	echo "foliotune: not building for $kver: this kernel build is not verified (no module/verified/$kver.h)" >&2
	exit 1
fi
if [ "$kver" != "$(uname -r)" ] && [ ! -s "build/kallsyms-$kver.txt" ]; then
	echo "foliotune: not building for $kver yet: its symbols come from /proc/kallsyms once it runs (dkms autoinstall)" >&2
	exit 1
fi
exit 0
