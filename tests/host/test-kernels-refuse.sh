#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds foliotune must refuse, each with one line that says why or how to
# go on, and a non-zero exit (nothing is fetched or written for them):
# an unverified build, a PREEMPT_RT build, a release that is no Debian
# 6.12 or Linux 7 build (make verify-kernel), a kernel tree the trixie
# build root cannot see (kbuild-run.sh); and make on a box (RUNNING and RUNNING_VERSION play
# one) whose kernel the support check (foliotune support, through
# scripts/kernels/support.sh) refuses, while a build host keeps building
# for the default; a box whose headers link leads into the kernel cache
# builds against the resolved tree.  The load-time
# refusals are proved in the
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
expect "verify-kernel of a release that is no Debian 6.12 or Linux 7 build" \
	"is not a Debian 6.12 or Linux 7 build" scripts/kernels/verify.sh '6.1.0-57-amd64'
# (a +deb13 build runs in the build root only where gcc-14 is missing)
if command -v gcc-14 > /dev/null; then
	echo "ok - refuse: a kernel tree the build root cannot see # SKIP gcc-14 here: no build root"
else
	expect "a kernel tree the build root cannot see, with the KDIR that works" \
		"/lib/modules/.*outside what the trixie build root sees.*give KDIR=.*/kernels/${unverified//+/.}/headers/" \
		scripts/kernels/kbuild-run.sh $unverified make -C /lib/modules/$unverified/build
	# Headers made by another compiler than the build root's gcc-14.
	fakek=$(mktemp -d)
	echo 'CONFIG_CC_VERSION_TEXT="x86_64-linux-gnu-gcc-14 (Debian 14.2.0-99) 14.2.0"' > "$fakek/.config"
	expect "a build whose headers name another compiler than the build root's: refused, naming both" \
		"was built by 'x86_64-linux-gnu-gcc-14 \(Debian 14.2.0-99\) 14.2.0', the trixie build root has 'x86_64-linux-gnu-gcc-14 \(Debian " \
		scripts/kernels/kbuild-run.sh $unverified make -C "$fakek"
	rm -rf "$fakek"
fi

# The support check, as make asks it on a box.
default=$(cat scripts/kernels/default-kver)
dversion=$(sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' "module/verified/$default.h")
# (make check exports KVER, KDIR, KSRC: a box decides them itself)
box() { env -u KVER -u KDIR -u KSRC make -s --no-print-directory RUNNING="$1" RUNNING_VERSION="$2" "${@:3}"; }
expect "make on a box running an unverified build: says so, verify it or boot a verified one" \
	"does not support ${unverified//+/.} .*not verified; verify it: make verify-kernel KVER=${unverified//+/.} .*boot a verified build \('foliotune support -l' lists them\)" \
	box "$unverified" '#1 SMP PREEMPT_DYNAMIC Debian 6.12.0-1 (2026-01-01)'
expect "make install on a box running a verified release with another version string" \
	"does not support ${default//+/.} .*was verified on version .*, not this one; verify this build: make verify-kernel KVER=${default//+/.}" \
	box "$default" '#1 SMP PREEMPT_DYNAMIC Debian 6.12.118-2 (a rebuild)' install
expect "make on a box running a PREEMPT_RT build" "PREEMPT_RT kernels cannot be supported" \
	box 6.12.118+deb13-rt-amd64 '#1 SMP PREEMPT_RT Debian 6.12.118-1 (2026-11-20)' module
# -n still runs a recipe line that names $(MAKE): KBUILD_RUN=true keeps
# kbuild from relinking the tree's module (unconverted, as -n skips
# klp-convert).
if out=$(box "$default" "$dversion" -n KBUILD_RUN=true module 2>&1) && ! grep -q 'does not support' <<< "$out"; then
	echo "ok - refuse: make on a box running a verified build passes the support check"
else
	echo "not ok - refuse: make on a box running a verified build passes the support check # $(tail -2 <<< "$out" | tr '\n' ' ')"
fi
# A box whose /lib/modules/KVER/build is a link into the kernel cache (the
# QEMU test box's): make resolves it, and the resolved tree is one kbuild
# finds where it runs, the trixie build root included (it binds the cache
# at its own path, not /lib/modules).  LIB_MODULES plays the box's.
lm=$(mktemp -d)
trap 'rm -rf "$lm"' EXIT
hdr=$(readlink -f "${FT_CACHE:-/var/cache/foliotune}")/kernels/$default/headers/usr/src/linux-headers-$default
mkdir -p "$lm/$default"
ln -s "$hdr" "$lm/$default/build"
out=$(box "$default" "$dversion" -n KBUILD_RUN=true LIB_MODULES="$lm" module 2>&1)
if grep -q -- "^true make -C $hdr M=" <<< "$out" && ! grep -q -- "$lm" <<< "$out"; then
	echo "ok - refuse: a box's headers link into the cache is resolved: KDIR is the cache's tree"
else
	echo "not ok - refuse: a box's headers link into the cache is resolved # $(grep -m1 -- ' -C ' <<< "$out")"
fi
if [ -d "$hdr" ] && v=$(scripts/kernels/kbuild-run.sh "$default" make -s -C "$hdr" kernelversion 2>&1) &&
	[ "$v" = "${default%%[-+]*}" ]; then
	echo "ok - refuse: kbuild finds the resolved tree where it runs (make kernelversion: $v)"
else
	echo "not ok - refuse: kbuild finds the resolved tree where it runs # ${v:-no $hdr}"
fi
for host in 6.1.0-57-amd64 6.12.0-a-kernel-of-its-own "$(uname -r)"; do
	kver=$(box "$host" '#1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-09)' help | sed -n '1s/.*(KVER=\(.*\)):$/\1/p')
	[ "$kver" = "$default" ] && echo "ok - refuse: a build host running $host builds for the default ($default)" ||
		echo "not ok - refuse: a build host running $host builds for the default # KVER=$kver"
done
(cd / && "$repo/scripts/kernels/support.sh" "$default" "$dversion") | grep -q "^foliotune supports ${default//+/.} " &&
	echo "ok - refuse: support.sh passes the default build, release and version" ||
	echo "not ok - refuse: support.sh passes the default build, release and version"
[ ! -e module/verified/$unverified.h ] && [ ! -e "${FT_CACHE:-/var/cache/foliotune}/kernels/$unverified" ] &&
	echo "ok - refuse: nothing written for the refused builds" ||
	echo "not ok - refuse: a header or cache entry appeared for $unverified"
