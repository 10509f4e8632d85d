#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# status: the kernel build and its support, the module and livepatch, the
# knobs; a lockdown or an unsupported kernel exits 2.

load helpers

@test "status, module not loaded" {
	export FOLIOTUNE_SYSROOT=$U
	ft status
	expect 0
	golden status-unloaded.txt
	ft -j status
	expect 0
	golden status-unloaded.json
}

@test "status, module loaded: every knob, the tuner's state" {
	printf 'window 65536 (chosen 3 s ago)\nrefault ratio 0.12\n' > "$D/fault_around_auto_state"
	ft status
	expect 0
	golden status-loaded.txt
	ft status -j
	expect 0
	golden status-loaded.json
}

@test "status: a transition in progress" {
	echo 1 > "$L/transition"
	ft status
	expect 0 "livepatch:        enabled, transition in progress (patching)"
}

@test "status: the kernel differs from the module's build file, exit 2" {
	echo "$OTHER_KVER" > "$R/proc/sys/kernel/osrelease"
	ft status
	expect 2 "supported:        no: the loaded module was verified against $KVER"
}

@test "status: an unsupported kernel says so in one line, no 'load' hint, exit 2" {
	export FOLIOTUNE_SYSROOT=$U
	echo 6.1.0-99-amd64 > "$U/proc/sys/kernel/osrelease"
	ft status
	expect 2
	golden status-unsupported.txt
	expect_not "foliotune load"
	ft -j status
	expect 2 '"supported":false' \
		'"next_step":"foliotune serves Debian 6.12 and Linux 7 builds; boot a verified one (.foliotune support -l. lists them)"' \
		'"error":"the foliotune module is not loaded and cannot be: this kernel is not supported"'
}

@test "status: a verified release with another version string: not supported, exit 2" {
	export FOLIOTUNE_SYSROOT=$U
	echo "#1 SMP PREEMPT_DYNAMIC Debian 6.12.999-1 (a rebuild)" > "$U/proc/sys/kernel/version"
	ft status
	expect 2 "^supported:        no: $KVER was verified on version"
}

@test "status: another verified build than the CLI's own: supported, exit 0" {
	export FOLIOTUNE_SYSROOT=$U
	sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' \
		"$TOP/module/verified/$OTHER_KVER.h" > "$U/proc/sys/kernel/version"
	echo "$OTHER_KVER" > "$U/proc/sys/kernel/osrelease"
	ft status
	expect 0 "^supported:        yes (a verified build; this CLI was compiled for $KVER)" \
		"not loaded (try 'foliotune load')"
}

@test "status: a Debian 6.12 build not verified: verify it, or boot one support lists, exit 2" {
	export FOLIOTUNE_SYSROOT=$U
	echo 6.12.999+deb13-amd64 > "$U/proc/sys/kernel/osrelease"
	ft status
	expect 2 "^supported:        no: this build is not verified; verify it: make verify-kernel KVER=6.12.999+deb13-amd64 .*, or boot a verified build ('foliotune support -l' lists them)$"
}

@test "status: PREEMPT_RT: not supported, exit 2" {
	export FOLIOTUNE_SYSROOT=$U
	echo 6.12.999+deb13-rt-amd64 > "$U/proc/sys/kernel/osrelease"
	ft status
	expect 2 "^supported:        no: PREEMPT_RT kernels cannot be supported (the page-table lock sleeps there); boot a verified build ('foliotune support -l' lists them)$"
}

@test "status: debugfs not mounted: says so, exit 0" {
	rm -rf "$R/sys/kernel/debug"
	mkdir "$R/sys/kernel/debug"
	ft status
	expect 0 "knobs:            unavailable: debugfs is not mounted"
}

@test "status: lockdown with the module not loaded: says so, exit 2" {
	export FOLIOTUNE_SYSROOT=$U
	echo "none [integrity] confidentiality" > "$U/sys/kernel/security/lockdown"
	ft status
	expect 2 "lockdown:         integrity (unsigned modules refused, debugfs restricted)"
	ft -j status
	expect 2 '"lockdown":"integrity"'
}
