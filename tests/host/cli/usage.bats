#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The usage: --help, COMMAND --help, help COMMAND, the man page in step
# with them, unknown commands and options.

load helpers

@test "--help exits 0 with the usage on stdout, nothing on stderr" {
	ft --help
	expect 0 "^Usage: foliotune"
	[ -z "$stderr" ]
	golden help.txt
	ft -h
	expect 0 "^Usage: foliotune"
}

@test "--help lists every knob of foliotune.h, and is the one knob table" {
	ft --help
	for k in $(knob_names); do
		grep -q "^  $k " "$T/out" || { diag "--help lacks knob $k"; return 1; }
	done
	grep -q '^Values: ' "$T/out"
}

# the commands the global help lists
help_commands() {
	"$FT_BIN" --help | sed -n 's/^  \([a-z][a-z]*\)\( .*\)\{0,1\}$/\1/p' |
		grep -vx -e 'unmap_.*' -e 'fault_.*' -e 'reclaim_.*' | sort -u
}

@test "COMMAND --help prints that command's usage only, as help COMMAND does" {
	local c n=0
	for c in $(help_commands); do
		ft "$c" --help
		expect 0
		[ "$(head -1 "$T/out" | cut -d' ' -f1-4)" = "Usage: foliotune [-j] $c" ] ||
			{ diag "$c --help: $(head -2 "$T/out")"; return 1; }
		refute grep -q '^Commands:' "$T/out"
		refute grep -q '^Values: ' "$T/out"	# the knob table has one place
		[ -z "$stderr" ]
		cp "$T/out" "$T/cmd-help"
		ft help "$c"
		cmp -s "$T/out" "$T/cmd-help" || { diag "help $c differs from $c --help"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 12 ]
}

@test "set --help names every knob, and only their names" {
	ft set --help
	golden help-set.txt
	for k in $(knob_names); do
		grep -q -E "(^  |, )$k(,|\.$)" "$T/out" || { diag "set --help lacks $k"; return 1; }
	done
}

@test "set -h anywhere: the usage, nothing written" {
	ft set -h fault_around_bytes 4K
	expect 0 "^Usage: foliotune \[-j\] set KNOB VALUE"
	[ "$(cat "$D/fault_around_bytes")" = 65536 ]
}

@test "-j with help: the usage stays text, errors are JSON" {
	ft help -j
	golden help.txt
	ft -j help set
	golden help-set.txt
	ft help -j bogus
	expect 1 '^{"error":"help: unknown command '"'"'bogus'"'"'","errno":22}$'
	[ -z "$stderr" ]
}

@test "help: an unknown command or option is a usage error" {
	ft help bogus
	expect 1 "help: unknown command 'bogus'"
	ft help -x
	expect 1 "help: invalid option -- 'x'"
}

@test "help shows no test hook and no build-tree path" {
	local c
	{ "$FT_BIN" --help; for c in $(help_commands); do "$FT_BIN" "$c" --help; done; } > "$T/help-every"
	refute grep -q FOLIOTUNE_ "$T/help-every"
	refute grep -q -e "$TOP" -e 'module/foliotune.ko' "$T/help-every"
}

@test "no command, an unknown command: usage errors" {
	ft
	expect 1 "missing COMMAND"
	ft bogus
	expect 1 "unknown command 'bogus'"
	ft -j bogus
	expect 1 '^{"error":"unknown command '"'"'bogus'"'"'","errno":22}$'
	[ -z "$stderr" ]
}

@test "an unknown command names the nearest ones" {
	local c
	# a transposition, a typo, the start of a name, two at the same distance
	for c in "stauts|status" "comapre|compare" "recrod|record" "analyse|analyze" \
		 "count|counters" "sup|support" "bet|get' or 'set"; do
		ft "${c%%|*}"
		expect 1 "^foliotune: unknown command '${c%%|*}' (did you mean '${c#*|}'?)$"
	done
	ft -j stauts
	expect 1 '^{"error":"unknown command '"'"'stauts'"'"' (did you mean '"'"'status'"'"'?)","errno":22}$'
	ft help stauts
	expect 1 "^foliotune: help: unknown command 'stauts' (did you mean 'status'?)$"
}

@test "unknown options and extra arguments: usage errors" {
	ft --bogus
	expect 1 "unrecognized option '--bogus'"
	ft status -x
	expect 1 "invalid option -- 'x'"
	ft status extra
	expect 1 "unexpected argument 'extra'"
	ft get unmap_batch fault_around_bytes
	expect 1 "expected at most one KNOB"
	ft load -t
	expect 1 "requires an argument"
	ft load -t soon
	expect 1 "invalid timeout 'soon'"
	ft load a.ko b.ko
	expect 1 "at most one PATH"
	ft unload now
	expect 1 "unexpected argument"
}

@test "the man page documents every option, command and knob of the help" {
	local man=$FT_SRCDIR/foliotune.8 c opt mopt missing=
	{ "$FT_BIN" --help; for c in $(help_commands); do "$FT_BIN" "$c" --help; done; } > "$T/help-every"
	for opt in $(grep -o -e '--[a-z][a-z-]*' "$T/help-every" | sort -u); do
		mopt=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		grep -q -e "$mopt" "$man" || missing+=" $opt"
	done
	for c in $(help_commands); do
		grep -q -e "^\.B[RI]* *$c\b" "$man" || missing+=" command:$c"
	done
	for c in $(knob_names); do
		grep -q "^\.B $c$" "$man" || missing+=" knob:$c"
	done
	[ -z "$missing" ] || { diag "not in the man page:$missing"; return 1; }
}

@test "the man page renders without groff warnings" {
	command -v groff > /dev/null || skip "groff missing"
	groff -man -ww -z "$FT_SRCDIR/foliotune.8" > "$T/groff" 2>&1
	[ ! -s "$T/groff" ] || { diag "$(cat "$T/groff")"; return 1; }
}

@test "-V/--version: the version alone, exit 0, whatever the kernel" {
	ft -V
	expect 0 "^foliotune [0-9][0-9.]*$"
	[ "$(wc -l < "$T/out")" = 1 ]
	[ -z "$stderr" ]
	export FOLIOTUNE_SYSROOT=$U
	echo 6.1.0-99-amd64 > "$U/proc/sys/kernel/osrelease"
	ft --version
	expect 0 "^foliotune [0-9][0-9.]*$"
	ft -j -V
	expect 0 '^{"version":"[0-9][0-9.]*"}$'
}
