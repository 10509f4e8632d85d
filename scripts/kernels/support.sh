#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# support.sh [RELEASE VERSION] - does foliotune support this kernel (by
# default the running one)?  The check itself is the CLI's, the only
# implementation (userspace/util/verified.c, `foliotune support`, the module's
# own check, module/build_check.c: release and version string of a
# module/verified/ build, or of the header make verify-kernel wrote on this
# machine, $FT_STATE_DIR/verified/, default /var/lib/foliotune).  This
# builds the tree's CLI when it is missing or older than its sources
# (make -C userspace; nothing is written when it is up to date: the
# preflight of check-box asks this and must change nothing) and asks it,
# for make, the scripts and people who have not installed foliotune yet.
#
# One line: on standard output and exit 0 when supported; else on standard
# error, with the next step (verify this build, or the verified builds to
# boot), and a non-zero exit.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -ne 0 ] && [ $# -ne 2 ]; then
	echo "usage: support.sh [RELEASE VERSION]" >&2
	exit 2
fi
# (a make that runs this at parse time passes its flags, -n among them, in
# MAKEFLAGS: the CLI is built all the same)
if ! out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$repo/userspace" 2>&1); then
	echo "support.sh: cannot build the CLI that checks support (make -C userspace): $(tail -1 <<< "$out")" >&2
	exit 2
fi
exec "$repo/userspace/foliotune" support "$@"
