#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fault-around tuner's decisions on synthetic periods: module/fa_policy.c
# built for the host (tests/host/fa-policy/compat/ stands in for the kernel
# headers it includes) and run.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
if ! cc -std=gnu11 -Wall -Wextra -Werror -O1 -I "$here/fa-policy/compat" \
	-I "$repo/module" -o "$w/policy_test" "$here/fa-policy/policy_test.c" \
	"$repo/module/fa_policy.c" 2> "$w/cc.err"; then
	echo "not ok - fa-policy: builds for the host # $(head -5 "$w/cc.err" | tr '\n' '|')"
	exit 1
fi
"$w/policy_test"
