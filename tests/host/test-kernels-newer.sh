#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kernels-newer (scripts/kernels/newer.sh): the registry's builds newer
# than the newest verified one of their suite and flavour, in one line, on a
# made-up registry answer and verified set (so that it proves the choice
# whatever the registry serves today); one line and exit 1 when the
# registry cannot be asked (a private, unreachable mirror: the shared apt
# lists are not touched); and CI printing the line without failing on it.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# verified HEADER-NAME SOURCE-VERSION: a header as verify.sh writes it
verified() {
	printf '#define FT_VERIFIED_RELEASE\t"%s"\n#define FT_VERIFIED_SOURCE\t"linux-source-%s %s"\n' \
		"$1" "$(echo "$1" | cut -d. -f1,2)" "$2" > "$w/verified/$1.h"
}
mkdir -p "$w/verified"
verified 6.12.118+deb13-amd64 6.12.118-1
verified 6.12.117+deb13-amd64 6.12.117-1
verified 6.12.118+deb13-cloud-amd64 6.12.118-1
verified 6.12.117+deb12-amd64 6.12.117-1~deb12u1
verified 6.12.117-ftdebug 6.12.117-1~deb12u1
verified 7.2.12+deb13-amd64 7.2.12-1~bpo13+1
cat > "$w/registry" <<'EOT'
6.12.110+deb13-amd64 6.12.110-1
6.12.115+deb13.1-amd64 6.12.115-2
6.12.117+deb12-amd64 6.12.117-1~deb12u1
6.12.117+deb12-cloud-amd64 6.12.117-1~deb12u1
6.12.118+deb12-amd64 6.12.118-1~deb12u1
6.12.118+deb13-amd64 6.12.118-1
6.12.118+deb13-cloud-amd64 6.12.118-1
6.12.119+deb13-amd64 6.12.119-1
6.12.119+deb13-rt-amd64 6.12.119-1
7.2.11+deb13-amd64 7.2.11-1~bpo13+1
7.2.12+deb13-amd64 7.2.12-1~bpo13+1
7.2.13+deb14-amd64 7.2.13-1
7.3.4+deb13-amd64 7.3.4-1~bpo13+1
7.3.4+deb13-rt-amd64 7.3.4-1~bpo13+1
EOT

newer() { FT_NEWER_VERIFIED="$w/verified" FT_NEWER_LIST="$1" scripts/kernels/newer.sh > "$w/out" 2> "$w/err"; }
report() {
	if [ "$2" = yes ]; then echo "ok - kernels-newer: $1"; else
		echo "not ok - kernels-newer: $1 # exit $rc: $(cat "$w/out" "$w/err" | tr '\n' ' ')"; fi
}
has() { grep -qF -- "$1" "$w/out"; }

newer "$w/registry"; rc=$?
[ "$rc" = 0 ] && [ "$(wc -l < "$w/out")" = 1 ] && [ ! -s "$w/err" ] && ok=yes || ok=no
report "one line, exit 0" $ok
has "kernels-newer: 5 Debian build(s) newer than the newest verified ones" && ok=yes || ok=no
report "counts the five newer builds" $ok
has "6.12.119+deb13-amd64 (6.12.119-1)" && ok=yes || ok=no
report "lists a build newer than its suite's newest verified one (though a verified Linux 7 build's version is higher)" $ok
has "7.3.4+deb13-amd64 (7.3.4-1~bpo13+1)" && ok=yes || ok=no
report "lists a Linux 7 build newer than the newest verified Linux 7 build (though not a 6.12 one)" $ok
has "7.2.13+deb14-amd64 (7.2.13-1)" && ok=yes || ok=no
report "lists a Linux 7 build of a suite (unstable's deb14) with no verified build" $ok
! has "7.2.11+deb13-amd64" && ok=yes || ok=no
report "leaves out a Linux 7 build older than the newest verified Linux 7 build" $ok
has "6.12.118+deb12-amd64 (6.12.118-1~deb12u1)" && ok=yes || ok=no
report "lists a bookworm build newer than bookworm's newest verified one (though not than trixie's)" $ok
has "6.12.117+deb12-cloud-amd64" && ok=yes || ok=no
report "lists a flavour with no verified build at all" $ok
! has "6.12.110+deb13-amd64" && ! has "6.12.115+deb13.1-amd64" && ok=yes || ok=no
report "leaves out unverified builds older than the newest verified one (a +deb13.1 rebuild too)" $ok
! has "rt-amd64" && ! has "6.12.118+deb13-amd64 (" && ! has "6.12.117+deb12-amd64 (" && ok=yes || ok=no
report "leaves out PREEMPT_RT builds and the verified ones" $ok

grep -v -e 6.12.119 -e deb12 -e 7.3.4 -e deb14 "$w/registry" > "$w/registry-old"
newer "$w/registry-old"; rc=$?
[ "$rc" = 0 ] && has "kernels-newer: none; the registry has no Debian build newer than the newest verified ones (6.12.117+deb12-amd64, 6.12.118+deb13-amd64, 6.12.118+deb13-cloud-amd64, 7.2.12+deb13-amd64)" &&
	ok=yes || ok=no
report "nothing newer: says so, with the newest verified builds, exit 0" $ok

newer "$w/missing"; rc=$?
[ "$rc" = 1 ] && [ ! -s "$w/out" ] && [ "$(wc -l < "$w/err")" = 1 ] &&
	grep -q "^kernels-newer: the registry could not be asked: " "$w/err" && ok=yes || ok=no
report "a registry answer that cannot be had: one line, exit 1" $ok

# The real path, list.sh and apt.sh, against a mirror nobody serves, in a
# cache of its own.
mkdir -p "$w/cache"
FT_CACHE="$w/cache" FT_DEBIAN_MIRROR=http://127.0.0.1:9 timeout 120 \
	make -s --no-print-directory kernels-newer > "$w/out" 2> "$w/err"; rc=$?
[ "$rc" != 0 ] && [ ! -s "$w/out" ] && grep -q "^kernels-newer: the registry could not be asked: .*apt-get update" "$w/err" &&
	ok=yes || ok=no
report "make kernels-newer with an unreachable registry: one line, non-zero exit" $ok
grep -qx "stage kernels-newer bash -c 'timeout 600 make -s kernels-newer 2>&1 || true'" .ci/run && ok=yes || ok=no
report "CI prints the line and never fails on it (.ci/run)" $ok
