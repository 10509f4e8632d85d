#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The batched-unmap integrity suite (run.sh) with the module loaded and
# zram swap active.  Its own test-box boot: a crash here cannot hide the
# results of the other suites.
. "$(dirname "$0")/../../lib.sh"
check "unmap suite: zram swap" ft_zram_swap 1G
ft_unload
check "unmap suite: load foliotune" ft_load
bash "$(dirname "$0")/run.sh"
rc=$?
[ "$rc" = 0 ] || not_ok "unmap suite: run.sh exit status $rc"
check "unmap suite: unload foliotune" ft_unload
ft_zram_swapoff
