# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# lib-host.sh - the start every host test shares: tests/lib.sh's result
# helpers, $repo (the checkout) and $w, a scratch directory removed at exit.
set -uo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib.sh"
repo=$FT_REPO
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
