#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# preflight.sh check|bench - exit 2 with one line on stderr if make
# check-box / bench-box must not run on this machine (harness/own-box/box-lib.sh).
set -u
. "$(dirname "$0")/box-lib.sh"
box_preflight "${1:?usage: preflight.sh check|bench}"
