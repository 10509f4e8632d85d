#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# list.sh - the Debian 6.12 kernel builds the registry offers (bookworm and
# trixie, with their security suites), one "RELEASE PACKAGE-VERSION" per
# line, oldest first: what make verify-kernel KVER=RELEASE accepts.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/apt.sh" update
mapfile -t pkgs < <("$here/apt.sh" apt-cache search --names-only \
	'^linux-image-6\.12\.[0-9]+\+deb1[23][.0-9]*-(cloud-|rt-)?amd64-unsigned$' | awk '{ print $1 }')
[ ${#pkgs[@]} -gt 0 ] || { echo "list: no 6.12 builds in the registry's lists" >&2; exit 1; }
"$here/apt.sh" apt-cache show --no-all-versions "${pkgs[@]}" |
	awk '/^Package: / { p = $2; sub(/^linux-image-/, "", p); sub(/-unsigned$/, "", p) }
	     /^Version: / { print p, $2 }' | sort -V
