#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# load: the support check, the module file (modprobe's answer, or a path)
# checked against the kernel, finit_module (faked), the transition.

load helpers

# elf_ko FILE RELEASE: a module file whose vermagic names RELEASE.
elf_ko() {
	mkdir -p "$(dirname "$1")"
	printf '\177ELF junk\000name=foliotune\000vermagic=%s SMP preempt mod_unload modversions \000' "$2" > "$1"
}

@test "load: already loaded, -j" {
	ft load
	expect 0 "foliotune is already loaded"
	ft -j load
	expect 0 '^{"loaded":true,"already_loaded":true,"path":null,"livepatch":"enabled","seconds":'
}

@test "load: not root; a livepatch being disabled; a module without livepatch" {
	FOLIOTUNE_ASSUME_UID=1000 ft load
	expect 2 "load requires root privileges"
	echo 0 > "$L/enabled"
	ft load
	expect 2 "is disabled (being unloaded)"
	rm -rf "$L"
	ft load
	expect 2 "livepatch foliotune is not registered"
}

@test "load: a transition timeout lists the stalled tasks" {
	mk_tasks "$R"
	echo 1 > "$L/transition"
	ft load -t 0.2
	expect 2
	golden load-stalled.txt "$T/err"
	ft -j load -t 0.2
	expect 2
	golden load-stalled.json
}

@test "load: waits for the transition" {
	echo 1 > "$L/transition"
	# replaced atomically: a real sysfs read never sees a half-written file
	( sleep 0.5; echo 0 > "$L/transition.new" && mv "$L/transition.new" "$L/transition" ) > /dev/null 2>&1 3>&- &
	ft load -t 20
	wait
	expect 0 "already loaded"
}

@test "load PATH: a missing file; without an installed module, the tree's, else none" {
	export FOLIOTUNE_SYSROOT=$U
	ft load "$T/nope.ko"
	expect 2 "module file $T/nope.ko: No such file or directory"
	ft load
	if [ -e "$TOP/module/foliotune.ko" ]; then
		# (the fake syscalls fail with ENOSYS: the file it tried is named)
		expect 2 "cannot load $TOP/module/foliotune.ko: "
	else
		expect 2 "module foliotune.ko not found"
	fi
}

@test "load: a module file for another build says so and how to build one, loads nothing; a PATH the same" {
	export FOLIOTUNE_SYSROOT=$U
	KO=$U/lib/modules/$KVER/updates/foliotune.ko
	elf_ko "$KO" 6.1.0-99-amd64
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2
	expect 2 "^foliotune: cannot load $KO: it was built for kernel 6.1.0-99-amd64, not this one ($KVER, which foliotune supports); build and install it for this kernel: sudo make install in the source tree (with dkms: sudo dkms autoinstall)$"
	expect_not "^foliotune: loading "
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2 "$KO"
	expect 2 "cannot load $KO: it was built for kernel 6.1.0-99-amd64, not this one"
	expect_not "^foliotune: loading "
}

@test "load: an unsupported kernel is refused before any file, as support refuses it" {
	export FOLIOTUNE_SYSROOT=$U
	KO=$U/lib/modules/$KVER/updates/foliotune.ko
	elf_ko "$KO" "$KVER"
	echo 6.1.0-99-amd64 > "$U/proc/sys/kernel/osrelease"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2
	expect 2 "^foliotune: cannot load: foliotune does not support this kernel (6.1.0-99-amd64): foliotune serves Debian 6.12 and Linux 7 builds; boot a verified one ('foliotune support -l' lists them)$"
	[ "$(wc -l < "$T/err")" = 1 ]
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft -j load -t 0.2 "$KO"
	expect 2 '^{"error":"cannot load: foliotune does not support this kernel (6.1.0-99-amd64): .*","errno":8}$'
	[ ! -e "$U/sys/module/foliotune" ]
	[ ! -e "$U/sys/kernel/livepatch" ]
}

@test "load: finit_module's errors in words (signature, lockdown, modules_disabled, ENOEXEC, EINVAL)" {
	export FOLIOTUNE_SYSROOT=$U
	KO=$U/lib/modules/$KVER/updates/foliotune.ko
	elf_ko "$KO" "$KVER"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=129 ft load
	expect 2 "module signature rejected"
	echo "none [integrity] confidentiality" > "$U/sys/kernel/security/lockdown"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=1 ft load
	expect 2 "locked down (lockdown=integrity)"
	echo "[none] integrity confidentiality" > "$U/sys/kernel/security/lockdown"
	echo 1 > "$U/proc/sys/kernel/modules_disabled"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=1 ft load
	expect 2 "kernel.modules_disabled=1"
	echo 0 > "$U/proc/sys/kernel/modules_disabled"
	# the kernel is supported (checked first): ENOEXEC is the file's build
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=8 ft load
	expect 2 "cannot load $KO: the module file was built for another kernel build (its refusal is in dmesg); build and install it for this kernel: sudo make install in the source tree (with dkms: sudo dkms autoinstall)$"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft -j load
	expect 2 '"errno":22}$' "Invalid argument"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2
	expect 2 "timed out after 0.2 s waiting for"
}

@test "load: success, once a fake kernel registers the patch" {
	export FOLIOTUNE_SYSROOT=$U
	KO=$U/lib/modules/$KVER/updates/foliotune.ko
	elf_ko "$KO" "$KVER"
	# the kernel registers the patch once the CLI has said "loading" (just
	# before finit_module)
	( i=0
	  while ! grep -q '^foliotune: loading ' "$T/err" 2> /dev/null && [ $i -lt 600 ]; do
		sleep 0.05; i=$((i + 1))
	  done
	  mkdir -p "$U/sys/kernel/livepatch/foliotune/vmlinux" "$U/sys/module/foliotune"
	  echo 1 > "$U/sys/kernel/livepatch/foliotune/transition"
	  echo 1 > "$U/sys/kernel/livepatch/foliotune/enabled"
	  sleep 0.3
	  echo 0 > "$U/sys/kernel/livepatch/foliotune/transition" ) > /dev/null 2>&1 3>&- &
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 20
	wait
	expect 0 "foliotune loaded from $KO (livepatch enabled, transition complete"
}

@test "load: which file: modprobe's answer (modules.dep) first, an explicit PATH always" {
	export FOLIOTUNE_SYSROOT=$U
	KO=$U/lib/modules/$KVER/updates/foliotune.ko
	M=$U/lib/modules/$KVER
	elf_ko "$KO" "$KVER"
	elf_ko "$M/extra/foliotune.ko.xz" "$KVER"
	printf 'kernel/fs/xfs/xfs.ko.xz: kernel/lib/libcrc32c.ko.xz\nextra/foliotune.ko.xz:\n' > "$M/modules.dep"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load
	expect 2 "cannot load $M/extra/foliotune.ko.xz:"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load "$KO"
	expect 2 "cannot load $KO:"
	printf 'extra/foliotune.ko:\n' > "$M/modules.dep"
	ft load
	expect 2 "modules.dep names $M/extra/foliotune.ko, which does not exist (run 'depmod $KVER')"
	printf '/lib/modules/%s/extra/foliotune.ko.xz:\n' "$KVER" > "$M/modules.dep"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load
	expect 2 "cannot load $M/extra/foliotune.ko.xz:"
	# not in modules.dep (depmod not run yet): updates/
	printf 'kernel/fs/xfs/xfs.ko.xz:\nupdates/foliotunex.ko:\n' > "$M/modules.dep"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load
	expect 2 "cannot load $KO:"
}
