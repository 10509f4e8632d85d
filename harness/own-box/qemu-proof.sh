#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-proof.sh - the test box is a real machine from its own point of
# view: inside it, from a clean copy of the tree (tracked files as they are
# now, no build/), make install, foliotune load from another directory,
# a CI-sized make check-box, a short make bench-box, then make uninstall;
# every step checked (harness/own-box/qemu-proof-guest.sh).  One boot; the module
# is compiled inside the emulator (about 20 min of the run under TCG).
# Result lines on stdout; exit status 0 iff all passed.
#   FT_PROOF_TESTS   the main-suite tests check-box runs (default below)
set -u
. "$(dirname "$0")/proof-boot.sh" || exit 2
proof_boot box-proof "box proof" harness/own-box/qemu-proof-guest.sh \
	-e "FT_PROOF_TESTS=${FT_PROOF_TESTS:-test-lifecycle test-knobs test-cli}"
