#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability: the module on the wrong kernel.  A boot of Debian's 6.1
# kernel (tests/run.sh: guest_suite rel-wrongkernel -k $FT_WRONG_KVER,
# default 6.1.0-57-amd64 -- tests/guest/reliability/wrongkernel.sh; any
# image other than the module's build works).  insmod of module/foliotune.ko
# (built for KVER, by default scripts/kernels/default-kver) must fail
# cleanly: an error, exactly one clear kernel line naming the mismatch,
# nothing registered, no taint, and the CLI says the kernel is not
# supported and refuses to load.  (Another 6.12 build, same symbols but
# another version string: tests/guest/test-build-check.sh.)
# A module without symbol versions (a Linux 7 build: Debian's 7.x config
# has CONFIG_MODVERSIONS off) on a kernel that checks them (6.1) is
# force-loaded by the kernel's loader before its version magic is read:
# check_modstruct_version() finds no __versions, and try_to_force_load()
# taints the kernel (F, TAINT_FORCED_MODULE) with "foliotune:
# module_layout: kernel tainted." and, at the first such taint, lockdep's
# "Disabling lock debugging due to kernel taint".  That is the loader's
# doing, before any of the module's code, and what any module built
# without versions gets from a plain insmod (the CLI refuses before
# insmod): then those two lines and that taint are expected, and nothing
# else.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
plan 14
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
built_for=$(modinfo -F vermagic "$FT_KO" | awk '{ print $1 }')
# the module carries symbol versions (its vermagic says modversions)
versions=no
modinfo -F vermagic "$FT_KO" | grep -qw modversions && versions=yes

if [ "$(uname -r)" = "$built_for" ]; then
	not_ok "wrong kernel: booted another kernel" "running $built_for, the module's own: boot with -k 6.1.0-57-amd64"
	exit 0
fi
ok "wrong kernel: running $(uname -r), module built for $built_for"

taint0=$(cat /proc/sys/kernel/tainted)
mark=$(dmesg_mark)
err=$(insmod "$FT_KO" 2>&1); rc=$?
echo "# insmod said: $err"
check "wrong kernel: insmod fails" test "$rc" != 0
case $err in *"Invalid module format"*|*"Exec format error"*|*"Invalid argument"*|*"Unknown symbol"*)
	ok "wrong kernel: insmod error is a format/version error" ;;
*) not_ok "wrong kernel: insmod error is a format/version error" "$err" ;; esac
lines=$(dmesg_since "$mark" | grep -v 'ft-mark')
printf '%s\n' "$lines" | sed 's/^/# dmesg: /'
# a module without versions: the loader's forced-load lines (above) aside
forced=$(printf '%s\n' "$lines" | grep -c 'foliotune: module_layout: kernel tainted\.$')
taint1=$taint0
if [ "$versions" = no ]; then
	lines=$(printf '%s\n' "$lines" | grep -v -e 'foliotune: module_layout: kernel tainted\.$' \
		-e 'Disabling lock debugging due to kernel taint$')
	[ "$forced" -gt 0 ] && taint1=$((taint0 | 2))
	echo "# the module has no symbol versions: forced-load lines $forced, expected taint $taint1"
fi
check_eq "wrong kernel: exactly one kernel line about the refusal" 1 "$(printf '%s\n' "$lines" | grep -c .)"
case $lines in
*foliotune*"version magic"*"$built_for"*|*foliotune*"disagrees about version of symbol"*|*foliotune*"unsupported kernel build"*)
	ok "wrong kernel: the line names foliotune and the mismatch" ;;
*) not_ok "wrong kernel: the line names foliotune and the mismatch" "$lines" ;; esac
check "wrong kernel: /sys/module/foliotune absent" ft_module_gone
check "wrong kernel: no debugfs directory, no livepatch" ft_nothing_left
what="no taint from the refused load"
[ "$taint1" != "$taint0" ] && what="no taint from the refused load but the loader's forced load (F)"
check_eq "wrong kernel: $what" "$taint1" "$(cat /proc/sys/kernel/tainted)"

"$FT_CLI" status > "$w/out" 2>&1; rc=$?
sed 's/^/#   /' "$w/out" | head -8
check_eq "wrong kernel: 'foliotune status' reports, and exits 2 on an unsupported kernel" 2 "$rc"
grep -qiE 'supported: *no: .*boot a verified' "$w/out" && ok "wrong kernel: status says the kernel is not supported, and the next step" ||
	not_ok "wrong kernel: status says the kernel is not supported, and the next step" "$(grep -i support "$w/out")"
"$FT_CLI" load "$FT_KO" > "$w/out" 2>&1; rc=$?
sed 's/^/#   /' "$w/out" | head -4
check_eq "wrong kernel: 'foliotune load' is a runtime error" 2 "$rc"
grep -qiE 'kernel|format|support' "$w/out" && ok "wrong kernel: load explains why" ||
	not_ok "wrong kernel: load explains why" "$(head -c 200 "$w/out")"
check "wrong kernel: still nothing registered" ft_nothing_left
check_kernel_clean "wrong kernel: kernel log clean" "$mark"
