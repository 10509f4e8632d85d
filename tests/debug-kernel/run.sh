#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the debug lane's boots (make debug-run, environment from the
# Makefile's DEBUG_ENV): every guest and reliability boot of tests/run.sh
# and the gate self-tests on the debug kernel, rel-leaks included (its
# FT_LEAK_KO is set), except the two whose subject is not the debug
# kernel.  A boot added to tests/run.sh runs here too unless it is named
# below with its reason.
#   rel-wrongkernel  boots another stock build (FT_WRONG_KVER), not this one
#   rel-lockdown     an unsigned module refused under lockdown=integrity:
#                    the stock kernel's signing policy, which the debug
#                    build does not change
here=$(cd "$(dirname "$0")" && pwd)
FT_STAGES="guest reliability gate" FT_SUITES_EXCEPT="rel-wrongkernel rel-lockdown" \
	exec "$here/../run.sh" "$@"
