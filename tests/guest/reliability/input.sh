#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability: bad input, beyond test-knobs.sh.  Its own boot (tests/run.sh:
# guest_suite reliability-input -- tests/guest/reliability/input.sh).
#
#  - every debugfs file: knobs get empty, whitespace, signs, bases, unicode,
#    embedded NULs, overflow, out-of-range, huge (up to 1 MiB), continued,
#    appended and bad-pointer writes: each fails with an errno and leaves the
#    value unchanged; read-only files refuse writes and truncation; reads
#    (whole, byte by byte, past the end, into a bad pointer) never return
#    garbage;
#  - several processes writing good and bad values at once while others read;
#  - loading twice (one after the other and two insmods racing);
#  - unloading while the CLI reads counters (stat -i) and shells cat vmstat;
#  - removing the module while debugfs files are held open: documented
#    outcome (rmmod is refused with EBUSY until the file is closed: the
#    debugfs proxy takes a module reference at open), reads meanwhile fine;
#  - the CLI fed garbage (arguments, record files): usage/runtime errors,
#    never a crash.
. "$(dirname "$0")/../../lib.sh"
. "$FT_REPO/tests/guest/reliability/rel-lib.sh"
# 9 lines per knob, 5 per read-only file (6 for build), 50 others.
plan $((9 * $(ft_nr_knobs) + 5 * ($(ft_nr_debugfs_files) - $(ft_nr_knobs)) + 1 + 50))
w=$(mktemp -d)
trap 'rm -rf "$w"; jobs -p | xargs -r kill 2>/dev/null' EXIT
write_raw() { "$FT_REPO/tests/progs/ft_write" "$@"; }

if [ ! -x "$FT_RELBIN" ]; then
	not_ok "input: ft_rel built" "$FT_RELBIN missing (make progs)"
	exit 0
fi
ft_unload
ft_load || { not_ok "input: load" "insmod failed"; exit 0; }
mark=$(dmesg_mark)

# valid_content FILE: what a read of this file must look like.  (An awk
# exit in a rule still runs END, whose exit wins: hence the flag.)
valid_content() {
	case ${1##*/} in
	vmstat) awk 'NF != 2 || $1 !~ /^[a-z0-9_]+$/ || $2 !~ /^[0-9]+$/ { bad = 1 } END { exit bad || NR == 0 }' "$1" ;;
	build) awk 'NR == 1 && !/^release / { bad = 1 } NR == 2 && !/^version / { bad = 1 }
		    NR == 3 && !/^source / { bad = 1 }
		    NR == 4 && !/^verified (in the tree|locally on .)/ { bad = 1 }
		    END { exit bad || NR != 4 }' "$1" ;;
	*_state) cat "$1" > /dev/null && ! grep -qaP '\x00' "$1" ;;	# may be empty
	*) grep -qxE '[0-9]+' "$1" && [ "$(wc -l < "$1")" = 1 ] ;;
	esac
}


knobs=() ro=()
for f in "$FT_DEBUGFS"/*; do
	[ "$(stat -c %a "$f")" = 600 ] && knobs+=("$f") || ro+=("$f")
done
echo "# knobs: ${knobs[*]##*/}; read-only: ${ro[*]##*/}"
check "input: at least one knob and vmstat/build present" test ${#knobs[@]} -ge 1 -a ${#ro[@]} -ge 2

# ---- knobs: bad writes ---------------------------------------------------------

for f in "${knobs[@]}"; do
	k=${f##*/}
	v0=$(cat "$f")
	# 48 malformed/out-of-range values, 22 B..1 MiB numbers, a value padded
	# to 4 KiB, writes at offsets 1 and 4096, a continued write, a write from
	# an unmapped buffer: one process (a shell loop forks too slowly here).
	"$FT_RELBIN" knobcheck "$f" > "$w/kc" 2>&1; rc=$?
	grep -v '^knobcheck:' "$w/kc" | head -10 | sed 's/^/# /'
	summary=$(grep '^knobcheck:' "$w/kc")
	if [ "$rc" = 0 ]; then ok "input: $k: every bad write fails with the right errno, value unchanged (${summary#knobcheck: })"
	else not_ok "input: $k: every bad write fails with the right errno, value unchanged" "${summary:-$(tail -1 "$w/kc")}"; fi
	check_eq "input: $k unchanged after all bad writes" "$v0" "$(cat "$f")"
	# O_APPEND: either a clean write or a clean refusal.
	if printf '%s\n' "$v0" >> "$f" 2>/dev/null; then r=accepted; else r=refused; fi
	check_eq "input: $k after an O_APPEND write ($r)" "$v0" "$(cat "$f")"
	"$FT_RELBIN" rawio "$f" > "$w/raw"
	check_eq "input: $k read into an unmapped address fails EFAULT" "efault-read EFAULT" "$(grep efault-read "$w/raw")"
	check_eq "input: $k reads byte by byte, past the end, after lseek" \
		"bytewise same|eof-read 0|seek-read same" "$(grep -E '^(bytewise|eof-read|seek-read)' "$w/raw" | paste -sd'|')"
	check "input: $k reads back a plain decimal" valid_content "$f"
	check_eq "input: $k accepts its own value back" OK "$(write_raw "$f" "$v0")"
done

# ---- read-only files --------------------------------------------------------------

for f in "${ro[@]}"; do
	k=${f##*/}
	before=$(cat "$f" | md5sum)
	r=$(write_raw "$f" 1)
	case $r in OK) not_ok "input: $k refuses writes" "a write succeeded" ;; *) ok "input: $k refuses writes ($r)" ;; esac
	r=$(write_raw "$f" "$(head -c 65536 /dev/zero | tr '\0' x)")
	case $r in OK) not_ok "input: $k refuses a 64 KiB write" "it succeeded" ;; *) ok "input: $k refuses a 64 KiB write ($r)" ;; esac
	: > "$f" 2>/dev/null
	check "input: $k still well-formed after write attempts and O_TRUNC" valid_content "$f"
	[ "$k" = build ] && check_eq "input: build unchanged" "$before" "$(cat "$f" | md5sum)"
	"$FT_RELBIN" rawio "$f" > "$w/raw"
	check_eq "input: $k: EFAULT on a bad read buffer" "efault-read EFAULT" "$(grep efault-read "$w/raw")"
	if [ "$k" = build ]; then
		check_eq "input: $k reads byte by byte, past the end, after lseek" \
			"bytewise same|eof-read 0|seek-read same" "$(grep -E '^(bytewise|eof-read|seek-read)' "$w/raw" | paste -sd'|')"
	else
		check_eq "input: $k reads past the end" "eof-read 0" "$(grep eof-read "$w/raw")"
	fi
done

# ---- concurrent writers and readers ----------------------------------------------

for f in "${knobs[@]}"; do
	k=${f##*/}
	v0=$(cat "$f")
	vals=("$v0")
	if knob_random_value "$k" > /dev/null; then
		for _ in 1 2 3 4 5 6; do vals+=("$(knob_random_value "$k")"); done
	fi
	r=$("$FT_RELBIN" hammer "$f" 5 "${vals[@]}"); rc=$?
	echo "# $k concurrency, values ${vals[*]} (errors/attempts): $r"
	if [ "$rc" = 0 ]; then
		ok "input: $k: 3 good + 3 bad writers + 2 readers for 5 s: no good write refused, no bad write accepted, no garbage read ($r)"
	else
		not_ok "input: $k: concurrent writers and readers" "$r"
	fi
	check "input: $k holds a valid value afterwards" valid_content "$f"
	echo "$v0" > "$f"
done

# ---- loading twice ------------------------------------------------------------------

r=$(insmod "$FT_KO" 2>&1); rc=$?
check "input: insmod while loaded is refused" test "$rc" != 0
case $r in *"File exists"*) ok "input: second insmod says 'File exists' (EEXIST)" ;;
*) not_ok "input: second insmod says 'File exists' (EEXIST)" "$r" ;; esac
check "input: first instance intact after the second insmod" valid_content "$FT_DEBUGFS/vmstat"
check_eq "input: loads counter still 1" 1 "$(ft_counter loads)"
ft_unload
m2=$(dmesg_mark)
insmod "$FT_KO" > "$w/i1" 2>&1 & p1=$!
insmod "$FT_KO" > "$w/i2" 2>&1 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
echo "# racing insmods: exit $r1 ($(cat "$w/i1")), exit $r2 ($(cat "$w/i2"))"
# Since 6.6 concurrent finit_module() of the same file is idempotent: the
# second waits for the first and returns its result.  Either both succeed
# (one instance) or exactly one does (the other EEXIST); never two instances.
n_ok=$(( (r1 == 0) + (r2 == 0) ))
check "input: two racing insmods: at least one succeeds ($n_ok did)" test "$n_ok" -ge 1
loop_until 60 ft_transition_done
check_eq "input: racing insmods: one instance (one 'loaded for' line)" 1 "$(dmesg_since "$m2" | grep -c 'foliotune: loaded for')"
check "input: racing insmods: module usable" valid_content "$FT_DEBUGFS/vmstat"
check_eq "input: racing insmods: loads counter 1" 1 "$(ft_counter loads)"

# ---- unloading while the CLI and shells read counters -------------------------------

"$FT_CLI" counters -i 0.2 > "$w/stat" 2> "$w/stat.err" & sp=$!
"$FT_CLI" -j counters -i 0.3 > "$w/statj" 2> "$w/statj.err" & sj=$!
# (20 ms pauses: a second vCPU kept 100% busy makes every livepatch
# transition slow under TCG, see tests/guest/reliability/README.md)
( while :; do cat "$FT_DEBUGFS/vmstat" > /dev/null 2>&1; sleep 0.02; done ) & cp1=$!
( while :; do "$FT_CLI" get unmap_batch > /dev/null 2>&1; sleep 0.02; done ) & cp2=$!
# Unload once both stat readers have printed (not after a fixed time).
loop_until 120 test -s "$w/stat" -a -s "$w/statj" ||
	echo "# the stat readers printed nothing in 120 s: unloading anyway"
t0=$(now_ms)
"$FT_CLI" unload > "$w/unload" 2>&1; rc=$?
t=$(( $(now_ms) - t0 ))
check_eq "input: 'foliotune unload' while stat -i, cat and get loops read (took $t ms)" 0 "$rc"
[ "$rc" = 0 ] || sed 's/^/# unload: /' "$w/unload"
check "input: nothing left after that unload" ft_nothing_left
kill $cp1 $cp2 2>/dev/null; wait $cp1 $cp2 2>/dev/null
for p in "$sp:stat" "$sj:stat -j"; do
	pid=${p%%:*} what=${p#*:}
	if loop_until 5 bash -c "! kill -0 $pid 2>/dev/null"; then
		wait "$pid"; rc=$?
		# With -j the error is a JSON object on stdout.
		err=$([ "$what" = stat ] && cat "$w/stat.err" || { cat "$w/statj.err"; grep '"error"' "$w/statj" | tail -1; })
		echo "# $what after unload: exit $rc: $err"
		# The module going away is a runtime error: exit 2, with a message.
		if [ "$rc" = 2 ] && [ -n "$err" ]; then
			ok "input: CLI $what ends with a message and exit 2 when the module goes away"
		else
			not_ok "input: CLI $what ends with a message and exit 2 when the module goes away" "exit $rc, stderr '$err'"
		fi
	else
		kill "$pid"; wait "$pid" 2>/dev/null
		not_ok "input: CLI $what ends when the module goes away" "still running 5 s after the unload"
	fi
done
grep -q '^unmap_calls ' "$w/stat" && ok "input: stat printed counters before the unload" ||
	not_ok "input: stat printed counters before the unload" "$(head -3 "$w/stat" | tr '\n' '|')"
# One JSON document per line, or one document; either way at least one
# sample with unmap_calls in it (an empty stream proves nothing).
n=$(python3 -c 'import json,sys
t = open(sys.argv[1]).read()
try:
    docs = [json.loads(l) for l in t.splitlines() if l.strip()]
except ValueError:
    docs = [json.loads(t)]
print(sum("unmap_calls" in json.dumps(d) for d in docs))' "$w/statj" 2>/dev/null)
if [ "${n:-0}" -ge 1 ]; then ok "input: stat -j output stayed valid JSON up to the unload ($n samples)"
else not_ok "input: stat -j output stayed valid JSON up to the unload" "${n:-invalid JSON}, no sample with unmap_calls: $(tail -c 200 "$w/statj")"; fi

# ---- removing the module while debugfs files are held open ------------------------

for held in vmstat unmap_batch; do
	ft_load || { not_ok "input: load for hold-open ($held)" "insmod failed"; continue; }
	# Reads every 100 ms until SIGTERM (at most 10 min).
	"$FT_RELBIN" hold "$FT_DEBUGFS/$held" 100 6000 > "$w/hold" 2>&1 & hp=$!
	loop_until 5 grep -q '^open' "$w/hold"
	echo "# $held held open: module refcnt $(cat /sys/module/foliotune/refcnt)"
	echo 0 > "$FT_LIVEPATCH/enabled"
	loop_until 120 ft_livepatch_gone
	check "input: livepatch disabled while $held is held open" ft_livepatch_gone
	# The documented outcome (docs: the debugfs proxy holds a module
	# reference while a file is open): rmmod is refused as busy.
	r=$(rmmod foliotune 2>&1); rc=$?
	echo "# rmmod while $held is open: exit $rc: $r"
	case $rc:$r in 0:*) not_ok "input: rmmod while $held is open is refused as busy" "rmmod succeeded" ;;
	*"in use"*|*"Resource temporarily unavailable"*|*"busy"*)
		ok "input: rmmod while $held is open is refused as busy (the open file holds a module reference)" ;;
	*) not_ok "input: rmmod while $held is open is refused as busy" "$r" ;; esac
	check "input: module still present while $held is open" ft_loaded
	# Two more reads after the refusal, then no read may have failed.
	reads_reached() { [ "$(grep -c '^read' "$w/hold")" -ge "$1" ]; }
	loop_until 60 reads_reached $(( $(grep -c '^read' "$w/hold") + 2 )) ||
		echo "# the holder read nothing more in 60 s"
	bad=$(grep -vcE '^(open|read [0-9]+)$' "$w/hold")
	check_eq "input: reads of the held $held keep working meanwhile ($(grep -c '^read' "$w/hold") reads)" 0 "$bad"
	kill -TERM $hp; wait $hp
	check_eq "input: holder of $held closed cleanly" close "$(tail -1 "$w/hold")"
	t0=$(now_ms)
	check "input: rmmod succeeds once $held is closed" rmmod foliotune
	loop_until 10 ft_module_gone
	echo "# rmmod after close took $(( $(now_ms) - t0 )) ms"
	check "input: nothing left after the held-open unload of $held" ft_nothing_left
done

# ---- the CLI fed garbage --------------------------------------------------------------

ft_load
expect_rc() {	# NAME RC CMD...: RC 1 = usage error, 2 = runtime error
	local name=$1 want=$2; shift 2
	"$@" > "$w/out" 2>&1; local rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"
	else not_ok "$name" "exit $rc, want $want: $(head -c 200 "$w/out" | tr '\n' '|')"; fi
}
long=$(head -c 100000 /dev/zero | tr '\0' 9)
for v in '' ' ' -1 1e3 0x1 99999999999999999999999 "$long" $'1\n0' 'on off'; do
	shown=${v:0:24}; shown=${shown//$'\n'/\\n}
	expect_rc "input: CLI set unmap_batch '$shown' is a usage error" 1 "$FT_CLI" set unmap_batch "$v"
done
check_eq "input: knob unchanged after CLI garbage" 1 "$(cat "$FT_DEBUGFS/unmap_batch")"
expect_rc "input: CLI get of a 100 kB knob name is a usage error" 1 "$FT_CLI" get "$long"
expect_rc "input: CLI set with a path-like knob name is a usage error" 1 "$FT_CLI" set ../../kernel/x 1
for i in 0 -1 abc 1e9 nan; do
	expect_rc "input: CLI counters -i '$i' is a usage error" 1 "$FT_CLI" counters -i "$i" -c 1
done
head -c 65536 /dev/urandom > "$w/garbage.rec"
printf '{"foliotune_record": ' > "$w/trunc.rec"
: > "$w/empty.rec"
for f in garbage trunc empty; do
	"$FT_CLI" compare "$w/$f.rec" "$w/$f.rec" > "$w/out" 2>&1; rc=$?
	# A record file that is not one: a runtime error, with a message.
	if [ "$rc" = 2 ] && [ -s "$w/out" ]; then ok "input: CLI compare of a $f record file fails cleanly (exit 2: $(head -c 80 "$w/out"))"
	else not_ok "input: CLI compare of a $f record file fails cleanly" "exit $rc, want 2 and a message: $(head -c 200 "$w/out")"; fi
done
ft_unload
check_kernel_clean "input: kernel log clean" "$mark"
