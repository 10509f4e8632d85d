#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# support: the support check's verdict in one line, the builds to boot one
# per line after a refusal; the other commands refuse in the same short
# line (tests/host/test-kernels-refuse.sh: make's side).

load helpers

setup() {
	T=$BATS_TEST_TMPDIR
	U=$T/unloaded
	mk_root "$U" unloaded
	export FOLIOTUNE_SYSROOT=$U
}

# local_header REL VERSION: the header make verify-kernel writes for the
# kernel a machine runs.
local_header() {
	mkdir -p "$U/var/lib/foliotune/verified"
	{
		echo "#define FT_VERIFIED_RELEASE	\"$1\""
		printf '#define FT_VERIFIED_VERSION\t\\\n\t"%s"\n' "$2"
		echo '#define FT_VERIFIED_BY	"on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC"'
	} > "$U/var/lib/foliotune/verified/$1.h"
}

@test "support: a kernel that is no Debian 6.12 build: one short line, then the builds to boot, exit 2" {
	echo 6.1.0-99-amd64 > "$U/proc/sys/kernel/osrelease"
	ft support
	refused "^foliotune does not support 6.1.0-99-amd64 (.*): foliotune serves Debian 6.12 and Linux 7 builds; boot a verified one ('foliotune support -l' lists them)$"
	ft -j support
	expect 2 '"supported":false,' \
		"\"verified_builds\":\\[\"$(printf '%s\n' "$VERIFIED" | sed 's/, /","/g')\"\\]}$"
}

@test "support -l: the verified builds, one per line, and nothing else" {
	ft support -l
	expect 0
	[ "$output" = "$VERIFIED_LINES" ]
	[ -z "$stderr" ]
	refute grep -q ftdebug "$T/out"	# the debug lane's build is not one to boot
	ft -j support --list
	expect 0 '^{"verified_builds":\["'
	ft support -l "$KVER" "$KVERSION"
	expect 1 "support: -l/--list takes no RELEASE VERSION"
}

@test "get and counters refuse an unsupported kernel in one short line naming support, no 'load' hint" {
	echo 6.1.0-99-amd64 > "$U/proc/sys/kernel/osrelease"
	ft get unmap_batch
	expect 2 "^foliotune: the foliotune module is not loaded and cannot be: foliotune does not support this kernel: .*('foliotune support -l' lists them)$"
	[ "$(wc -l < "$T/err")" = 1 ]
	[ "$(wc -c < "$T/err")" -le 300 ]
	echo 6.12.999+deb13-amd64 > "$U/proc/sys/kernel/osrelease"
	ft counters
	expect 2 "not loaded and cannot be: .*make verify-kernel KVER=6.12.999+deb13-amd64"
	expect_not "foliotune load"
}

@test "support: a verified release with another version string: one line, verify on this box, exit 2" {
	echo "#1 SMP PREEMPT_DYNAMIC Debian 6.12.999-1 (a rebuild)" > "$U/proc/sys/kernel/version"
	ft support
	refused "^foliotune does not support $KVER (#1 SMP PREEMPT_DYNAMIC Debian 6.12.999-1 (a rebuild)): $KVER was verified on version '$KVERSION_RE', not this one; verify this build: make verify-kernel KVER=$KVER (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md)$"
	ft -j support
	expect 2 '"supported":false,"verified":null,"next_step":"'"$KVER"' was verified on version'
	ft get fault_around_bytes
	expect 2 "the foliotune module is not loaded and cannot be: foliotune does not support this kernel: .*make verify-kernel KVER=$KVER"
	expect_not "foliotune load"
}

@test "support RELEASE VERSION: a build verified in the tree, one line, exit 0" {
	ft support "$KVER" "$KVERSION"
	one_line 0 output "^foliotune supports $KVER ($KVERSION_RE): verified in the tree (module/verified/$KVER.h)$"
}

@test "support: usage errors, exit 1" {
	ft support "$KVER"
	expect 1 "support: expected no argument or RELEASE VERSION"
	ft support "$KVER" ""
	expect 1 "support: RELEASE and VERSION must not be empty"
	ft support "$(printf '%0300d' 6)" "$KVERSION"
	expect 1 "support: RELEASE or VERSION too long"
}

@test "support: a Debian 6.12 build not verified: verify it, or boot a verified one, exit 2" {
	echo 6.12.999+deb13-amd64 > "$U/proc/sys/kernel/osrelease"
	ft support
	refused "^foliotune does not support 6.12.999+deb13-amd64 (.*): this build is not verified; verify it: make verify-kernel KVER=6.12.999+deb13-amd64 (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md), or boot a verified build ('foliotune support -l' lists them)$"
}

@test "support and status: a build verified on this machine, by which machine and when, exit 0" {
	echo 6.12.999+deb13-amd64 > "$U/proc/sys/kernel/osrelease"
	local_header 6.12.999+deb13-amd64 "$KVERSION"
	ft status
	expect 0 "^supported:        yes" \
		"^verified:         locally on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC (/var/lib/foliotune/verified/6.12.999+deb13-amd64.h)$"
	ft support
	one_line 0 output "^foliotune supports 6.12.999+deb13-amd64 (.*): verified locally on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC (/var/lib/foliotune/verified/6.12.999+deb13-amd64.h)$"
}

@test "support: FT_STATE_DIR, where make verify-kernel wrote the header, exit 0" {
	echo 6.12.999+deb13-amd64 > "$U/proc/sys/kernel/osrelease"
	local_header 6.12.999+deb13-amd64 "$KVERSION"
	mkdir -p "$T/state/verified"
	mv "$U/var/lib/foliotune/verified/6.12.999+deb13-amd64.h" "$T/state/verified/"
	FT_STATE_DIR=$T/state ft support
	one_line 0 output "^foliotune supports 6.12.999+deb13-amd64 (.*): verified locally on box1 .*($T/state/verified/6.12.999+deb13-amd64.h)$"
}

@test "support and status: this machine's header of another version: verify again, exit 2" {
	echo 6.12.999+deb13-amd64 > "$U/proc/sys/kernel/osrelease"
	local_header 6.12.999+deb13-amd64 "$KVERSION"
	echo "#1 SMP another build" > "$U/proc/sys/kernel/version"
	ft support
	refused "^foliotune does not support 6.12.999+deb13-amd64 (#1 SMP another build): .*6.12.999+deb13-amd64.h was verified on version '.*', not this one; verify this build again: sudo FT_TEST_BOX=1 make verify-kernel (docs/own-box.md)$"
	ft status
	expect 2 "^supported:        no: .*6.12.999+deb13-amd64.h was verified on version '.*', not this one; verify this build again: sudo FT_TEST_BOX=1 make verify-kernel"
}
