#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# get and set: the knobs' values, checked against their kind and range
# before anything is written; the module's errors reported by name.

load helpers

# knob_is NAME VALUE: the fake module's file holds VALUE.
knob_is() {
	[ "$(cat "$D/$1")" = "$2" ] || { diag "$1 is $(cat "$D/$1"), want $2"; return 1; }
}

@test "get KNOB, -j before or after it" {
	ft get fault_around_bytes
	expect 0
	golden get.txt
	ft -j get unmap_batch
	expect 0 '^{"knob":"unmap_batch","value":1,"unit":"0|1|2"}$'
	ft get unmap_batch -j
	expect 0 '^{"knob":"unmap_batch","value":1,"unit":"0|1|2"}$'
}

@test "get: an unknown knob is a usage error; one the module lacks, a runtime error" {
	ft get bogus
	expect 1 "unknown knob 'bogus'"
	ft -j get bogus
	expect 1 '^{"error":"unknown knob '"'"'bogus'"'"'","errno":22}$'
	ft get fault_around_auto
	expect 2 "knob fault_around_auto is not provided by this module"
}

@test "get without KNOB: a name value line per knob the module provides" {
	local k want
	ft get
	expect 0
	want=$(for k in $(knob_names); do [ ! -f "$D/$k" ] || echo "$k $(cat "$D/$k")"; done)
	[ "$output" = "$want" ]
	# the fake module provides some knobs, not all
	[ "$(wc -l < "$T/out")" -gt 0 ]
	[ "$(wc -l < "$T/out")" -lt "$(knob_names | wc -l)" ]
	ft -j get
	expect 0 '^{"knobs":\[{"knob":"unmap_batch","value":1,"unit":"0|1|2"},{"knob":"fault_around_bytes","value":65536,"unit":"bytes"},{"knob":"fault_around_mkold","value":0,"unit":"0|1|2"}\]}$'
}

@test "get without KNOB: an unreadable knob is an error, the only output" {
	rm "$D/fault_around_mkold"
	mkdir "$D/fault_around_mkold"
	ft -j get
	expect 2 '^{"error":"cannot read fault_around_mkold: Is a directory","errno":21}$'
	[ "$(wc -l < "$T/out")" = 1 ]
}

@test "set: byte counts with suffixes, -j" {
	ft set fault_around_bytes 64K
	expect 0 "fault_around_bytes: 65536 -> 65536"
	ft set fault_around_bytes 2m
	expect 0 "fault_around_bytes: 65536 -> 2097152"
	knob_is fault_around_bytes 2097152
	ft -j set fault_around_bytes 4k
	expect 0
	golden set.json
	knob_is fault_around_bytes 4096
}

@test "set: an arm knob (0|1|2) takes the bool words it took, any case, and 2" {
	local v want
	for v in off on No YES false TRUE 0 1 2; do
		ft set unmap_batch "$v"
		expect 0
		case $v in off | No | false | 0) want=0 ;; 2) want=2 ;; *) want=1 ;; esac
		knob_is unmap_batch "$want"
	done
	ft set fault_around_mkold 2
	expect 0
	knob_is fault_around_mkold 2
}

@test "set KNOB=VALUE, the sysctl habit: the same checks, the same result" {
	local a
	echo 2 > "$D/fault_around_mkold"
	ft set fault_around_mkold=1
	expect 0 "fault_around_mkold: 2 -> 1"
	knob_is fault_around_mkold 1
	echo 4096 > "$D/fault_around_bytes"
	ft -j set fault_around_bytes=16K
	expect 0 '^{"knob":"fault_around_bytes","old":4096,"value":16384,"unit":"bytes"}$'
	for a in "fault_around_mkold=3|expected one of 0|1|2" "fault_around_mkold=|expected one of" \
		 "fault_around_bytes=4M|out of range 4K..2M" "bogus=1|unknown knob 'bogus'" \
		 "=1|invalid setting '=1': expected KNOB=VALUE" "fault_around_mkold=-1|negative values are not allowed"; do
		ft set "${a%%|*}"
		expect 1 "${a#*|}"
		knob_is fault_around_mkold 1
		knob_is fault_around_bytes 16384
	done
	ft set fault_around_mkold=1 2
	expect 1 "set: expected KNOB VALUE or KNOB=VALUE"
}

@test "set refuses junk, overflow and negative values, nothing written" {
	local v
	for v in junk 64KB 4T 1.5K 0x1000 "" " 4K" 18446744073709551616 99999999999G; do
		ft set fault_around_bytes "$v"
		expect 1 "invalid value"
		knob_is fault_around_bytes 65536
	done
	ft set fault_around_bytes -4096
	expect 1 "negative values are not allowed"
	knob_is fault_around_bytes 65536
	ft set fault_around_bytes -- -4K
	expect 1 "negative values are not allowed"
	echo 1 >"$D/unmap_batch"
	ft set unmap_batch maybe
	expect 1 "expected one of 0|1|2"
	ft set unmap_batch 3
	expect 1 "expected one of 0|1|2"
	knob_is unmap_batch 1
	ft set fault_around_mkold 3
	expect 1 "expected one of 0|1|2"
	ft set fault_around_auto_period_ms 4294967296
	expect 1 "out of range"
}

@test "set: the documented ranges (foliotune.h), checked before any write" {
	echo 1000 > "$D/fault_around_auto_period_ms"
	ft set fault_around_bytes 4M
	expect 1
	golden set-range-bytes.txt "$T/err"
	knob_is fault_around_bytes 65536
	ft set fault_around_auto_period_ms 10
	expect 1
	golden set-range-period.txt "$T/err"
	knob_is fault_around_auto_period_ms 1000
	ft -j set fault_around_auto_period_ms 60001
	expect 1 '^{"error":"invalid value '"'"'60001'"'"' for fault_around_auto_period_ms: out of range 100..60000 ms","errno":34}$'
	ft set fault_around_auto_period_ms 100
	expect 0 "fault_around_auto_period_ms: 1000 -> 100"
	ft set fault_around_auto_period_ms 60000
	expect 0 "fault_around_auto_period_ms: 100 -> 60000"
	ft set fault_around_bytes 4K
	expect 0 "fault_around_bytes: 65536 -> 4096"
}

@test "set: usage errors, a knob the module lacks" {
	ft set bogus 1
	expect 1 "unknown knob 'bogus'"
	ft set fault_around_bytes
	expect 1 "expected KNOB VALUE or KNOB=VALUE"
	ft set fault_around_auto 1
	expect 2 "knob fault_around_auto is not provided by this module"
}

@test "set: not root, nothing written" {
	FOLIOTUNE_ASSUME_UID=1000 ft set fault_around_bytes 4K
	expect 2 "set requires root privileges"
	FOLIOTUNE_ASSUME_UID=1000 ft -j set fault_around_bytes 4K
	expect 2 '^{"error":"set requires root privileges","errno":1}$'
	knob_is fault_around_bytes 65536
}

@test "set: the kernel's errno by name (ENOSPC, EISDIR)" {
	rm "$D/fault_around_mkold"
	ln -s /dev/full "$D/fault_around_mkold"
	ft set fault_around_mkold 1
	expect 2 "cannot write fault_around_mkold: No space left on device"
	ft -j set fault_around_mkold 1
	expect 2 '^{"error":"cannot write fault_around_mkold: No space left on device","errno":28}$'
	rm "$D/fault_around_mkold"
	mkdir "$D/fault_around_mkold"
	ft set fault_around_mkold 1
	expect 2 "Is a directory"
}

@test "set: debugfs locked down (an immutable knob file gives EPERM, as under lockdown)" {
	chattr +i "$D/fault_around_mkold" 2> /dev/null || skip "chattr +i not available (root, a file system with it)"
	echo "none [integrity] confidentiality" > "$R/sys/kernel/security/lockdown"
	ft set fault_around_mkold 1
	chattr -i "$D/fault_around_mkold"
	expect 2 "cannot write fault_around_mkold: debugfs is locked down (lockdown=integrity)"
}

@test "get, set, counters: the module not loaded" {
	export FOLIOTUNE_SYSROOT=$U
	ft get fault_around_bytes
	expect 2 "the foliotune module is not loaded"
	ft set fault_around_bytes 4K
	expect 2 "the foliotune module is not loaded"
	ft counters
	expect 2 "the foliotune module is not loaded"
	ft -j counters
	expect 2 '^{"error":"the foliotune module is not loaded (try '"'"'foliotune load'"'"')","errno":2}$'
}

@test "get and set: lockdown with the module not loaded" {
	export FOLIOTUNE_SYSROOT=$U
	echo "none [integrity] confidentiality" > "$U/sys/kernel/security/lockdown"
	ft get unmap_batch
	expect 2 "cannot be: the kernel is locked down (lockdown=integrity)"
	ft set unmap_batch 1
	expect 2 "cannot be: the kernel is locked down (lockdown=integrity)"
}

@test "get: debugfs not mounted, FOLIOTUNE_DEBUGFS, the module's directory missing" {
	mv "$R/sys/kernel/debug" "$T/debugfs.save"
	mkdir "$R/sys/kernel/debug"
	ft get fault_around_bytes
	expect 2 "debugfs is not mounted at $R/sys/kernel/debug"
	FOLIOTUNE_DEBUGFS=$T/debugfs.save ft get fault_around_bytes
	expect 0 "^65536$"
	mkdir "$R/sys/kernel/debug/tracing"
	ft get fault_around_bytes
	expect 2 "is loaded but $R/sys/kernel/debug/foliotune does not exist"
}
