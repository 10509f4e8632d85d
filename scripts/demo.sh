#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the README's main job: boot the test box, load foliotune, show
# what it is doing, unload.  Prints a progress line per step.
set -euo pipefail
cd "$(dirname "$0")/.."
KVER=${KVER:-6.12.117+deb12-amd64}
echo "[demo] booting the $KVER test box (QEMU TCG: expect ~6x slower than the host)"
scripts/vm/vmrun.sh -k "$KVER" -- '
. tests/lib.sh
echo "[demo] guest up: $(uname -r) $(uname -v)"
echo "[demo] loading module/foliotune.ko"
ft_load || exit 1
echo "[demo] /sys/kernel/debug/foliotune/build:"; sed "s/^/    /" $FT_DEBUGFS/build
echo "[demo] /sys/kernel/debug/foliotune/vmstat:"; sed "s/^/    /" $FT_DEBUGFS/vmstat
echo "[demo] unloading"
ft_unload
echo "[demo] done"
'
