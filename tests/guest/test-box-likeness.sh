#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-box-likeness.sh - the test box is a real Debian machine's likeness
# where scripts can tell: /dev/fd, /dev/stdin, /dev/stdout and /dev/stderr
# exist and work (systemd makes them on a real machine; harness/vm/init here).
# Without them bash's process substitution fails ("/dev/fd/63: No such file
# or directory") and a tool that opens /dev/stdin by path reads nothing.
. "$(dirname "$0")/../lib.sh"
plan 4
if [ -L /dev/fd ] && [ "$(readlink /dev/fd)" = /proc/self/fd ]; then
	ok "box: /dev/fd is the link to /proc/self/fd"
else
	not_ok "box: /dev/fd is the link to /proc/self/fd" "$(ls -ld /dev/fd 2>&1)"
fi
mapfile -t got < <(printf 'a\nb\n') 2>/dev/null
check_eq "box: process substitution reads its output (mapfile < <(...))" "a b" "${got[*]:-}"
check_eq "box: /dev/stdin reads standard input" "x" "$(echo x | cat /dev/stdin 2>&1)"
out=$( { echo y > /dev/stdout; echo z > /dev/stderr; } 2>&1)
check_eq "box: /dev/stdout and /dev/stderr write to fds 1 and 2" "y z" "$(echo $out)"
