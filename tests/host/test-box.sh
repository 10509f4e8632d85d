#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-box / bench-box refuse, in one line, with a non-zero exit and
# before changing anything, on a machine where they must not run: without
# FT_TEST_BOX=1, without root, on an unverified kernel, under lockdown,
# Secure Boot or module.sig_enforce, without cgroup v2, without swap or
# zram, or with a scratch file that exists.  The first three are this
# host's real state; the rest a fake /proc and /sys (FT_BOX_ROOT).  Also
# make install / uninstall into a DESTDIR, and dkms's pre-build hook.
. "$(dirname "$0")/lib-host.sh"
cd "$repo" || exit 1
# the verified build the tree is made for (make exports KVER; run alone,
# the default build): install below must not rebuild the tree for another
verified=${KVER:-$(cat scripts/kernels/default-kver)}

# state: what a refusal must leave alone
state() {
	cat /proc/mounts /proc/swaps
	cut -d" " -f1 /proc/modules 2>/dev/null | sort
	losetup -a 2>/dev/null
	find "$repo" -newer "$w/stamp" -not -path "$repo/.git*" 2>/dev/null
}

# refused NAME PATTERN [ENV...] -- both targets, with ENV, refuse with one
# line matching PATTERN, exit non-zero, and change nothing.
refused() {
	local name=$1 pat=$2 goal rc lines
	shift 2
	for goal in check-box bench-box; do
		touch "$w/stamp"; sleep 1
		state > "$w/before"
		env "$@" make -s -C "$repo" "$goal" > "$w/out" 2> "$w/err"
		rc=$?
		state > "$w/after"
		lines=$(cat "$w/out" "$w/err" | wc -l)
		if [ "$rc" = 0 ]; then
			not_ok "box: $goal refuses $name" "exit 0"
		elif [ "$lines" != 1 ] || ! grep -q -- "$goal: refusing to start: .*$pat" "$w/err"; then
			not_ok "box: $goal refuses $name" "want one line matching '$pat', got: $(cat "$w/out" "$w/err" | head -3 | tr '\n' '|')"
		elif ! diff -q "$w/before" "$w/after" > /dev/null; then
			not_ok "box: $goal refuses $name" "something changed: $(diff "$w/before" "$w/after" | head -3 | tr '\n' '|')"
		else
			ok "box: $goal refuses $name (exit $rc, one line)"
		fi
	done
}

# A fake machine where every check passes.
R=$w/root
mk_box() {
	rm -rf "$R"
	mkdir -p "$R/proc/sys/kernel" "$R/sys/kernel/security" "$R/sys/fs/cgroup" \
		"$R/sys/module/module/parameters" "$R/sys/block"
	echo "$verified" > "$R/proc/sys/kernel/osrelease"
	sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' \
		"module/verified/$verified.h" > "$R/proc/sys/kernel/version"
	echo "[none] integrity confidentiality" > "$R/sys/kernel/security/lockdown"
	echo "cpuset cpu io memory pids" > "$R/sys/fs/cgroup/cgroup.controllers"
	echo N > "$R/sys/module/module/parameters/sig_enforce"
	printf 'Filename\tType\tSize\tUsed\tPriority\n/dev/sda2\tpartition\t1048572\t0\t-2\n' > "$R/proc/swaps"
}
fake=(FT_TEST_BOX=1 FT_BOX_ROOT="$R" FT_BOX_UID=0 KVER="$verified")

mk_box
check "box: preflight passes on a fake machine that has everything" \
	env "${fake[@]}" harness/own-box/preflight.sh check
check "box: preflight of bench passes there too" env "${fake[@]}" harness/own-box/preflight.sh bench
# there, make bench-box builds the benchmarks' programs and runs bench/box.sh
env "${fake[@]}" make -n -C "$repo" bench-box > "$w/n.out" 2>&1
check "box: make -n bench-box there builds bench/progs and runs bench/box.sh" \
	grep -qzE 'make -C bench/progs.*[[:space:]]bench/box\.sh' "$w/n.out"

# this host, as it is
refused "without FT_TEST_BOX=1" "set FT_TEST_BOX=1" FT_TEST_BOX=
refused "FT_TEST_BOX=yes" "set FT_TEST_BOX=1" FT_TEST_BOX=yes
if [ "$(id -u)" = 0 ]; then
	touch "$w/stamp"; sleep 1; state > "$w/before"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups env FT_TEST_BOX=1 \
		make -s -C "$repo" check-box 2>&1)
	rc=$?; state > "$w/after"
	if [ "$rc" != 0 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [[ $out == *"it must run as root"* ]] &&
		diff -q "$w/before" "$w/after" > /dev/null; then
		ok "box: check-box refuses a real non-root user (exit $rc, one line)"
	else
		not_ok "box: check-box refuses a real non-root user" "exit $rc: $out"
	fi
fi
refused "a non-root user" "it must run as root" "${fake[@]}" FT_BOX_UID=1000
if ! scripts/kernels/support.sh > /dev/null 2>&1; then
	refused "this host's unsupported kernel $(uname -r)" "foliotune does not support $(uname -r)" FT_TEST_BOX=1 FT_BOX_UID=0
fi
echo 6.1.0-57-amd64 > "$R/proc/sys/kernel/osrelease"
refused "an unverified kernel" "foliotune does not support 6.1.0-57-amd64 .*boot a verified one" "${fake[@]}"
mk_box
echo "#1 SMP PREEMPT_DYNAMIC Debian (a rebuild of the same release)" > "$R/proc/sys/kernel/version"
refused "a verified release with another version string" "was verified on version .*verify this build: make verify-kernel" "${fake[@]}"
mk_box
refused "KVER other than the running kernel" "but KVER=6.12.117-ftdebug" "${fake[@]}" KVER=6.12.117-ftdebug
echo "none [integrity] confidentiality" > "$R/sys/kernel/security/lockdown"
refused "lockdown=integrity" "locked down (lockdown=integrity)" "${fake[@]}"
mk_box
mkdir -p "$R/sys/firmware/efi/efivars"
printf '\006\000\000\000\001' > "$R/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a9f3ae7fc9"
refused "Secure Boot" "Secure Boot is on" "${fake[@]}"
printf '\006\000\000\000\000' > "$R/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a9f3ae7fc9"
check "box: preflight passes with Secure Boot off in efivars" env "${fake[@]}" harness/own-box/preflight.sh check
echo Y > "$R/sys/module/module/parameters/sig_enforce"
refused "module.sig_enforce=1" "sig_enforce=1" "${fake[@]}"
mk_box
rm "$R/sys/fs/cgroup/cgroup.controllers"
refused "no cgroup v2" "no cgroup v2 at /sys/fs/cgroup" "${fake[@]}"
echo "cpu io pids" > "$R/sys/fs/cgroup/cgroup.controllers"
refused "no memory controller" "memory controller is not available" "${fake[@]}"
mk_box
printf 'Filename\tType\tSize\tUsed\tPriority\n' > "$R/proc/swaps"
refused "no swap and zram not allowed" "no swap is active: allow a zram swap device with FT_BOX_ZRAM=1" "${fake[@]}"
check "box: preflight passes without swap when zram is allowed" \
	env "${fake[@]}" FT_BOX_ZRAM=1 harness/own-box/preflight.sh check
mkdir -p "$R/sys/block/zram0"
refused "zram allowed but zram0 in use" "/dev/zram0 exists already" "${fake[@]}" FT_BOX_ZRAM=1
mk_box
touch "$w/scratch.img"
refused "an existing scratch file" "FT_BOX_SCRATCH=$w/scratch.img exists" "${fake[@]}" FT_BOX_SCRATCH="$w/scratch.img"

# install / uninstall into a DESTDIR leave nothing behind (the module and
# the CLI must be built: make)
if [ -f module/foliotune.ko ] && [ -x userspace/foliotune ]; then
	D=$w/dest
	mkdir -p "$D/usr/local/sbin"
	(cd "$D" && find . | sort) > "$w/tree-before"
	out=$(make -s install DESTDIR="$D" KVER="$verified" 2>&1)
	check_eq "install: module, CLI and man page" \
		"./lib/modules/$verified/updates/foliotune.ko ./usr/local/sbin/foliotune ./usr/local/share/man/man8/foliotune.8 ./var/lib/foliotune/installed" \
		"$(cd "$D" && find . -type f | sort | tr '\n' ' ' | sed 's/ $//')"
	out=$(make -s install DESTDIR="$D" KVER="$verified" 2>&1)
	check "install: installing again (a rebuild) works" test $? = 0
	# an install for a second kernel: uninstall removes both modules
	other=$(ls module/verified/ | sed -n 's/\.h$//p' | grep -vx "$verified" | grep -v ftdebug | head -1)
	KVER=$other DESTDIR=$D PREFIX=/usr/local scripts/install.sh install > /dev/null
	check "install: a second kernel's install keeps the first kernel's module in the manifest" \
		grep -qx "file $D/lib/modules/$verified/updates/foliotune.ko" "$D/var/lib/foliotune/installed"
	# loaded: uninstall refuses, before removing anything
	mkdir -p "$w/sys/module/foliotune"
	out=$(FT_SYSFS=$w/sys KVER=$verified DESTDIR=$D PREFIX=/usr/local scripts/install.sh uninstall 2>&1)
	rc=$?
	check_eq "uninstall: refused while the module is loaded" "1 install.sh: foliotune is loaded: run 'foliotune unload' first (the CLI goes with uninstall)" "$rc $out"
	check "uninstall: the refusal removed nothing" test -f "$D/usr/local/sbin/foliotune" -a -f "$D/var/lib/foliotune/installed"
	out=$(make -s uninstall DESTDIR="$D" KVER="$verified" 2>&1)
	check_eq "uninstall: the tree is as before (an existing sbin/ stays)" "$(cat "$w/tree-before")" \
		"$(cd "$D" && find . | sort)"
else
	not_ok "install: module and CLI" "module/foliotune.ko or userspace/foliotune missing: run make"
fi

# dkms's pre-build hook: one line for an unverified build
out=$(scripts/dkms-check.sh 6.1.0-57-amd64 2>&1)
rc=$?
if [ "$rc" != 0 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [[ $out == *"is not verified"* ]]; then
	ok "dkms: the pre-build hook refuses an unverified build in one line"
else
	not_ok "dkms: the pre-build hook refuses an unverified build in one line" "exit $rc: $out"
fi
grep -q '^PRE_BUILD="scripts/dkms-check.sh ${kernelver}"$' dkms.conf
check "dkms: dkms.conf runs the hook before building" test $? = 0

# DAMON_STAT: off for a check-box run where it runs, as it was after; left
# alone where it does not run or does not exist (a fake /sys)
damon() {
	( export FT_BOX_ROOT=$w/damon FT_LIVEPATCH=$w/no-livepatch
	  . harness/own-box/box-lib.sh
	  f=$FT_BOX_ROOT/sys/module/damon_stat/parameters/enabled
	  box_damon_off > /dev/null; echo "$(cat "$f" 2>/dev/null || echo absent)"
	  box_teardown; echo "$(cat "$f" 2>/dev/null || echo absent)" )
}
mkdir -p "$w/damon/sys/module/damon_stat/parameters"
echo Y > "$w/damon/sys/module/damon_stat/parameters/enabled"
check_eq "box: DAMON_STAT off for the run, on again after it" "N Y" "$(damon | xargs)"
echo N > "$w/damon/sys/module/damon_stat/parameters/enabled"
check_eq "box: DAMON_STAT left off when it was off" "N N" "$(damon | xargs)"
rm -r "$w/damon/sys/module/damon_stat"
check_eq "box: no DAMON_STAT (6.12): nothing written" "absent absent" "$(damon | xargs)"
