#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# list.sh - the Debian kernel builds the registry offers that foliotune
# knows how to fetch (scripts/kernels/fetch.sh): 6.12 (bookworm and trixie,
# with their security suites) and Linux 7 (trixie-backports and unstable),
# amd64, cloud-amd64 and rt-amd64; one "RELEASE PACKAGE-VERSION" per line,
# oldest first: what make verify-kernel KVER=RELEASE accepts.  A build is
# its unsigned image package: linux-image-REL-unsigned up to 6.x,
# linux-binary-unsigned-REL from Linux 7 (whose linux-image-REL is a
# signed meta package; Debian's leftover signed 7.0/7.1 images without
# modules or headers are not builds one can fetch).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/apt.sh" update
mapfile -t pkgs < <("$here/apt.sh" apt-cache search --names-only \
	'^(linux-image-6\.12\.[0-9]+\+deb1[23][.0-9]*-(cloud-|rt-)?amd64-unsigned|linux-binary-unsigned-([7-9]|[1-9][0-9])\.[0-9]+\.[0-9]+\+deb[0-9.]+-(cloud-|rt-)?amd64)$' |
	awk '{ print $1 }')
[ ${#pkgs[@]} -gt 0 ] || { echo "list: no 6.12 or Linux 7 builds in the registry's lists" >&2; exit 1; }
# (--no-all-versions: the candidate, which apt.sh's pins keep in the
# stable suites where a name is in several)
"$here/apt.sh" apt-cache show --no-all-versions "${pkgs[@]}" |
	awk '/^Package: / { p = $2; sub(/^linux-(image|binary-unsigned)-/, "", p); sub(/-unsigned$/, "", p) }
	     /^Version: / { print p, $2 }' | sort -V
