#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-boots.sh - the debug lane's boots (make debug-run, environment from the
# Makefile's DEBUG_ENV): every guest and reliability boot of tests/run.sh
# and the gate self-tests on the debug kernel, rel-leaks included (its
# FT_LEAK_KO is set), except the two whose subject is not the debug
# kernel.  A boot added to tests/run.sh runs here too unless it is named
# below with its reason.
#   rel-wrongkernel  boots another stock build (FT_WRONG_KVER), not this one
#   rel-lockdown     an unsigned module refused under lockdown=integrity:
#                    the stock kernel's signing policy, which the debug
#                    build does not change
# test-ab's "B faster" needs an effect its pairs can show.  On the debug
# kernel, whose checkers cost every page the same in both arms, the
# batching's effect at 64 MiB is about 0.8x with a 26% spread: 8 pairs
# gave p 0.078 (2026-12-04, in kmemleak's first scan) and 0.148
# (2026-12-06, its automatic scan off).  256 MiB, as on Linux 7, in 12
# pairs.
here=$(cd "$(dirname "$0")" && pwd)
FT_STAGES="guest reliability gate" FT_SUITES_EXCEPT="rel-wrongkernel rel-lockdown" \
	FT_AB_SIZE_MB=256 FT_AB_PAIRS=12 exec "$here/../../tests/run.sh" "$@"
