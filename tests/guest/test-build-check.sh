#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A module that expects another kernel build must refuse to load, say so in
# one dmesg line naming both builds, and leave nothing registered.
. "$(dirname "$0")/../lib.sh"
plan 7

wrong=${FT_WRONG_KO:-$FT_REPO/build/wrong-build/foliotune.ko}
if [ ! -r "$wrong" ]; then
	not_ok "build check: test module" "$wrong missing (make test-modules)"
	exit 0
fi
ft_unload
mark=$(dmesg_mark)
err=$(insmod "$wrong" 2>&1)
rc=$?
check "build check: insmod fails" test "$rc" -ne 0
case "$err" in
# kmod's insmod words ENOEXEC as "Invalid module format".
*"Invalid module format"*|*"Exec format error"*) ok "build check: errno is ENOEXEC" ;;
*) not_ok "build check: errno is ENOEXEC" "insmod said: $err" ;;
esac
lines=$(dmesg_since "$mark" | grep 'foliotune: unsupported kernel build')
check_eq "build check: exactly one dmesg line" 1 "$(printf '%s\n' "$lines" | grep -c .)"
case "$lines" in
*"expected $(uname -r) #0 foliotune test"*"found $(uname -r) $(uname -v)"*)
	ok "build check: dmesg names expected and found builds" ;;
*) not_ok "build check: dmesg names expected and found builds" "got: $lines" ;;
esac
check "build check: module not registered" ft_module_gone
check "build check: no debugfs directory" test ! -e "$FT_DEBUGFS"
check "build check: no livepatch" test ! -e "$FT_LIVEPATCH"
