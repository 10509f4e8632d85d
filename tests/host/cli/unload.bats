#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# unload: disable the livepatch, wait for the transition, remove the module
# (delete_module faked).

load helpers

@test "unload: not loaded, -j" {
	export FOLIOTUNE_SYSROOT=$U
	ft unload
	expect 0 "foliotune is not loaded"
	ft -j unload
	expect 0 '^{"unloaded":true,"was_loaded":false,"seconds":'
}

@test "unload: not root" {
	FOLIOTUNE_ASSUME_UID=1000 ft unload
	expect 2 "unload requires root privileges"
}

@test "unload: success, once a fake kernel takes the patch and the module away" {
	# patch disabled -> transition -> patch and module go away (each file
	# replaced atomically: a real sysfs read never sees it half written)
	( i=0
	  while [ "$(cat "$L/enabled" 2> /dev/null)" != 0 ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	  echo 1 > "$L/transition.new" && mv "$L/transition.new" "$L/transition"; sleep 0.2
	  echo 0 > "$L/transition.new" && mv "$L/transition.new" "$L/transition"; sleep 0.2
	  rm -rf "$L"; sleep 0.2
	  rm -rf "$R/sys/module/foliotune" ) > /dev/null 2>&1 3>&- &
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft unload -t 20
	wait
	expect 0 "foliotune unloaded (livepatch disabled, module removed"
}

@test "unload: a transition timeout lists the tasks not yet unpatched" {
	mk_tasks "$R"
	echo 1 > "$L/transition"
	ft unload -t 0.2
	expect 2 "timed out after 0.2 s waiting for the livepatch transition (unpatching)" \
		"pid 100 tid 101 (done-thread) patch_state=1"
	[ "$(cat "$L/enabled")" = 0 ]
	expect_not "stuck-worker"	# already unpatched
}

@test "unload: delete_module's errors (busy, EPERM), a module that stays" {
	rm -rf "$L"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=16 ft unload -t 0.3
	expect 2 "cannot remove module foliotune: Device or resource busy (still in use)"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=1 ft unload -t 0.3
	expect 2 "Operation not permitted"
	FOLIOTUNE_FAKE_MODULE_SYSCALLS=2 ft unload -t 0.2
	expect 2 "timed out after 0.2 s waiting for $R/sys/module/foliotune to go away"
}
