#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verify-proof.sh - make verify-kernel on the running kernel, proved in the
# QEMU test box as a user's own box (harness/own-box/verify-proof-guest.sh): from
# a clean copy of the tree without the header of the kernel the box runs,
# verify it there (no QEMU inside, the source from the cache), then build
# with the local header, load, status, the refusal line of a wrong build,
# unload.  One boot of KVER (default: the default build); the module is
# compiled inside the emulator twice (verify-kernel, make module): about
# 40-60 min under TCG.  Result lines on stdout; exit status 0 iff all passed.
set -u
. "$(dirname "$0")/proof-boot.sh" || exit 2
proof_boot verify-proof "verify proof" harness/own-box/verify-proof-guest.sh
