#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The batched-unmap integrity suite (integrity.sh) with the module loaded and
# zram swap active.  Its own test-box boot: a crash here cannot hide the
# results of the other suites.
. "$(dirname "$0")/../../lib.sh"
run=$(dirname "$0")/integrity.sh
ft_unload
# The plan is integrity.sh's (asked once the module is in: it depends on it) and
# our 4 lines; a failed load leaves integrity.sh its "not loaded" plan.
zram_ok=0 load_ok=0
ft_zram_swap 1G && zram_ok=1
ft_load && load_ok=1
plan $(( 4 + $(bash "$run" -P) ))
check "unmap suite: zram swap" test "$zram_ok" = 1
check "unmap suite: load foliotune" test "$load_ok" = 1
bash "$run" | sed -u "s/^1\.\./# integrity.sh plans /"
check_eq "unmap suite: integrity.sh exit status" 0 "${PIPESTATUS[0]}"
check "unmap suite: unload foliotune" ft_unload
ft_zram_swapoff
