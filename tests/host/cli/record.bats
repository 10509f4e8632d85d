#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# record: settings applied for a command's run and restored, the counter
# deltas in a record file; the command's fate is record's exit status.

load helpers

setup() {
	T=$BATS_TEST_TMPDIR
	R=$T/root U=$T/unloaded
	D=$R/sys/kernel/debug/foliotune
	mk_root "$R" loaded
	mk_root "$U" unloaded
	export FOLIOTUNE_SYSROOT=$R
	# a workload: moves the counters, notes the knobs it ran under, exits $1
	cat > "$T/work.sh" <<WORK
cp "$FIX/proc_vmstat.after" "$R/proc/vmstat"
cp "$FIX/module_vmstat.after" "$D/vmstat"
echo "during: \$(cat "$D/fault_around_mkold") \$(cat "$D/fault_around_bytes")" > "$T/during"
exit \${1:-0}
WORK
}

knobs_are() {
	[ "$(cat "$D/fault_around_mkold") $(cat "$D/fault_around_bytes")" = "$1" ] ||
		{ diag "knobs $(cat "$D/fault_around_mkold") $(cat "$D/fault_around_bytes"), want $1"; return 1; }
}

@test "record with settings: applied during the run, restored, the record file" {
	ft record -o "$T/rec1.txt" --set fault_around_mkold=1 -s fault_around_bytes=16K -l mkold1 -- sh "$T/work.sh"
	expect 0 "record written to $T/rec1.txt"
	golden record-settings.txt "$T/rec1.txt"
	[ "$(cat "$T/during")" = "during: 1 16384" ]
	knobs_are "0 65536"
	[ "$(stat -c %a "$T/rec1.txt")" = 600 ]
}

@test "record under sudo: the file is the sudo user's, mode 0600" {
	[ "$(id -u)" = 0 ] || skip "not root (chown needs root)"
	ft record -o "$T/rec.txt" -- true
	[ "$(stat -c %u:%g "$T/rec.txt")" = 0:0 ]	# as root without sudo: root's
	SUDO_UID=65534 SUDO_GID=65533 ft record -o "$T/rec-sudo.txt" -- true
	expect 0 "record written to $T/rec-sudo.txt"
	[ "$(stat -c %u:%g:%a "$T/rec-sudo.txt")" = 65534:65533:600 ]
}

@test "record passes its command's exit status on, and keeps the record" {
	ft -j record -o "$T/rec2.txt" -- sh "$T/work.sh" 3
	EXTRA_SED='s/"wall_seconds":[0-9.]*/"wall_seconds":<WALL>/' golden record-exit3.json
	expect 3 "warning: the command exited with status 3"
	grep -q '^exit_code 3$' "$T/rec2.txt"
	ft record -o "$T/rec-kill.txt" -- sh -c 'kill -KILL $$'
	expect 137 "record written to $T/rec-kill.txt" "warning: the command was killed by signal 9"
	grep -q '^exit_signal 9$' "$T/rec-kill.txt"
	ft record -o "$T/rec-ok.txt" -- sh -c 'exit 0'
	expect 0 "record written to $T/rec-ok.txt"
}

@test "compare of two fresh records" {
	ft -j record -o "$T/rec2.txt" -- sh "$T/work.sh" 3
	cp "$FIX/proc_vmstat.before" "$R/proc/vmstat"
	cp "$FIX/module_vmstat.before" "$D/vmstat"
	ft record -o "$T/rec1.txt" --set fault_around_mkold=1 -s fault_around_bytes=16K -l mkold1 -- sh "$T/work.sh"
	ft compare "$T/rec2.txt" "$T/rec1.txt"
	expect 0
	EXTRA_SED='s/^wall_seconds .*/wall_seconds <WALL ROW>/' golden compare-records.txt
}

@test "record never overwrites a file" {
	echo 'label mkold1' > "$T/rec1.txt"
	ft record -o "$T/rec1.txt" -- true
	expect 2 "already exists"
	[ "$(cat "$T/rec1.txt")" = "label mkold1" ]
}

@test "record: a command that cannot run: no file, the settings restored" {
	ft record -o "$T/rec3.txt" -s fault_around_bytes=4K -- /nonexistent/command
	expect 2 "cannot run /nonexistent/command: No such file or directory"
	[ ! -e "$T/rec3.txt" ]
	knobs_are "0 65536"
}

@test "record: refused before anything runs, no file" {
	ft record -o "$T/rec3.txt"
	expect 1 "missing COMMAND"
	ft record -o "$T/rec3.txt" -s fault_around_bytes=junk -- true
	expect 1 "invalid value 'junk'"
	ft record -o "$T/rec3.txt" -s bogus=1 -- true
	expect 1 "unknown knob 'bogus'"
	ft record -o "$T/rec3.txt" -s fault_around_bytes=4K -s fault_around_bytes=8K -- true
	expect 1 "set twice"
	ft record -o "$T/rec3.txt" -s fault_around_auto_period_ms=10 -- true
	expect 1 "out of range 100..60000 ms"
	ft record -o "$T/rec3.txt" -s fault_around_auto=1 -- true
	expect 2 "not provided by this module"
	[ ! -e "$T/rec3.txt" ]
	FOLIOTUNE_ASSUME_UID=1000 ft record -o "$T/rec3.txt" -s fault_around_bytes=4K -- true
	expect 2 "requires root"
	[ ! -e "$T/rec3.txt" ]
	knobs_are "0 65536"
}

@test "record: the default file name, in the current directory" {
	cd "$T"
	ft record -- true
	expect 0 "record written to ./foliotune-record-"
	ls "$T"/foliotune-record-*Z.txt
}

@test "record arms reclaim_probes for its run as root, restored after; -s reclaim_probes=0 wins" {
	echo 0 > "$D/reclaim_probes"
	echo 'echo "during: $(cat "'"$D"'/reclaim_probes")" > "'"$T"'/during-rp"' > "$T/work-rp.sh"
	ft record -o "$T/rec-rp1.txt" -- sh "$T/work-rp.sh"
	expect 0 "record written to $T/rec-rp1.txt"
	[ "$(cat "$T/during-rp")" = "during: 1" ]
	[ "$(cat "$D/reclaim_probes")" = 0 ]
	grep -qx 'set reclaim_probes 1 0' "$T/rec-rp1.txt"
	ft record -o "$T/rec-rp2.txt" -s reclaim_probes=0 -- sh "$T/work-rp.sh"
	expect 0 "record written to $T/rec-rp2.txt"
	[ "$(cat "$T/during-rp")" = "during: 0" ]
	# not as another user: no set line
	FOLIOTUNE_ASSUME_UID=1000 ft record -o "$T/rec-rp3.txt" -- sh "$T/work-rp.sh"
	expect 0 "record written to $T/rec-rp3.txt"
	[ "$(cat "$T/during-rp")" = "during: 0" ]
	refute grep -q '^set ' "$T/rec-rp3.txt"
}

@test "record without the module: /proc/vmstat only" {
	export FOLIOTUNE_SYSROOT=$U
	echo "cp '$FIX/proc_vmstat.after' '$U/proc/vmstat'" > "$T/work-u.sh"
	ft record -o "$T/rec-u.txt" -- sh "$T/work-u.sh"
	expect 0 "recording /proc/vmstat only"
	golden record-unloaded.txt "$T/rec-u.txt"
	ft record -o "$T/rec-u2.txt" -s fault_around_bytes=4K -- true
	expect 2 "not loaded"
}

@test "record: SIGTERM during the run: passed on, settings restored, record written, exit 143" {
	local i=0
	ft_bg record -o "$T/rec-int.txt" -s fault_around_bytes=4K -- sh -c "touch '$T/started'; exec sleep 30"
	while [ ! -e "$T/started" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	kill -TERM "$bg"
	ft_wait
	expect 143 "record written"
	knobs_are "0 65536"
	grep -q '^interrupted SIGTERM$' "$T/rec-int.txt"
	grep -q '^exit_signal 15$' "$T/rec-int.txt"
}

@test "record: a setting that cannot be restored: a warning with the command, exit 2" {
	# the workload turns the knob's file into a directory: the write back fails
	ft record -o "$T/rec-nr.txt" -s fault_around_mkold=2 -- \
		sh -c "rm '$D/fault_around_mkold' && mkdir '$D/fault_around_mkold'"
	expect 2 "warning: cannot restore fault_around_mkold to 0: Is a directory (run 'foliotune set fault_around_mkold=0')" \
		"1 setting(s) could not be restored"
	grep -q '^set fault_around_mkold 2 0$' "$T/rec-nr.txt"
}
