#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds foliotune must refuse, each with one line that says why or how to
# go on, and a non-zero exit (nothing is fetched or written for them):
# an unverified build, a PREEMPT_RT build, a release that is no Debian 6.12
# build (make verify-kernel), a kernel tree the trixie build root cannot
# see (kbuild-run.sh).  The load-time refusals are proved in the
# test box (tests/guest/test-build-check.sh, reliability/wrongkernel.sh).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1

# expect NAME PATTERN CMD...: CMD fails and its output matches PATTERN.
expect() {
	local name=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -qE "$pat"; then
		echo "ok - refuse: $name"
	else
		echo "not ok - refuse: $name # exit $rc: $(printf '%s' "$out" | tail -2 | tr '\n' ' ')"
	fi
}

unverified=6.12.0+deb13-amd64
expect "an unverified build, with the command that verifies it" \
	"not verified on ${unverified//+/.}: run .make verify-kernel KVER=${unverified//+/.}." \
	make -s --no-print-directory KVER=$unverified module
expect "a PREEMPT_RT build, with the reason" \
	"PREEMPT_RT .*preemption is off under the page-table lock" \
	make -s --no-print-directory KVER=6.12.118+deb13-rt-amd64 module
expect "verify-kernel of a PREEMPT_RT build" \
	"refused: PREEMPT_RT" scripts/kernels/verify.sh 6.12.118+deb13-rt-amd64
expect "verify-kernel of a release that is no Debian 6.12 build" \
	"is not a Debian 6.12 build" scripts/kernels/verify.sh '6.1.0-57-amd64'
# (a +deb13 build runs in the build root only where gcc-14 is missing)
if command -v gcc-14 > /dev/null; then
	echo "ok - refuse: a kernel tree the build root cannot see # SKIP gcc-14 here: no build root"
else
	expect "a kernel tree the build root cannot see, with the KDIR that works" \
		"/lib/modules/.*outside what the trixie build root sees.*give KDIR=.*/kernels/${unverified//+/.}/headers/" \
		scripts/kernels/kbuild-run.sh $unverified make -C /lib/modules/$unverified/build
fi
[ ! -e module/verified/$unverified.h ] && [ ! -e "${FT_CACHE:-/var/cache/foliotune}/kernels/$unverified" ] &&
	echo "ok - refuse: nothing written for the refused builds" ||
	echo "not ok - refuse: a header or cache entry appeared for $unverified"
