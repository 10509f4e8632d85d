#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Host tests of the foliotune CLI, run by "make -C userspace check".
# Every test runs the CLI against a fake tree (FOLIOTUNE_SYSROOT): fake
# debugfs knobs and counters, /proc/vmstat, livepatch sysfs, /proc tasks.
# Module syscalls are always simulated (FOLIOTUNE_FAKE_MODULE_SYSCALLS).
#
# Environment: FT_BIN (the CLI), FT_UNIT (unit test binary), FT_SRCDIR
# (userspace/), VALGRIND (command, empty for none), UPDATE_GOLDEN=1 to
# rewrite the golden files.  Prints "ok - name" / "not ok - name # reason".
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
FIX=$HERE/fixtures
GOLD=$HERE/golden
FT_SRCDIR=${FT_SRCDIR:-$HERE/../../../userspace}
FT_BIN=${FT_BIN:-$FT_SRCDIR/foliotune}
FT_UNIT=${FT_UNIT:-$FT_SRCDIR/build/unit_test}
VALGRIND=${VALGRIND-valgrind}
UPDATE_GOLDEN=${UPDATE_GOLDEN:-}
TOP=$(cd "$HERE/../../.." && pwd)
# FOLIOTUNE_KVER the CLI was built with (userspace/Makefile passes it; its
# default is the project's, scripts/kernels/default-kver), and that build's
# version string, from its module/verified/ header (a made-up one for a
# build that has none).
KVER=${FT_KVER:-$(cat "$TOP/scripts/kernels/default-kver")}
KVERSION=$(sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' \
	"$TOP/module/verified/$KVER.h" 2>/dev/null | head -1)
KVERSION=${KVERSION:-#1 SMP PREEMPT_DYNAMIC Debian (a build not in module/verified)}
KVERSION_RE=$(printf '%s\n' "$KVERSION" | sed 's/[][\\.*^$|]/\\&/g')
# Another verified build of the same release series: a kernel the module
# was not built for.
OTHER_KVER=$(cd "$TOP/module/verified" && ls -- *.h | sed 's/\.h$//' |
	grep -vx -e "$KVER" -e '.*-ftdebug' | head -1)
# The verified builds as the CLI lists them (<VERIFIED> in golden files:
# they stay put when a build is verified).
VERIFIED=$(cd "$TOP/module/verified" && LC_ALL=C ls -- *.h | sed 's/\.h$//' |
	grep -v -e '-ftdebug$' | sed ':a;N;$!ba;s/\n/, /g')
# ... one per line, as foliotune support lists them
VERIFIED_LINES=$(printf '%s\n' "$VERIFIED" | sed 's/, /\n/g')

T=$(mktemp -d /tmp/foliotune-cli-test.XXXXXX) || exit 2
cleanup() {
	[ -n "${helper:-}" ] && kill "$helper" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

pass=0
fail=0
helper=

if [ -n "$VALGRIND" ] && ! command -v "$VALGRIND" >/dev/null 2>&1; then
	echo "# $VALGRIND not found: running without it"
	VALGRIND=
fi

# Never touch the real kernel's modules, whoever runs this.
export FOLIOTUNE_FAKE_MODULE_SYSCALLS=38	# ENOSYS unless a test says otherwise
export FOLIOTUNE_ASSUME_UID=0
unset FOLIOTUNE_DEBUGFS FOLIOTUNE_SYSROOT
# (run under sudo or not: the tests below set these themselves)
unset SUDO_UID SUDO_GID
export LC_ALL=C

ok() {
	pass=$((pass + 1))
	echo "ok - $1"
}

not_ok() {
	fail=$((fail + 1))
	echo "not ok - $1 # $2"
}

oneline() {
	head -c 400 "$1" | tr '\n' ' '
}

# The command prefix used to run the CLI (valgrind or nothing).
vg() {
	if [ -n "$VALGRIND" ]; then
		echo "$VALGRIND -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible --child-silent-after-fork=yes --log-file=$T/vg.%p"
	fi
}

# Valgrind findings of the last run(s), "" if none.
vg_errors() {
	vgerr=
	for f in "$T"/vg.*; do
		[ -s "$f" ] && vgerr="valgrind: $(oneline "$f")"
	done
	rm -f "$T"/vg.*
}

# ft ARG...: run the CLI; stdout in $T/out, stderr in $T/err, status in $rc.
ft() {
	rm -f "$T"/vg.*
	# shellcheck disable=SC2046
	$(vg) "$FT_BIN" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	vg_errors
}

# expect NAME RC [PATTERN...]: status RC and every PATTERN in stdout+stderr.
expect() {
	name=$1
	want=$2
	shift 2
	if [ -n "$vgerr" ]; then
		not_ok "$name" "$vgerr"
		return
	fi
	if [ "$rc" != "$want" ]; then
		not_ok "$name" "exit $rc, want $want; stdout: $(oneline "$T/out") stderr: $(oneline "$T/err")"
		return
	fi
	for pat in "$@"; do
		if ! cat "$T/out" "$T/err" | grep -q -e "$pat"; then
			not_ok "$name" "no '$pat' in: $(oneline "$T/out") $(oneline "$T/err")"
			return
		fi
	done
	ok "$name"
}

# one_line NAME RC STREAM PATTERN: exit RC, exactly one line on STREAM (out
# or err) matching PATTERN, nothing on the other stream (foliotune support).
one_line() {
	if [ -n "$vgerr" ]; then
		not_ok "$1" "$vgerr"
		return
	fi
	if [ "$3" = out ]; then other=err; else other=out; fi
	if [ "$rc" != "$2" ]; then
		not_ok "$1" "exit $rc, want $2; stdout: $(oneline "$T/out") stderr: $(oneline "$T/err")"
	elif [ "$(wc -l <"$T/$3")" != 1 ] || ! grep -q -e "$4" "$T/$3"; then
		not_ok "$1" "want one line '$4' on std$3: $(oneline "$T/$3")"
	elif [ -s "$T/$other" ]; then
		not_ok "$1" "std$other not empty: $(oneline "$T/$other")"
	else
		ok "$1"
	fi
}

# refused NAME PATTERN: foliotune support on a kernel it does not support:
# exit 2, one short line on stderr matching PATTERN (it names no build: the
# list follows), and the verified builds, one per line, on stdout.
refused() {
	if [ -n "$vgerr" ]; then
		not_ok "$1" "$vgerr"
	elif [ "$rc" != 2 ]; then
		not_ok "$1" "exit $rc, want 2; stderr: $(oneline "$T/err")"
	elif [ "$(wc -l <"$T/err")" != 1 ] || ! grep -q -e "$2" "$T/err"; then
		not_ok "$1" "want one line '$2' on stderr: $(oneline "$T/err")"
	elif [ "$(wc -c <"$T/err")" -gt 400 ]; then
		not_ok "$1" "the refusal is $(wc -c <"$T/err") characters long: $(oneline "$T/err")"
	elif [ "$(cat "$T/out")" != "$VERIFIED_LINES" ]; then
		not_ok "$1" "stdout is not the verified builds, one per line: $(oneline "$T/out")"
	else
		ok "$1"
	fi
}

# expect_not NAME PATTERN: PATTERN absent from stdout+stderr.
expect_not() {
	if cat "$T/out" "$T/err" | grep -q -e "$2"; then
		not_ok "$1" "unexpected '$2'"
	else
		ok "$1"
	fi
}

# Volatile parts: temp dir, fixture dir, kernel build, dates, wall times,
# the tool version.  EXTRA_SED: more sed expressions for one test.
normalise() {
	sed -e "s|$VERIFIED|<VERIFIED>|g" -e "s|$T|<TMP>|g" -e "s|$FIX|<FIX>|g" \
	    -e "s|$KVER|<KVER>|g" -e "s|$KVERSION_RE|<KVERSION>|g" \
	    -e 's/^date [0-9TZ:-]*$/date <DATE>/' \
	    -e 's/^wall_seconds [0-9.]*$/wall_seconds <WALL>/' \
	    -e 's/^tool .*/tool <TOOL>/' \
	    -e 's/^# written by [^;]*;/# written by <TOOL>;/' \
	    -e 's/"seconds":[0-9.]*/"seconds":<S>/' \
	    -e "${EXTRA_SED:-s/^\$//}"
}

# golden NAME RC GOLDEN [FILE]: status RC and FILE (default stdout)
# equal to golden/GOLDEN after normalise.
golden() {
	name=$1
	want=$2
	g=$GOLD/$3
	src=${4:-$T/out}
	if [ -n "$vgerr" ]; then
		not_ok "$name" "$vgerr"
		return
	fi
	if [ "$rc" != "$want" ]; then
		not_ok "$name" "exit $rc, want $want; stderr: $(oneline "$T/err")"
		return
	fi
	normalise <"$src" >"$T/norm"
	if [ -n "$UPDATE_GOLDEN" ]; then
		cp "$T/norm" "$g"
		ok "$name (golden updated)"
	elif [ ! -f "$g" ]; then
		not_ok "$name" "missing golden file $3 (UPDATE_GOLDEN=1 creates it)"
	elif diff -u "$g" "$T/norm" >"$T/diff"; then
		ok "$name"
	else
		not_ok "$name" "output differs from golden/$3"
		sed 's/^/# /' "$T/diff"
	fi
}

# check NAME CONDITION-STRING...: a plain shell test.
check() {
	name=$1
	shift
	if "$@"; then
		ok "$name"
	else
		not_ok "$name" "failed: $*"
	fi
}

# mk_root DIR loaded|unloaded: a fake system.
mk_root() {
	r=$1
	rm -rf "$r"
	mkdir -p "$r/proc/sys/kernel" "$r/sys/kernel/security" \
		"$r/sys/kernel/debug/tracing" "$r/lib/modules/$KVER"
	echo "$KVER" >"$r/proc/sys/kernel/osrelease"
	echo "$KVERSION" >"$r/proc/sys/kernel/version"
	echo 0 >"$r/proc/sys/kernel/modules_disabled"
	echo "[none] integrity confidentiality" >"$r/sys/kernel/security/lockdown"
	cp "$FIX/proc_vmstat.before" "$r/proc/vmstat"
	[ "$2" = loaded ] || return 0
	mkdir -p "$r/sys/module/foliotune"
	echo live >"$r/sys/module/foliotune/initstate"
	l=$r/sys/kernel/livepatch/foliotune
	mkdir -p "$l/vmlinux/try_to_unmap_one,1" "$l/vmlinux/do_fault_around,1"
	echo 1 >"$l/enabled"
	echo 0 >"$l/transition"
	echo 0 >"$l/force"
	echo 1 >"$l/vmlinux/patched"
	d=$r/sys/kernel/debug/foliotune
	mkdir -p "$d"
	echo 1 >"$d/unmap_batch"
	echo 65536 >"$d/fault_around_bytes"
	echo 0 >"$d/fault_around_mkold"
	# the auto-tuner knobs are "not provided" by this fake module
	printf 'release %s\nversion %s\nsource linux-source-6.12 1\nverified %s\n' "$KVER" "$KVERSION" \
		"locally on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC" >"$d/build"
	cp "$FIX/module_vmstat.before" "$d/vmstat"
}

# stalled tasks for transition timeouts
mk_tasks() {
	p=$1/proc
	mkdir -p "$p/100/task/100" "$p/100/task/101" "$p/200" "$p/300/task/300"
	echo 0 >"$p/100/task/100/patch_state"
	echo stuck-worker >"$p/100/task/100/comm"
	echo 1 >"$p/100/task/101/patch_state"
	echo done-thread >"$p/100/task/101/comm"
	echo 0 >"$p/200/patch_state"
	echo old-style >"$p/200/comm"
	echo -1 >"$p/300/task/300/patch_state"
	echo idle >"$p/300/task/300/comm"
}

# the knob names, from the X-macro list in the shared header
knob_names() {
	sed -n '/define FOLIOTUNE_KNOBS/,/^$/s/^[[:space:]]*X(\([a-z_0-9]*\), .*/\1/p' \
		"$HERE/../../../include/foliotune.h"
}

R=$T/root
U=$T/unloaded
D=$R/sys/kernel/debug/foliotune
L=$R/sys/kernel/livepatch/foliotune

echo "# binary: $FT_BIN; valgrind: ${VALGRIND:-none}"

# ------------------------------------------------------------------ unit
rm -f "$T"/vg.*
# shellcheck disable=SC2046
$(vg) "$FT_UNIT" >"$T/unit" 2>&1
rc=$?
vg_errors
grep -E '^(ok|not ok|#)' "$T/unit" | sed 's/^\(not \)\{0,1\}ok - /&unit: /'
if [ "$rc" != 0 ] || [ -n "$vgerr" ]; then
	fail=$((fail + $(grep -c '^not ok' "$T/unit")))
	[ -n "$vgerr" ] && not_ok "unit tests under valgrind" "$vgerr"
	[ "$rc" != 0 ] && [ "$(grep -c '^not ok' "$T/unit")" = 0 ] &&
		not_ok "unit tests" "exit $rc: $(oneline "$T/unit")"
fi
pass=$((pass + $(grep -c '^ok' "$T/unit")))

# ------------------------------------------------------------------ usage
mk_root "$R" loaded
mk_root "$U" unloaded
export FOLIOTUNE_SYSROOT="$R"

ft --help
expect "--help exits 0 with usage on stdout" 0 "^Usage: foliotune"
check "--help writes nothing to stderr" test ! -s "$T/err"
cp "$T/out" "$T/help"
for k in $(knob_names); do
	if grep -q "^  $k " "$T/help"; then :; else not_ok "--help lists knob $k" "missing"; continue; fi
	ok "--help lists knob $k"
done
ft -h
expect "-h exits 0" 0 "^Usage: foliotune"
golden "--help" 0 help.txt
# COMMAND --help: that command's usage only (like bpftool prog help)
commands=$(sed -n 's/^  \([a-z][a-z]*\)\( .*\)\{0,1\}$/\1/p' "$T/help" | grep -vx -e 'unmap_.*' -e 'fault_.*' -e 'reclaim_.*' | sort -u)
: >"$T/help-all"
for c in $commands; do
	ft "$c" --help
	cat "$T/out" >>"$T/help-all"
	if [ "$rc" = 0 ] && [ "$(head -1 "$T/out" | cut -d' ' -f1-4)" = "Usage: foliotune [-j] $c" ] &&
	   ! grep -q '^Commands:' "$T/out" && [ ! -s "$T/err" ]; then
		ok "$c --help prints the usage of $c only"
	else
		not_ok "$c --help prints the usage of $c only" "exit $rc: $(head -2 "$T/out" | tr '\n' ' ')"
	fi
	cp "$T/out" "$T/cmd-help"
	ft help "$c"
	check "help $c = $c --help" cmp -s "$T/out" "$T/cmd-help"
done
ft set --help
golden "set --help" 0 help-set.txt
cp "$T/out" "$T/set-help"
ft set -h fault_around_bytes 4K
expect "set -h anywhere: usage, nothing written" 0 "^Usage: foliotune \[-j\] set KNOB VALUE"
check "set -h: nothing written" test "$(cat "$D/fault_around_bytes")" = 65536
ft help bogus
expect "help: unknown command" 1 "help: unknown command 'bogus'"
# -j works with help too: the usage stays text (as with --help), errors are JSON
ft help -j
golden "help -j: the usage, as text" 0 help.txt
ft -j help set
golden "-j help set: set's usage, as text" 0 help-set.txt
ft help -j bogus
expect "help -j: unknown command, JSON error" 1 '^{"error":"help: unknown command '"'"'bogus'"'"'","errno":22}$'
check "help -j: JSON error, nothing on stderr" test ! -s "$T/err"
ft help -x
expect "help: an unknown option is a usage error" 1 "help: invalid option -- 'x'"
# user help shows no test hooks and no build-tree paths
cat "$T/help" "$T/help-all" >"$T/help-every"
check "help names no FOLIOTUNE_* environment variable" sh -c "! grep -q FOLIOTUNE_ '$T/help-every'"
check "help shows no build-tree path" sh -c "! grep -q -e '$(cd "$FT_SRCDIR/.." && pwd)' -e 'module/foliotune.ko' '$T/help-every'"
missing=
for k in $(knob_names); do
	grep -q -E "(^  |, )$k(,|\.$)" "$T/set-help" || missing="$missing $k"
done
check "set --help names every knob of foliotune.h" test -z "$missing"
# the knob table has one place, the global help
check "--help has the knob table" grep -q '^Values: ' "$T/help"
check "no COMMAND --help repeats the knob table" sh -c "! grep -q '^Values: ' '$T/help-all'"
ft
expect "no command: usage error" 1 "missing COMMAND"
ft bogus
expect "unknown command: usage error" 1 "unknown command 'bogus'"
ft -j bogus
expect "unknown command: JSON error" 1 '^{"error":"unknown command '"'"'bogus'"'"'","errno":22}$'
check "JSON error: nothing on stderr" test ! -s "$T/err"
# an unknown command names the nearest ones: a transposition, a typo, the
# start of a name, two at the same distance
for c in "stauts|status" "comapre|compare" "recrod|record" "analyse|analyze" \
	 "count|counters" "sup|support" "bet|get' or 'set"; do
	ft "${c%%|*}"
	expect "unknown command '${c%%|*}': did you mean '${c#*|}'?" 1 \
		"^foliotune: unknown command '${c%%|*}' (did you mean '${c#*|}'?)$"
done
ft -j stauts
expect "unknown command, JSON: the suggestion in the error" 1 \
	'^{"error":"unknown command '"'"'stauts'"'"' (did you mean '"'"'status'"'"'?)","errno":22}$'
ft help stauts
expect "help of an unknown command: the suggestion" 1 "^foliotune: help: unknown command 'stauts' (did you mean 'status'?)$"
ft --bogus
expect "unknown global option" 1 "unrecognized option '--bogus'"
ft status -x
expect "unknown command option" 1 "invalid option -- 'x'"
ft status extra
expect "status: extra argument" 1 "unexpected argument 'extra'"
ft get unmap_batch fault_around_bytes
expect "get: two knobs" 1 "expected at most one KNOB"
ft load -t
expect "load -t: missing argument" 1 "requires an argument"
ft load -t soon
expect "load -t junk" 1 "invalid timeout 'soon'"
ft load a.ko b.ko
expect "load: two paths" 1 "at most one PATH"
ft unload now
expect "unload: extra argument" 1 "unexpected argument"

# man page in sync with --help and every COMMAND --help
MAN=$FT_SRCDIR/foliotune.8
for opt in $(grep -o -e '--[a-z][a-z-]*' "$T/help-every" | sort -u); do
	mopt=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	if grep -q -e "$mopt" "$MAN"; then ok "man page documents $opt"; else not_ok "man page documents $opt" "missing"; fi
done
for cmd in $(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p; s/^  \([a-z][a-z]*\)$/\1/p' "$T/help" | sort -u); do
	case $cmd in unmap_*|fault_*) continue ;; esac
	if grep -q -e "^\.B[IR]* *\"*$cmd\b" -e "^\.TP" "$MAN" && grep -q -e "^\.B[RI]* *$cmd\b" "$MAN"; then
		ok "man page documents command $cmd"
	else
		not_ok "man page documents command $cmd" "missing"
	fi
done
for k in $(knob_names); do
	if grep -q "^\.B $k$" "$MAN"; then ok "man page documents knob $k"; else not_ok "man page documents knob $k" "missing"; fi
done
if command -v groff >/dev/null 2>&1; then
	groff -man -ww -z "$MAN" >"$T/groff" 2>&1
	check "man page renders without groff warnings" test ! -s "$T/groff"
fi

# ------------------------------------------------------------------ status
export FOLIOTUNE_SYSROOT="$U"
ft status
golden "status, module not loaded" 0 status-unloaded.txt
ft -j status
golden "status -j, module not loaded" 0 status-unloaded.json
export FOLIOTUNE_SYSROOT="$R"
printf 'window 65536 (chosen 3 s ago)\nrefault ratio 0.12\n' >"$D/fault_around_auto_state"
ft status
golden "status, module loaded" 0 status-loaded.txt
ft status -j
golden "status -j, module loaded" 0 status-loaded.json
rm -f "$D/fault_around_auto_state"
echo 1 >"$L/transition"
ft status
expect "status: transition in progress" 0 "livepatch:        enabled, transition in progress (patching)"
echo 0 >"$L/transition"
echo "$OTHER_KVER" >"$R/proc/sys/kernel/osrelease"
ft status
expect "status: kernel differs from the module's build file, exit 2" 2 \
	"supported:        no: the loaded module was verified against $KVER"
echo "$KVER" >"$R/proc/sys/kernel/osrelease"
export FOLIOTUNE_SYSROOT="$U"
echo 6.1.0-99-amd64 >"$U/proc/sys/kernel/osrelease"
ft status
golden "status: unsupported kernel says so, no 'load' hint, exit 2" 2 status-unsupported.txt
expect_not "status: unsupported kernel, no 'foliotune load' hint" "foliotune load"
ft -j status
expect "status -j: unsupported kernel, the next step, exit 2" 2 '"supported":false' \
	'"next_step":"foliotune serves Debian 6.12 builds; boot a verified one (.foliotune support -l. lists them)"' \
	'"error":"the foliotune module is not loaded and cannot be: this kernel is not supported"'
ft support
refused "support: a kernel that is no Debian 6.12 build: one short line, then the builds to boot, exit 2" \
	"^foliotune does not support 6.1.0-99-amd64 (.*): foliotune serves Debian 6.12 builds; boot a verified one ('foliotune support -l' lists them)$"
ft -j support
expect "support -j: the builds to boot, exit 2" 2 '"supported":false,' \
	"\"verified_builds\":\\[\"$(printf '%s\n' "$VERIFIED" | sed 's/, /","/g')\"\\]}$"
ft support -l
expect "support -l: the verified builds, one per line, exit 0" 0
check "support -l: the verified builds and nothing else" test "$(cat "$T/out")" = "$VERIFIED_LINES" -a ! -s "$T/err"
check "support -l: the debug lane's build is not one to boot" sh -c "! grep -q ftdebug '$T/out'"
ft -j support --list
expect "support -j --list" 0 '^{"verified_builds":\["'
ft support -l "$KVER" "$KVERSION"
expect "support -l RELEASE VERSION: usage error" 1 "support: -l/--list takes no RELEASE VERSION"
# get, set, counters and load refuse in one short line naming support
ft get unmap_batch
expect "get: unsupported kernel: one short line naming 'foliotune support', exit 2" 2 \
	"^foliotune: the foliotune module is not loaded and cannot be: foliotune does not support this kernel: .*('foliotune support -l' lists them)$"
check "get: the refusal is one line of at most 300 characters" \
	test "$(wc -l <"$T/err")" = 1 -a "$(wc -c <"$T/err")" -le 300
# -V: the CLI's version, whatever the kernel (support and status judge it)
ft --version
expect "--version on an unsupported kernel: the version, exit 0" 0 "^foliotune [0-9][0-9.]*$"
check "--version: one line, nothing on stderr" test "$(wc -l <"$T/out")" = 1 -a ! -s "$T/err"
ft -j -V
expect "-j -V: the version as JSON, exit 0" 0 '^{"version":"[0-9][0-9.]*"}$'
# The support check is the module's: release and version string, the
# next step named (tests/host/test-kernels-refuse.sh: make's side).
echo "#1 SMP PREEMPT_DYNAMIC Debian 6.12.999-1 (a rebuild)" >"$U/proc/sys/kernel/version"
echo "$KVER" >"$U/proc/sys/kernel/osrelease"
ft status
expect "status: verified release, another version string: not supported, exit 2" 2 \
	"^supported:        no: $KVER was verified on version"
ft support
refused "support: verified release, another version string: one line, verify on this box, exit 2" \
	"^foliotune does not support $KVER (#1 SMP PREEMPT_DYNAMIC Debian 6.12.999-1 (a rebuild)): $KVER was verified on version '$KVERSION_RE', not this one; verify this build: make verify-kernel KVER=$KVER (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md)$"
ft -j support
expect "support -j: another version string, the next step, exit 2" 2 \
	'"supported":false,"verified":null,"next_step":"'"$KVER"' was verified on version'
ft support "$KVER" "$KVERSION"
one_line "support RELEASE VERSION: a build verified in the tree, one line, exit 0" 0 out \
	"^foliotune supports $KVER ($KVERSION_RE): verified in the tree (module/verified/$KVER.h)$"
ft support "$KVER"
expect "support: RELEASE alone is a usage error, exit 1" 1 "support: expected no argument or RELEASE VERSION"
ft support "$KVER" ""
expect "support: an empty VERSION is a usage error, exit 1" 1 "support: RELEASE and VERSION must not be empty"
ft support "$(printf '%0300d' 6)" "$KVERSION"
expect "support: a RELEASE too long is a usage error, exit 1" 1 "support: RELEASE or VERSION too long"
ft get fault_around_bytes
expect "get: another version string: no 'load' hint, the next step" 2 \
	"the foliotune module is not loaded and cannot be: foliotune does not support this kernel: .*make verify-kernel KVER=$KVER"
expect_not "get: another version string, no 'foliotune load' hint" "foliotune load"
# another verified build than the CLI's own: supported (load finds the
# module installed for it)
sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' \
	"$TOP/module/verified/$OTHER_KVER.h" >"$U/proc/sys/kernel/version"
echo "$OTHER_KVER" >"$U/proc/sys/kernel/osrelease"
ft status
expect "status: another verified build than the CLI's: supported, exit 0" 0 \
	"^supported:        yes (a verified build; this CLI was compiled for $KVER)" \
	"not loaded (try 'foliotune load')"
echo "$KVERSION" >"$U/proc/sys/kernel/version"
echo 6.12.999+deb13-amd64 >"$U/proc/sys/kernel/osrelease"
ft support
refused "support: a Debian 6.12 build not verified: one line, verify it, or boot a verified one, exit 2" \
	"^foliotune does not support 6.12.999+deb13-amd64 (.*): this build is not verified; verify it: make verify-kernel KVER=6.12.999+deb13-amd64 (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md), or boot a verified build ('foliotune support -l' lists them)$"
ft status
expect "status: a Debian 6.12 build not verified: verify it, or boot one of those support lists, exit 2" 2 \
	"^supported:        no: this build is not verified; verify it: make verify-kernel KVER=6.12.999+deb13-amd64 .*, or boot a verified build ('foliotune support -l' lists them)$"
# the same build, verified on this machine (make verify-kernel's local header)
mkdir -p "$U/var/lib/foliotune/verified"
{
	echo '#define FT_VERIFIED_RELEASE	"6.12.999+deb13-amd64"'
	printf '#define FT_VERIFIED_VERSION\t\\\n\t"%s"\n' "$KVERSION"
	echo '#define FT_VERIFIED_BY	"on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC"'
} >"$U/var/lib/foliotune/verified/6.12.999+deb13-amd64.h"
ft status
expect "status: a build verified on this machine: supported, says by which machine and when, exit 0" 0 \
	"^supported:        yes" \
	"^verified:         locally on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC (/var/lib/foliotune/verified/6.12.999+deb13-amd64.h)$"
ft support
one_line "support: a build verified on this machine: one line, by which machine, exit 0" 0 out \
	"^foliotune supports 6.12.999+deb13-amd64 (.*): verified locally on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC (/var/lib/foliotune/verified/6.12.999+deb13-amd64.h)$"
mkdir -p "$T/state/verified"
mv "$U/var/lib/foliotune/verified/6.12.999+deb13-amd64.h" "$T/state/verified/"
FT_STATE_DIR=$T/state ft support
one_line "support: FT_STATE_DIR, where make verify-kernel wrote the header, exit 0" 0 out \
	"^foliotune supports 6.12.999+deb13-amd64 (.*): verified locally on box1 .*($T/state/verified/6.12.999+deb13-amd64.h)$"
mv "$T/state/verified/6.12.999+deb13-amd64.h" "$U/var/lib/foliotune/verified/"
echo "#1 SMP another build" >"$U/proc/sys/kernel/version"
ft support
refused "support: this machine's header of another version: one line, verify again, exit 2" \
	"^foliotune does not support 6.12.999+deb13-amd64 (#1 SMP another build): .*6.12.999+deb13-amd64.h was verified on version '.*', not this one; verify this build again: sudo FT_TEST_BOX=1 make verify-kernel (docs/own-box.md)$"
ft status
expect "status: this machine's header of another version: not supported, verify again, exit 2" 2 \
	"^supported:        no: .*6.12.999+deb13-amd64.h was verified on version '.*', not this one; verify this build again: sudo FT_TEST_BOX=1 make verify-kernel"
echo "$KVERSION" >"$U/proc/sys/kernel/version"
rm -r "$U/var/lib/foliotune"
ft counters
expect "counters: a build not verified: no 'load' hint, the next step" 2 \
	"not loaded and cannot be: .*make verify-kernel KVER=6.12.999+deb13-amd64"
expect_not "counters: a build not verified, no 'foliotune load' hint" "foliotune load"
echo 6.12.999+deb13-rt-amd64 >"$U/proc/sys/kernel/osrelease"
ft status
expect "status: PREEMPT_RT: not supported, exit 2" 2 \
	"^supported:        no: PREEMPT_RT kernels cannot be supported (the page-table lock sleeps there); boot a verified build ('foliotune support -l' lists them)$"
echo "$KVER" >"$U/proc/sys/kernel/osrelease"
export FOLIOTUNE_SYSROOT="$R"
ft -V
expect "-V: module loaded: the version alone, exit 0" 0 "^foliotune [0-9][0-9.]*$"
check "-V: one line" test "$(wc -l <"$T/out")" = 1

# ------------------------------------------------------------------ get/set
ft get fault_around_bytes
golden "get fault_around_bytes" 0 get.txt
ft -j get unmap_batch
expect "get -j" 0 '^{"knob":"unmap_batch","value":1,"unit":"bool"}$'
ft get unmap_batch -j
expect "get: -j after the knob" 0 '^{"knob":"unmap_batch","value":1,"unit":"bool"}$'
ft get bogus
expect "get: unknown knob" 1 "unknown knob 'bogus'"
ft -j get bogus
expect "get: unknown knob, JSON" 1 '^{"error":"unknown knob '"'"'bogus'"'"'","errno":22}$'
ft get fault_around_auto
expect "get: knob not provided" 2 "knob fault_around_auto is not provided by this module"
# without KNOB: every knob the (fake) module provides, as the files read
ft get
want=$(for k in $(knob_names); do [ -f "$D/$k" ] && echo "$k $(cat "$D/$k")"; done)
check "get without KNOB: a name value line per provided knob" test "$(cat "$T/out")" = "$want"
check "get without KNOB: the fake module provides some knobs, not all" \
	test "$(wc -l < "$T/out")" -gt 0 -a "$(wc -l < "$T/out")" -lt "$(knob_names | wc -l)"
ft -j get
expect "get -j without KNOB" 0 '^{"knobs":\[{"knob":"unmap_batch","value":1,"unit":"bool"},{"knob":"fault_around_bytes","value":65536,"unit":"bytes"},{"knob":"fault_around_mkold","value":0,"unit":"0|1|2"}\]}$'
mv "$D/fault_around_mkold" "$T/mkold.save" && mkdir "$D/fault_around_mkold"
ft -j get
rmdir "$D/fault_around_mkold" && mv "$T/mkold.save" "$D/fault_around_mkold"
expect "get without KNOB: an unreadable knob is an error" 2 '^{"error":"cannot read fault_around_mkold: Is a directory","errno":21}$'
check "get without KNOB: the error is the only output" test "$(wc -l < "$T/out")" = 1
ft set fault_around_bytes 64K
expect "set 64K" 0 "fault_around_bytes: 65536 -> 65536"
ft set fault_around_bytes 2m
expect "set 2m" 0 "fault_around_bytes: 65536 -> 2097152"
check "set 2m wrote 2097152" test "$(cat "$D/fault_around_bytes")" = 2097152
ft -j set fault_around_bytes 4k
golden "set -j" 0 set.json
check "set 4k wrote 4096" test "$(cat "$D/fault_around_bytes")" = 4096
for v in off on No YES false TRUE 0 1; do
	ft set unmap_batch "$v"
	case $v in off|No|false|0) want=0 ;; *) want=1 ;; esac
	if [ "$rc" = 0 ] && [ "$(cat "$D/unmap_batch")" = "$want" ]; then
		ok "set bool $v"
	else
		not_ok "set bool $v" "exit $rc, file $(cat "$D/unmap_batch")"
	fi
done
ft set fault_around_mkold 2
expect "set enum 2" 0
# KNOB=VALUE, the sysctl habit: the same checks, the same result
ft set fault_around_mkold=1
expect "set KNOB=VALUE" 0 "fault_around_mkold: 2 -> 1"
check "set KNOB=VALUE wrote 1" test "$(cat "$D/fault_around_mkold")" = 1
ft -j set fault_around_bytes=16K
expect "set -j KNOB=VALUE" 0 '^{"knob":"fault_around_bytes","old":4096,"value":16384,"unit":"bytes"}$'
for a in "fault_around_mkold=3|expected one of 0|1|2" "fault_around_mkold=|expected one of" \
	 "fault_around_bytes=4M|out of range 4K..2M" "bogus=1|unknown knob 'bogus'" \
	 "=1|invalid setting '=1': expected KNOB=VALUE" "fault_around_mkold=-1|negative values are not allowed"; do
	ft set "${a%%|*}"
	expect "set ${a%%|*}: refused, exit 1" 1 "${a#*|}"
	check "set ${a%%|*}: nothing written" test "$(cat "$D/fault_around_mkold") $(cat "$D/fault_around_bytes")" = "1 16384"
done
ft set fault_around_mkold=1 2
expect "set KNOB=VALUE VALUE: usage error" 1 "set: expected KNOB VALUE or KNOB=VALUE"
echo 0 >"$D/fault_around_mkold"
echo 65536 >"$D/fault_around_bytes"
for v in junk 64KB 4T 1.5K 0x1000 "" " 4K" 18446744073709551616 99999999999G; do
	ft set fault_around_bytes "$v"
	if [ "$rc" = 1 ] && grep -q "invalid value" "$T/err" &&
	   [ "$(cat "$D/fault_around_bytes")" = 65536 ]; then
		ok "set rejects '$v', nothing written"
	else
		not_ok "set rejects '$v', nothing written" "exit $rc, file $(cat "$D/fault_around_bytes"): $(oneline "$T/err")"
	fi
done
ft set fault_around_bytes -4096
expect "set rejects a negative value" 1 "negative values are not allowed"
check "negative value: nothing written" test "$(cat "$D/fault_around_bytes")" = 65536
ft set fault_around_bytes -- -4K
expect "set rejects a negative value after --" 1 "negative values are not allowed"
ft set unmap_batch maybe
expect "set rejects a bad bool" 1 "expected on/off"
ft set fault_around_mkold 3
expect "set rejects an enum value" 1 "expected one of 0|1|2"
ft set fault_around_auto_period_ms 4294967296
expect "set rejects uint overflow" 1 "out of range"
# the documented ranges (include/foliotune.h), checked before any write
echo 1000 >"$D/fault_around_auto_period_ms"
ft set fault_around_bytes 4M
golden "set fault_around_bytes 4M: out of range" 1 set-range-bytes.txt "$T/err"
check "set 4M: nothing written" test "$(cat "$D/fault_around_bytes")" = 65536
ft set fault_around_auto_period_ms 10
golden "set fault_around_auto_period_ms 10: out of range" 1 set-range-period.txt "$T/err"
check "set period 10: nothing written" test "$(cat "$D/fault_around_auto_period_ms")" = 1000
ft -j set fault_around_auto_period_ms 60001
expect "set -j: out of range, ERANGE" 1 \
	'^{"error":"invalid value '"'"'60001'"'"' for fault_around_auto_period_ms: out of range 100..60000 ms","errno":34}$'
ft set fault_around_auto_period_ms 100
expect "set accepts the lowest period" 0 "fault_around_auto_period_ms: 1000 -> 100"
ft set fault_around_auto_period_ms 60000
expect "set accepts the highest period" 0 "fault_around_auto_period_ms: 100 -> 60000"
ft set fault_around_bytes 4K
expect "set accepts the smallest window" 0 "fault_around_bytes: 65536 -> 4096"
echo 65536 >"$D/fault_around_bytes"
rm -f "$D/fault_around_auto_period_ms"
ft record -o "$T/rec-range.txt" -s fault_around_auto_period_ms=10 -- true
expect "record -s: out of range, usage error" 1 "out of range 100..60000 ms"
check "record -s out of range: no record written" test ! -e "$T/rec-range.txt"
ft set bogus 1
expect "set: unknown knob" 1 "unknown knob 'bogus'"
ft set fault_around_bytes
expect "set: missing value" 1 "expected KNOB VALUE or KNOB=VALUE"
ft set fault_around_auto 1
expect "set: knob not provided" 2 "knob fault_around_auto is not provided by this module"
FOLIOTUNE_ASSUME_UID=1000 ft set fault_around_bytes 4K
expect "set: not root" 2 "set requires root privileges"
export FOLIOTUNE_ASSUME_UID=1000
ft -j set fault_around_bytes 4K
expect "set: not root, JSON" 2 '^{"error":"set requires root privileges","errno":1}$'
export FOLIOTUNE_ASSUME_UID=0
check "not root: nothing written" test "$(cat "$D/fault_around_bytes")" = 65536
# the kernel's errno in words: a write failing with ENOSPC / EISDIR
mv "$D/fault_around_mkold" "$T/mkold.save"
ln -s /dev/full "$D/fault_around_mkold"
ft set fault_around_mkold 1
expect "set: write error reported by name" 2 "cannot write fault_around_mkold: No space left on device"
ft -j set fault_around_mkold 1
expect "set: write error, JSON" 2 '^{"error":"cannot write fault_around_mkold: No space left on device","errno":28}$'
rm -f "$D/fault_around_mkold"
mkdir "$D/fault_around_mkold"
ft set fault_around_mkold 1
expect "set: EISDIR reported by name" 2 "Is a directory"
rmdir "$D/fault_around_mkold"
mv "$T/mkold.save" "$D/fault_around_mkold"

# lockdown: an immutable knob file gives EPERM on open for writing, as
# debugfs does for 0600 files under lockdown (needs chattr and root)
if chattr +i "$D/fault_around_mkold" 2>/dev/null; then
	echo "none [integrity] confidentiality" >"$R/sys/kernel/security/lockdown"
	ft set fault_around_mkold 1
	chattr -i "$D/fault_around_mkold"
	expect "set: debugfs locked down" 2 \
		"cannot write fault_around_mkold: debugfs is locked down (lockdown=integrity)"
	echo "[none] integrity confidentiality" >"$R/sys/kernel/security/lockdown"
else
	echo "ok - set: debugfs locked down # SKIP chattr +i not available"
fi

# module missing / debugfs problems
export FOLIOTUNE_SYSROOT="$U"
ft get fault_around_bytes
expect "get: module not loaded" 2 "the foliotune module is not loaded"
ft set fault_around_bytes 4K
expect "set: module not loaded" 2 "the foliotune module is not loaded"
ft counters
expect "counters: module not loaded" 2 "the foliotune module is not loaded"
ft -j counters
expect "counters: module not loaded, JSON" 2 '^{"error":"the foliotune module is not loaded (try '"'"'foliotune load'"'"')","errno":2}$'
export FOLIOTUNE_SYSROOT="$R"
mv "$R/sys/kernel/debug" "$T/debugfs.save"
mkdir "$R/sys/kernel/debug"
ft get fault_around_bytes
expect "get: debugfs not mounted" 2 "debugfs is not mounted at $R/sys/kernel/debug"
ft status
expect "status: debugfs not mounted" 0 "knobs:            unavailable: debugfs is not mounted"
FOLIOTUNE_DEBUGFS="$T/debugfs.save" ft get fault_around_bytes
expect "FOLIOTUNE_DEBUGFS overrides the mount point" 0 "^65536$"
mkdir "$R/sys/kernel/debug/tracing"
ft get fault_around_bytes
expect "get: module loaded, debugfs dir missing" 2 "is loaded but $R/sys/kernel/debug/foliotune does not exist"
rm -rf "$R/sys/kernel/debug"
mv "$T/debugfs.save" "$R/sys/kernel/debug"

# ------------------------------------------------------------------ stat
ft counters
golden "counters" 0 counters.txt
ft -j counters
golden "counters -j" 0 counters.json
ft counters -i 0.1 -c 2
# Interval lengths depend on host load (valgrind, busy CI): match any.
expect "counters -i 0.1 -c 2" 0 "^# interval 1 ([0-9.]* s" "^# interval 2 ([0-9.]* s" "^unmap_calls 0$"
check "counters -i -c: two blocks" test "$(grep -c '^# interval' "$T/out")" = 2
ft -j counters -i 0.1 -c 3
expect "counters -j -i: one JSON object per interval" 0 '^{"interval":3,"seconds":[0-9.]*,"deltas":{"loads":0,'
check "counters -j -i: three lines" test "$(wc -l <"$T/out")" = 3
ft counters -c 2
expect "counters -c without -i" 1 "needs -i/--interval"
ft counters -i 0
expect "counters -i 0" 1 "invalid interval '0'"
ft counters -i soon
expect "counters -i junk" 1 "invalid interval 'soon'"
ft counters -i 1 -c 0
expect "counters -c 0" 1 "invalid count '0'"
ft counters now
expect "counters: extra argument" 1 "counters: unexpected argument 'now'"
# the old name, for one release: the same command, and a warning
ft stat
golden "stat, the old name of counters: the same output" 0 counters.txt
expect "stat: warns that it is now counters" 0 "^foliotune: warning: 'stat' is now 'counters'; the old name goes in the next release$"
ft -j stat -x
expect "stat: errors are those of counters" 1 '^{"error":"counters: invalid option -- '"'"'x'"'"'","errno":22}$'
ft help stat
check "help stat: counters' usage" grep -q '^Usage: foliotune \[-j\] counters ' "$T/out"

# ------------------------------------------------------------------ record
cat >"$T/work.sh" <<WORK
cp "$FIX/proc_vmstat.after" "$R/proc/vmstat"
cp "$FIX/module_vmstat.after" "$D/vmstat"
echo "during: \$(cat "$D/fault_around_mkold") \$(cat "$D/fault_around_bytes")" >"$T/during"
exit \${1:-0}
WORK
ft record -o "$T/rec1.txt" --set fault_around_mkold=1 -s fault_around_bytes=16K -l mkold1 -- sh "$T/work.sh"
expect "record with settings" 0 "record written to $T/rec1.txt"
golden "record file" 0 record-settings.txt "$T/rec1.txt"
check "record: settings applied during the run" test "$(cat "$T/during")" = "during: 1 16384"
check "record: settings restored" test "$(cat "$D/fault_around_mkold") $(cat "$D/fault_around_bytes")" = "0 65536"
check "record: file mode 0600" test "$(stat -c %a "$T/rec1.txt")" = 600
# under sudo the file goes to the user who ran sudo, whose next command
# (compare) must read it; needs real root to chown
if [ "$(id -u)" = 0 ]; then
	check "record: as root without sudo, the file stays root's" test "$(stat -c %u:%g "$T/rec1.txt")" = 0:0
	SUDO_UID=65534 SUDO_GID=65533 ft record -o "$T/rec-sudo.txt" -- true
	expect "record under sudo" 0 "record written to $T/rec-sudo.txt"
	check "record under sudo: the file is the sudo user's, mode 0600" \
		test "$(stat -c %u:%g:%a "$T/rec-sudo.txt")" = 65534:65533:600
else
	echo "ok - record under sudo: the file is the sudo user's # SKIP not root (chown needs root)"
fi
cp "$FIX/proc_vmstat.before" "$R/proc/vmstat"
cp "$FIX/module_vmstat.before" "$D/vmstat"

ft -j record -o "$T/rec2.txt" -- sh "$T/work.sh" 3
EXTRA_SED='s/"wall_seconds":[0-9.]*/"wall_seconds":<WALL>/' \
	golden "record -j, command exits 3: record exits 3 too" 3 record-exit3.json
expect "record: warning about the command's status" 3 "warning: the command exited with status 3"
check "record: exit_code in the record" grep -q '^exit_code 3$' "$T/rec2.txt"
cp "$FIX/proc_vmstat.before" "$R/proc/vmstat"
cp "$FIX/module_vmstat.before" "$D/vmstat"

ft compare "$T/rec2.txt" "$T/rec1.txt"
EXTRA_SED='s/^wall_seconds .*/wall_seconds <WALL ROW>/' \
	golden "compare two fresh records" 0 compare-records.txt

# the command's fate is record's exit status, the record kept (perf stat's way)
ft record -o "$T/rec-kill.txt" -- sh -c 'kill -KILL $$'
expect "record: a command killed by SIGKILL: record exits 137" 137 "record written to $T/rec-kill.txt" \
	"warning: the command was killed by signal 9"
check "record: the killed command's record is kept" grep -q '^exit_signal 9$' "$T/rec-kill.txt"
ft record -o "$T/rec-ok.txt" -- sh -c 'exit 0'
expect "record: a command that succeeds: exit 0" 0 "record written to $T/rec-ok.txt"
ft record -o "$T/rec1.txt" -- true
expect "record: never overwrites" 2 "already exists"
check "record: existing file untouched" grep -q '^label mkold1$' "$T/rec1.txt"
ft record -o "$T/rec3.txt" -s fault_around_bytes=4K -- /nonexistent/command
expect "record: command cannot run" 2 "cannot run /nonexistent/command: No such file or directory"
check "record: no file after a failed start" test ! -e "$T/rec3.txt"
check "record: restored after a failed start" test "$(cat "$D/fault_around_bytes")" = 65536
ft record -o "$T/rec3.txt"
expect "record: missing command" 1 "missing COMMAND"
ft record -o "$T/rec3.txt" -s fault_around_bytes=junk -- true
expect "record: bad setting" 1 "invalid value 'junk'"
ft record -o "$T/rec3.txt" -s bogus=1 -- true
expect "record: unknown knob" 1 "unknown knob 'bogus'"
ft record -o "$T/rec3.txt" -s fault_around_bytes=4K -s fault_around_bytes=8K -- true
expect "record: knob set twice" 1 "set twice"
ft record -o "$T/rec3.txt" -s fault_around_auto=1 -- true
expect "record: knob not provided" 2 "not provided by this module"
check "record: no file after an error" test ! -e "$T/rec3.txt"
FOLIOTUNE_ASSUME_UID=1000 ft record -o "$T/rec3.txt" -s fault_around_bytes=4K -- true
expect "record --set: not root" 2 "requires root"
cd "$T" || exit 2
ft record -- true
cd "$OLDPWD" || exit 2
expect "record: default file name" 0 "record written to ./foliotune-record-"
check "record: default file created in the current directory" \
	sh -c "ls '$T'/foliotune-record-*Z.txt >/dev/null"

# reclaim_probes: armed by record for its run (as root), restored after;
# -s reclaim_probes=0 wins; not touched without root
echo 0 >"$D/reclaim_probes"
echo 'echo "during: $(cat "'"$D"'/reclaim_probes")" >"'"$T"'/during-rp"' >"$T/work-rp.sh"
ft record -o "$T/rec-rp1.txt" -- sh "$T/work-rp.sh"
expect "record: arms reclaim_probes" 0 "record written to $T/rec-rp1.txt"
check "record: reclaim_probes 1 during the run" test "$(cat "$T/during-rp")" = "during: 1"
check "record: reclaim_probes restored" test "$(cat "$D/reclaim_probes")" = 0
check "record: the arming is a set line" grep -qx 'set reclaim_probes 1 0' "$T/rec-rp1.txt"
ft record -o "$T/rec-rp2.txt" -s reclaim_probes=0 -- sh "$T/work-rp.sh"
expect "record -s reclaim_probes=0" 0 "record written to $T/rec-rp2.txt"
check "record: -s reclaim_probes=0 keeps them off" test "$(cat "$T/during-rp")" = "during: 0"
FOLIOTUNE_ASSUME_UID=1000 ft record -o "$T/rec-rp3.txt" -- sh "$T/work-rp.sh"
expect "record as non-root" 0 "record written to $T/rec-rp3.txt"
check "record: non-root does not arm reclaim_probes" test "$(cat "$T/during-rp")" = "during: 0"
check "record: non-root record has no set line" sh -c "! grep -q '^set ' '$T/rec-rp3.txt'"
rm -f "$D/reclaim_probes"

# module not loaded: /proc/vmstat only
export FOLIOTUNE_SYSROOT="$U"
cat >"$T/work-u.sh" <<WORK
cp "$FIX/proc_vmstat.after" "$U/proc/vmstat"
WORK
ft record -o "$T/rec-u.txt" -- sh "$T/work-u.sh"
expect "record without the module" 0 "recording /proc/vmstat only"
golden "record file without the module" 0 record-unloaded.txt "$T/rec-u.txt"
ft record -o "$T/rec-u2.txt" -s fault_around_bytes=4K -- true
expect "record --set without the module" 2 "not loaded"
export FOLIOTUNE_SYSROOT="$R"

# SIGTERM during the run: settings restored, record written, 128+15
rm -f "$T/started"
# shellcheck disable=SC2046
$(vg) "$FT_BIN" record -o "$T/rec-int.txt" -s fault_around_bytes=4K -- \
	sh -c "touch '$T/started'; exec sleep 30" >"$T/out" 2>"$T/err" &
bg=$!
i=0
while [ ! -e "$T/started" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $bg
wait $bg
rc=$?
vg_errors
expect "record: SIGTERM exits 143" 143 "record written"
check "record: SIGTERM restores settings" test "$(cat "$D/fault_around_bytes")" = 65536
check "record: SIGTERM noted in the record" grep -q '^interrupted SIGTERM$' "$T/rec-int.txt"
check "record: SIGTERM forwarded to the command" grep -q '^exit_signal 15$' "$T/rec-int.txt"

# ------------------------------------------------------------------ compare
ft compare "$FIX/stock.txt" "$FIX/mkold1.txt"
golden "compare (the 2016 fault-around report's table)" 0 compare.txt
# two single runs: no spread, so compare points to ab (a note: not in -j)
check "compare of two records points to ab" grep -qx "foliotune: one run each shows no spread: whether B differs from A is what 'foliotune ab' answers (pairs of runs, with statistics)" "$T/err"
ft compare "$FIX/stock.txt" "$FIX/mkold1.txt" "$FIX/nomodule.txt"
golden "compare three records" 0 compare3.txt
check "compare of three records: no note" test ! -s "$T/err"
ft compare --only 'refault|fault$' "$FIX/stock.txt" "$FIX/mkold1.txt"
golden "compare --only" 0 compare-only.txt
# --only that names no counter is a mistake; one that names only counters
# that did not move, a result
ft compare --only 'no_such_counter' "$FIX/stock.txt" "$FIX/mkold1.txt"
expect "compare --only matching no counter: an error, exit 1" 1 \
	"^foliotune: compare: --only 'no_such_counter' matches no counter of these records$"
check "compare --only matching no counter: no table" test ! -s "$T/out"
ft compare --only '^pgfault$' "$FIX/stock.txt" "$FIX/mkold1.txt"
expect "compare --only matching counters that did not move: says so, exit 0" 0 \
	"^(no counter matching --only '^pgfault\$' moved)$"
# records of different machines or settings: a warning per env line that
# differs, not for the load average nor a knob a record sets
{ cat "$FIX/stock.txt"; printf 'env kernel_release 6.12.117+deb12-amd64\nenv cpus 2\nenv knob unmap_batch 1\nenv knob fault_around_mkold 0\nenv loadavg_before 0.1 0.2 0.3\n'; } >"$T/env-a.txt"
{ cat "$FIX/mkold1.txt"; printf 'env kernel_release 6.12.117+deb12-amd64\nenv cpus 4\nenv knob unmap_batch 0\nenv knob fault_around_mkold 1\nenv loadavg_before 3.1 2.2 1.3\n'; } >"$T/env-b.txt"
ft compare "$T/env-a.txt" "$T/env-b.txt"
expect "compare: warns when the records' env lines differ" 0 \
	"^foliotune: warning: the records differ in env cpus: 2 (stock), 4 (fault_around_mkold=1)$" \
	"^foliotune: warning: the records differ in env knob unmap_batch: 1 (stock), 0 (fault_around_mkold=1)$" \
	"^foliotune: warning: their figures may differ for that reason, not for the settings compared$"
check "compare: two env differences warned, no other" test "$(grep -c 'differ in env' "$T/err")" = 2
cp "$T/out" "$T/env.out"
ft compare "$FIX/stock.txt" "$FIX/mkold1.txt"
check "compare: the table is the same with env lines" cmp -s "$T/out" "$T/env.out"
ft -j compare "$T/env-a.txt" "$T/env-b.txt"
expect "compare -j: the env differences" 0 \
	'"env_differences":\[{"key":"cpus","values":\["2","4"\]},{"key":"knob unmap_batch","values":\["1","0"\]}\]'
ft compare "$T/env-a.txt" "$T/env-a.txt"
check "compare: the same env: no warning" sh -c "! grep -q warning '$T/err'"
ft -j compare "$FIX/stock.txt" "$FIX/mkold1.txt"
golden "compare -j" 0 compare.json
ft compare "$FIX/stock.txt"
expect "compare: one record" 1 "at least two"
ft compare --only '(' "$FIX/stock.txt" "$FIX/mkold1.txt"
expect "compare: bad regex" 1 "invalid --only regex"
ft compare "$FIX/stock.txt" "$T/missing.txt"
expect "compare: missing file" 2 "missing.txt: No such file or directory"
ft compare "$FIX/stock.txt" "$FIX/notarecord.txt"
expect "compare: not a record" 2 "not a foliotune record"
ft -j compare "$FIX/stock.txt" "$FIX/v2.txt"
expect "compare: newer format, JSON" 2 '^{"error":".*v2 is newer than this foliotune reads (v1)","errno":[0-9]*}$'

# ------------------------------------------------------------------ ab
# The statistics against scipy and numpy (Debian's python3-scipy: make deps).
if /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
	/usr/bin/python3 "$HERE/stats_ref.py" "$FT_UNIT" >"$T/stats" 2>&1
	src=$?
	grep -E '^(ok|not ok) - ' "$T/stats"
	pass=$((pass + $(grep -c '^ok - ' "$T/stats")))
	fail=$((fail + $(grep -c '^not ok - ' "$T/stats")))
	[ "$src" != 0 ] && [ "$(grep -c '^not ok - ' "$T/stats")" = 0 ] &&
		not_ok "stats_ref.py" "exit $src: $(oneline "$T/stats")"
else
	not_ok "statistics against scipy" "/usr/bin/python3 cannot import scipy (install python3-scipy: make deps)"
fi
# The report of a known ab file: the same for "ab" at its end and "compare".
ft compare "$FIX/ab.txt"
golden "compare an ab file" 0 ab.txt
ft -j compare "$FIX/ab.txt"
golden "compare -j an ab file" 0 ab.json
ft compare "$FIX/ab.txt" "$FIX/stock.txt"
expect "compare: an ab file with a record" 1 "is compared alone"
# ab-plot.sh: every complete run of the file, by pair and arm
if command -v gnuplot >/dev/null 2>&1; then
	cp "$FIX/ab.txt" "$T/plot.txt"
	sh "$FT_SRCDIR/ab-plot.sh" "$T/plot.txt" >"$T/out" 2>"$T/err"
	rc=$?
	expect "ab-plot.sh on an ab file" 0 "wrote $T/plot.png, $T/plot.svg ($T/plot.dat: 12 runs)"
	check "ab-plot.sh: PNG and SVG" test -s "$T/plot.png" -a -s "$T/plot.svg"
	check "ab-plot.sh: the data plotted is the file's" test \
		"$(awk '{ printf "%s%s=%s/%s ", $1, $2, $3, $4 }' "$T/plot.dat")" = \
		"$(awk '$1 == "wall_seconds" { w = $2 } $1 == "ab_run" { a = $4; p = $3 } $1 == "metric" { printf "%s%s=%s/%s ", p, a, w, $2 }' "$FIX/ab.txt")"
	sh "$FT_SRCDIR/ab-plot.sh" "$FIX/stock.txt" "$T/plot2" >"$T/out" 2>"$T/err"
	rc=$?
	expect "ab-plot.sh refuses a record" 1 "not a foliotune ab file"
else
	not_ok "ab-plot.sh" "gnuplot missing: run make deps (gnuplot-nox)"
fi
# A workload whose arms differ: unmap_batches moves by ~1000 with
# unmap_batch=1 and ~10 without, unmap_single_ptes by noise alike in both
# arms, unmap_calls by 100 in both (the same delta: not reported); it prints
# a throughput that B raises.
echo 0 >"$D/reclaim_probes"
cat >"$T/ab-work.sh" <<WORK
b=\$(cat "$D/unmap_batch")
n=\$(cat "$T/ab-count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$T/ab-count"
echo "\$b \$(cat "$D/reclaim_probes")" >>"$T/ab-during"
awk -v b=\$b -v n=\$n '\$1 == "unmap_batches" { \$2 += b ? 1000 + n : 10 + n }
	\$1 == "unmap_calls" { \$2 += 100 }
	\$1 == "unmap_single_ptes" { \$2 += (n * 7) % 5 }
	{ print }' "$D/vmstat" >"$D/vmstat.new" && mv "$D/vmstat.new" "$D/vmstat"
echo "ops/s: \$((1000 + b * 200 + n))"
[ "\$n" != "\${FAIL_AT:-0}" ] || exit 3
[ "\$n" != "\${HANG_AT:-0}" ] || { touch "$T/ab-hang"; exec sleep 30; }
WORK
rm -f "$T/ab-count" "$T/ab-during"
ft ab -o "$T/ab1.txt" -k unmap_batch=0,1 -n 6 -w 2 -m 'ops/s: ([0-9]+)' -N ops_per_s -- sh "$T/ab-work.sh"
expect "ab: runs and reports" 0 "^runs:     6 of 6 pairs, ABBA order, 2 warm-up runs" \
	"^ops_per_s " "verdict: B higher" "^foliotune/unmap_batches .* B higher$" \
	"machine-wide: the deltas include every process"
expect_not "ab: equal deltas are not reported" "unmap_calls"
check "ab: 2 warm-up and 12 recorded runs" test "$(cat "$T/ab-count") $(grep -c '^ab_run ' "$T/ab1.txt")" = "14 12"
check "ab: ABBA order, warm-ups alternate" test "$(cut -d' ' -f1 "$T/ab-during" | tr -d '\n')" = "01011001100110"
check "ab: reclaim_probes armed in both arms" sh -c "! grep -q ' 0$' '$T/ab-during'"
check "ab: knobs restored" test "$(cat "$D/unmap_batch") $(cat "$D/reclaim_probes")" = "1 0"
check "ab: every run is a record" test "$(grep -c '^# foliotune record v1$' "$T/ab1.txt")" = 12
check "ab: the fingerprint" grep -q '^env knob unmap_batch 1$' "$T/ab1.txt"
# a line per run, as hyperfine shows it: how many of all, the time left
check "ab: one progress line per run, numbered of all 14" test \
	"$(sed -n 's|^foliotune: run \([0-9]*\)/14 (.*): [0-9.]* s, ops_per_s [0-9]*.*|\1|p' "$T/err" | tr '\n' ' ')" = \
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
check "ab: progress names warm-ups and pairs" grep -q '^foliotune: run 2/14 (warm-up, arm B): ' "$T/err"
check "ab: progress: the time left, but after the last run" sh -c \
	"grep -q '^foliotune: run 13/14 (pair 6, arm B): .*; ~[0-9]* s left$' '$T/err' && grep -q '^foliotune: run 14/14 (pair 6, arm A): [0-9.]* s, ops_per_s [0-9]*$' '$T/err'"
# the intervals' exact level everywhere: 6 pairs give 96.9%
check "ab: the counters' header gives the exact confidence level" grep -q '^96.9% CI; exact Wilcoxon' "$T/out"
check "ab: the wall time's interval gives the same level" grep -q '^  B/A [0-9.]*, 96.9% CI ' "$T/out"
cp "$T/out" "$T/ab1.out"
ft compare "$T/ab1.txt"
check "ab: compare prints what ab printed" cmp -s "$T/out" "$T/ab1.out"
# --prepare CMD: before every run, warm-ups too, under the run's arm,
# untimed, out of the counter deltas and of ab's output
rm -f "$T/ab-count" "$T/ab-during" "$T/prep-log"
cat >"$T/prep.sh" <<PREP
echo "\$(cat "$D/unmap_batch") \$(cat "$T/ab-count" 2>/dev/null || echo 0)" >>"$T/prep-log"
awk '\$1 == "unmap_calls" { \$2 += 500 } { print }' "$D/vmstat" >"$D/vmstat.new" && mv "$D/vmstat.new" "$D/vmstat"
echo "prepare says hello"
PREP
ft ab -o "$T/ab-prep.txt" -k unmap_batch=0,1 -n 3 -w 1 -p "sh $T/prep.sh" -- sh "$T/ab-work.sh"
expect "ab --prepare" 0 "^prepare:  sh $T/prep.sh (before every run, untimed)$"
check "ab --prepare: before each of the 7 runs, the run's arm set, the run not started" test \
	"$(tr '\n' ' ' <"$T/prep-log")" = "0 0 0 1 1 2 1 3 0 4 0 5 1 6 "
check "ab --prepare: its counters are not the runs' deltas" test \
	"$(grep -c '^counter foliotune unmap_calls 100$' "$T/ab-prep.txt")" = 6
check "ab --prepare: its output is not ab's" sh -c "! grep -q 'prepare says hello' '$T/out' '$T/err'"
check "ab --prepare: in the file" grep -qx "prepare sh $T/prep.sh" "$T/ab-prep.txt"
rm -f "$T/ab-count"
ft ab -o "$T/ab-prepfail.txt" -k unmap_batch=0,1 -n 3 -w 1 -p 'exit 4' -- sh "$T/ab-work.sh"
expect "ab --prepare that fails stops ab" 2 \
	"^foliotune: warm-up run 1 (arm A) failed: its --prepare command exited with status 4$" \
	"the runs done so far are in $T/ab-prepfail.txt"
check "ab --prepare that fails: the command never ran, knobs restored" test ! -e "$T/ab-count" -a \
	"$(cat "$D/unmap_batch") $(cat "$D/reclaim_probes")" = "1 0"
ft ab -o "$T/ab-refused.txt" -k unmap_batch=0,1 -p '' -- true
expect "ab: an empty --prepare is a usage error" 1 "ab: empty --prepare command"
rm -f "$T/ab-count"
ft ab -o "$T/ab4.txt" -k unmap_batch=0,1 -n 6 -w 0 -t -m 'ops/s: ([0-9]+)' -- sh "$T/ab-work.sh"
expect "ab -t: the metric is a time" 0 "^metric .*" "verdict: B slower"
rm -f "$T/ab-count" "$T/ab-during"
ft -j ab -o "$T/ab2.txt" --random=7 -a unmap_batch=0 -a fault_around_bytes=16K -b unmap_batch=1 -n 3 -w 0 -- sh "$T/ab-work.sh"
expect "ab -j --random: JSON, the seed" 0 '^{"file":"' '"order":"random 7"' '"pairs":3,' \
	"cannot reach p < 0.05" '"verdict":"with 3 pairs no difference can be shown at p < 0.05 (6 are needed)"'
check "ab -j: the command's output kept off stdout" grep -q '^ops/s: ' "$T/err"
check "ab: B keeps the value found for a knob only A sets" grep -qx 'arm B unmap_batch=1 fault_around_bytes=65536 reclaim_probes=1' "$T/ab2.txt"
check "ab: fault_around_bytes restored" test "$(cat "$D/fault_around_bytes")" = 65536
# -f: the metric from a file the command writes (with -m: the matching
# line; without: the first number)
rm -f "$T/ab-count"
ft ab -o "$T/ab5.txt" -k unmap_batch=0,1 -n 6 -w 0 -f "$T/ab-metric" -- \
	sh -c "sh '$T/ab-work.sh' | sed 's/ops.s: /done in /' >'$T/ab-metric'"
expect "ab -f: the first number of a file" 0 "^metric .*" "verdict: B higher"
check "ab -f: the values read" test "$(sed -n 's/^metric //p' "$T/ab5.txt" | head -2 | tr '\n' ' ')" = "1001 1202 "
rm -f "$T/ab-count"
ft ab -o "$T/ab6.txt" -k unmap_batch=0,1 -n 3 -w 0 -f "$T/ab-metric" -m 'MB/s ([0-9]+)' -N mbs -- \
	sh -c "sh '$T/ab-work.sh' >'$T/ab-metric'"
expect "ab -f -m: no matching line in the file" 2 "run 1 (pair 1, arm A) failed: no line matching the metric's expression in $T/ab-metric"
SUDO_UID=65534 SUDO_GID=65533 ft ab -o "$T/ab3.txt" --aa -a unmap_batch=0 -n 3 -w 0 -- true
expect "ab --aa" 0 "arm B:    unmap_batch=0 reclaim_probes=1 (A/A: the noise floor)"
if [ "$(id -u)" = 0 ]; then
	check "ab under sudo: the file is the sudo user's, mode 0600" \
		test "$(stat -c %u:%g:%a "$T/ab3.txt")" = 65534:65533:600
else
	echo "ok - ab under sudo: the file is the sudo user's # SKIP not root (chown needs root)"
fi
# refused before anything runs or changes
echo 16384 >"$D/fault_around_bytes"
for args in "-n 2 -k unmap_batch=0,1|at least 3 pairs" \
	    "-k bogus=0,1|unknown knob .bogus." \
	    "-a fault_around_bytes=4M -b unmap_batch=0|out of range 4K..2M" \
	    "-k unmap_batch=0|expected KNOB=VALUE_A,VALUE_B" \
	    "-a unmap_batch=0 -b unmap_batch=0|same settings" \
	    "--aa -a unmap_batch=0 -b unmap_batch=1|give them with -a only" \
	    "-k unmap_batch=0,1 -m (|bad regular expression" \
	    "-k unmap_batch=0,1 -a unmap_batch=1|set twice for arm A" \
	    "-k unmap_batch=0,1 -N ops|need -m or -f" \
	    "-k unmap_batch=0,1 -t|need -m or -f" \
	    "-k unmap_batch=0,1 -n 1001|invalid number .1001. (0..1000)"; do
	rm -f "$T/ab-count"
	# shellcheck disable=SC2086
	ft ab -o "$T/ab-refused.txt" ${args%%|*} -- sh "$T/ab-work.sh"
	expect "ab refuses ${args%%|*}" 1 "${args#*|}"
	check "ab ${args%%|*}: nothing ran, nothing changed" test ! -e "$T/ab-count" -a ! -e "$T/ab-refused.txt" -a \
		"$(cat "$D/unmap_batch") $(cat "$D/fault_around_bytes")" = "1 16384"
done
echo 65536 >"$D/fault_around_bytes"
ft ab -k unmap_batch=0,1
expect "ab: missing command" 1 "missing COMMAND"
ft ab -o "$T/ab-refused.txt" -k fault_around_auto=0,1 -- true
expect "ab: knob not provided" 2 "not provided by this module"
FOLIOTUNE_ASSUME_UID=1000 ft ab -o "$T/ab-refused.txt" -k unmap_batch=0,1 -- true
expect "ab: not root" 2 "requires root"
FOLIOTUNE_SYSROOT="$U" ft ab -o "$T/ab-refused.txt" -k unmap_batch=0,1 -- true
expect "ab: module not loaded, one line" 2 "^foliotune: the foliotune module is not loaded (try 'foliotune load')$"
check "ab: module not loaded: one line" test "$(wc -l <"$T/err")" = 1
check "ab: no file after a refusal" test ! -e "$T/ab-refused.txt"
# the command fails: stop, restore, say which run
rm -f "$T/ab-count"
FAIL_AT=4 ft ab -o "$T/ab-fail.txt" -k unmap_batch=0,1 -n 3 -w 1 -- sh "$T/ab-work.sh"
expect "ab: a failing run stops it" 2 "run 3 (pair 2, arm B) failed: the command exited with status 3" \
	"the runs done so far are in $T/ab-fail.txt"
check "ab: failing run: knobs restored" test "$(cat "$D/unmap_batch") $(cat "$D/reclaim_probes")" = "1 0"
check "ab: failing run: no run after it" test "$(cat "$T/ab-count") $(grep -c '^ab_run ' "$T/ab-fail.txt")" = "4 3"
rm -f "$T/ab-count"
ft ab -o "$T/ab-nometric.txt" -k unmap_batch=0,1 -n 3 -w 0 -m 'MB/s: ([0-9]+)' -- sh "$T/ab-work.sh"
expect "ab: no metric in the output" 2 "run 1 (pair 1, arm A) failed: no line matching the metric's expression in the command's output"
# SIGTERM: restore, keep the runs done, exit 143
rm -f "$T/ab-count" "$T/ab-hang"
# shellcheck disable=SC2046
HANG_AT=4 $(vg) "$FT_BIN" ab -o "$T/ab-int.txt" -k unmap_batch=0,1 -n 3 -w 0 -- sh "$T/ab-work.sh" >"$T/out" 2>"$T/err" &
bg=$!
i=0
while [ ! -e "$T/ab-hang" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $bg
wait $bg
rc=$?
vg_errors
expect "ab: SIGTERM exits 143" 143 "the runs done so far are in $T/ab-int.txt"
check "ab: SIGTERM restores the knobs" test "$(cat "$D/unmap_batch") $(cat "$D/reclaim_probes")" = "1 0"
check "ab: SIGTERM keeps the runs done" test "$(grep -c '^ab_run ' "$T/ab-int.txt")" = 4
check "ab: SIGTERM noted in the file" grep -q '^ab_interrupted Terminated$' "$T/ab-int.txt"
ft compare "$T/ab-int.txt"
expect "ab: an interrupted file reads back: the complete pairs" 0 "^runs:     1 of 3 pairs, ABBA order, 0 warm-up runs, interrupted by Terminated"

# ------------------------------------------------------------------ load
ft load
expect "load: already loaded" 0 "foliotune is already loaded"
ft -j load
expect "load -j: already loaded" 0 '^{"loaded":true,"already_loaded":true,"path":null,"livepatch":"enabled","seconds":'
FOLIOTUNE_ASSUME_UID=1000 ft load
expect "load: not root" 2 "load requires root privileges"
echo 0 >"$L/enabled"
ft load
expect "load: livepatch being disabled" 2 "is disabled (being unloaded)"
echo 1 >"$L/enabled"
mk_tasks "$R"
echo 1 >"$L/transition"
ft load -t 0.2
golden "load: transition timeout lists stalled tasks" 2 load-stalled.txt "$T/err"
ft -j load -t 0.2
golden "load -j: transition timeout" 2 load-stalled.json
# Replace the file atomically: a real sysfs read never sees it half written.
( sleep 0.5; echo 0 >"$L/transition.new" && mv "$L/transition.new" "$L/transition" ) &
helper=$!
ft load -t 20
wait $helper
helper=
expect "load: waits for the transition" 0 "already loaded"
rm -rf "$L"
ft load
expect "load: module without livepatch" 2 "livepatch foliotune is not registered"
mk_root "$R" loaded

export FOLIOTUNE_SYSROOT="$U"
ft load "$T/nope.ko"
expect "load: missing module file" 2 "module file $T/nope.ko: No such file or directory"
if [ ! -e "$FT_SRCDIR/../module/foliotune.ko" ]; then
	ft load
	expect "load: no module anywhere" 2 "module foliotune.ko not found"
fi
KO=$U/lib/modules/$KVER/updates/foliotune.ko
mkdir -p "$(dirname "$KO")"
printf '\177ELF junk\000name=foliotune\000vermagic=6.1.0-99-amd64 SMP preempt mod_unload modversions \000' >"$KO"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2
expect "load: a module file for another build: says so and how to build one for this kernel, exit 2" 2 \
	"^foliotune: cannot load $KO: it was built for kernel 6.1.0-99-amd64, not this one ($KVER, which foliotune supports); build and install it for this kernel: sudo make install in the source tree (with dkms: sudo dkms autoinstall)$"
expect_not "load: a module file for another build: nothing loaded" "^foliotune: loading "
FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2 "$KO"
expect "load PATH: the same check for a file given" 2 "cannot load $KO: it was built for kernel 6.1.0-99-amd64, not this one"
expect_not "load PATH for another build: nothing loaded" "^foliotune: loading "
# an unsupported kernel: load refuses before any file, as support does
echo 6.1.0-99-amd64 >"$U/proc/sys/kernel/osrelease"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2
expect "load: an unsupported kernel: support's refusal, exit 2" 2 \
	"^foliotune: cannot load: foliotune does not support this kernel (6.1.0-99-amd64): foliotune serves Debian 6.12 builds; boot a verified one ('foliotune support -l' lists them)$"
check "load: an unsupported kernel: one line" test "$(wc -l <"$T/err")" = 1
FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft -j load -t 0.2 "$KO"
expect "load PATH: an unsupported kernel refused the same, JSON" 2 \
	'^{"error":"cannot load: foliotune does not support this kernel (6.1.0-99-amd64): .*","errno":8}$'
check "load: refused: no module, no livepatch" test ! -e "$U/sys/module/foliotune" -a ! -e "$U/sys/kernel/livepatch"
echo "$KVER" >"$U/proc/sys/kernel/osrelease"
printf '\177ELF junk\000vermagic=%s SMP preempt mod_unload modversions \000' "$KVER" >"$KO"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=129 ft load
expect "load: signature rejected" 2 "module signature rejected"
echo "none [integrity] confidentiality" >"$U/sys/kernel/security/lockdown"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=1 ft load
expect "load: lockdown" 2 "locked down (lockdown=integrity)"
# not loaded and locked down: status, get and set say so and exit 2
ft status
expect "status: lockdown, module not loaded" 2 "lockdown:         integrity (unsigned modules refused, debugfs restricted)"
ft get unmap_batch
expect "get: lockdown, module not loaded" 2 "cannot be: the kernel is locked down (lockdown=integrity)"
ft set unmap_batch 1
expect "set: lockdown, module not loaded" 2 "cannot be: the kernel is locked down (lockdown=integrity)"
ft -j status
expect "status -j: lockdown field" 2 '"lockdown":"integrity"'
echo "[none] integrity confidentiality" >"$U/sys/kernel/security/lockdown"
echo 1 >"$U/proc/sys/kernel/modules_disabled"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=1 ft load
expect "load: modules_disabled" 2 "kernel.modules_disabled=1"
echo 0 >"$U/proc/sys/kernel/modules_disabled"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=8 ft load
expect "load: ENOEXEC on a supported kernel: the file is for another build, and the fix" 2 \
	"cannot load $KO: the module file was built for another kernel build (its refusal is in dmesg); build and install it for this kernel: sudo make install in the source tree (with dkms: sudo dkms autoinstall)$"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft -j load
expect "load: module refuses, JSON" 2 '"errno":22}$' "Invalid argument"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 0.2
expect "load: livepatch never appears" 2 "timed out after 0.2 s waiting for"
# a successful load: a fake kernel registers the patch once the CLI has
# said "loading" (just before finit_module)
rm -f "$T/err"
( i=0
  while ! grep -q '^foliotune: loading ' "$T/err" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.05; i=$((i + 1))
  done
  mkdir -p "$U/sys/kernel/livepatch/foliotune/vmlinux" "$U/sys/module/foliotune"
  echo 1 >"$U/sys/kernel/livepatch/foliotune/transition"
  echo 1 >"$U/sys/kernel/livepatch/foliotune/enabled"
  sleep 0.3
  echo 0 >"$U/sys/kernel/livepatch/foliotune/transition" ) &
helper=$!
FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft load -t 20
wait $helper
helper=
expect "load: success" 0 "foliotune loaded from $KO (livepatch enabled, transition complete"
rm -rf "$U/sys/kernel/livepatch" "$U/sys/module"
# Which file: modprobe's answer (modules.dep) first, an explicit PATH always.
M=$U/lib/modules/$KVER
mkdir -p "$M/extra"
printf '\177ELF junk\000vermagic=%s SMP preempt mod_unload modversions \000' "$KVER" >"$M/extra/foliotune.ko.xz"
printf 'kernel/fs/xfs/xfs.ko.xz: kernel/lib/libcrc32c.ko.xz\nextra/foliotune.ko.xz:\n' >"$M/modules.dep"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load
expect "load: the module modules.dep names wins over updates/" 2 "cannot load $M/extra/foliotune.ko.xz:"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load "$KO"
expect "load: an explicit PATH wins over modules.dep" 2 "cannot load $KO:"
printf 'extra/foliotune.ko:\n' >"$M/modules.dep"
ft load
expect "load: modules.dep names a missing file" 2 "modules.dep names $M/extra/foliotune.ko, which does not exist (run 'depmod $KVER')"
printf '/lib/modules/%s/extra/foliotune.ko.xz:\n' "$KVER" >"$M/modules.dep"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load
expect "load: absolute path in modules.dep" 2 "cannot load $M/extra/foliotune.ko.xz:"
printf 'kernel/fs/xfs/xfs.ko.xz:\nupdates/foliotunex.ko:\n' >"$M/modules.dep"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=22 ft load
expect "load: not in modules.dep (depmod not run): updates/" 2 "cannot load $KO:"
rm -rf "$M/extra" "$M/modules.dep"

# ------------------------------------------------------------------ unload
ft unload
expect "unload: not loaded" 0 "foliotune is not loaded"
ft -j unload
expect "unload -j: not loaded" 0 '^{"unloaded":true,"was_loaded":false,"seconds":'
export FOLIOTUNE_SYSROOT="$R"
FOLIOTUNE_ASSUME_UID=1000 ft unload
expect "unload: not root" 2 "unload requires root privileges"
# a fake kernel: patch disabled -> transition -> patch and module go away
( i=0
  while [ "$(cat "$L/enabled" 2>/dev/null)" != 0 ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
  # atomic replace: a real sysfs read never sees a half-written file
  echo 1 >"$L/transition.new" && mv "$L/transition.new" "$L/transition"; sleep 0.2
  echo 0 >"$L/transition.new" && mv "$L/transition.new" "$L/transition"; sleep 0.2
  rm -rf "$L"; sleep 0.2
  rm -rf "$R/sys/module/foliotune" ) &
helper=$!
FOLIOTUNE_FAKE_MODULE_SYSCALLS=0 ft unload -t 20
wait $helper
helper=
expect "unload: success" 0 "foliotune unloaded (livepatch disabled, module removed"
mk_root "$R" loaded
mk_tasks "$R"
echo 1 >"$L/transition"
ft unload -t 0.2
expect "unload: transition timeout lists stalled tasks" 2 \
	"timed out after 0.2 s waiting for the livepatch transition (unpatching)" \
	"pid 100 tid 101 (done-thread) patch_state=1"
check "unload: wrote 0 to enabled" test "$(cat "$L/enabled")" = 0
expect_not "unload: tasks already unpatched are not listed" "stuck-worker"
mk_root "$R" loaded
rm -rf "$L"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=16 ft unload -t 0.3
expect "unload: module busy" 2 "cannot remove module foliotune: Device or resource busy (still in use)"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=1 ft unload -t 0.3
expect "unload: delete_module EPERM" 2 "Operation not permitted"
FOLIOTUNE_FAKE_MODULE_SYSCALLS=2 ft unload -t 0.2
expect "unload: module stays" 2 "timed out after 0.2 s waiting for $R/sys/module/foliotune to go away"

# ------------------------------------------------------------------ analyze
# The statistics of ab on values measured elsewhere (the benchmark reports
# use it): runs nothing, so neither root nor the module.
FOLIOTUNE_SYSROOT=$T/nothing FOLIOTUNE_ASSUME_UID=1000 ft analyze "$FIX/stats.in"
golden "analyze: samples and pairs, without root or module" 0 analyze.txt
expect "analyze: an outlier by position" 0 "^boot	samples	5	10.1	.*	4$" "^two	samples	2	.*	-$"
expect "analyze: too few pairs says so" 0 \
	"^five	pairs	5	.*	few	with 5 pairs no difference can be shown at p < 0.05 (6 are needed)	0.9375$" \
	"^faults	pairs	6	.*	B-A	.*	few	with 6 pairs, 3 of them differing, no difference can be shown at p < 0.05"
expect "analyze: no difference, with the smallest effect" 0 \
	"^spin	pairs	8	.*	none	no difference these runs can show: the smallest effect they could detect is [0-9.]*%	0.9609$"
# the exact confidence of each interval (it depends on the pairs), as ab
# prints it: 96.9% at 6 pairs, 96.1% at 8, 93.8% at 5
expect "analyze: the interval's exact level, per line" 0 \
	"^# NAME	pairs	.*	TEXT	CI_LEVEL$" "^latency	pairs	6	.*	0.9688$"
FOLIOTUNE_SYSROOT=$T/nothing FOLIOTUNE_ASSUME_UID=1000 ft -j analyze <"$FIX/stats.in"
golden "analyze -j from stdin" 0 analyze.json
# the pairs of the ab fixture: what ab's report says of them
awk '$1 == "wall_seconds" { w = $2 } $1 == "ab_run" { p = $3; a = $4 } $1 == "metric" { v[p, a] = w; m[p, a] = $2; if (p > n) n = p }
	END { for (i = 1; i <= n; i++) print "wall_seconds", v[i, "A"], v[i, "B"]
	      for (i = 1; i <= n; i++) print "ops_per_s", m[i, "A"], m[i, "B"] }' "$FIX/ab.txt" >"$T/stats-ab.in"
ft analyze -t "$T/stats-ab.in"
expect "analyze -t: the ab fixture's pairs give ab's verdicts" 0 \
	"^wall_seconds	pairs	6	2.016	1.706	B/A	0.8465[0-9]*	0.8380[0-9]*	0.8613[0-9]*	0.03125	lower	B faster	0.9688$" \
	"^ops_per_s	pairs	6	1007.5	1207.5	B/A	1.1985[0-9]*	.*	0.03125	higher	B slower	0.9688$"
printf 'x 1\nx 1 2\n' >"$T/stats-mixed.in"
ft analyze "$T/stats-mixed.in"
expect "analyze: samples and pairs under one name refused" 1 "stats-mixed.in:2: x has a sample on line 1 and a pair here"
printf 'x 1 2 3\n' >"$T/stats-4.in"
ft analyze <"$T/stats-4.in"
expect "analyze: four fields refused" 1 "-:1: expected NAME VALUE or NAME A B"
printf 'x 1\nx nan\n' >"$T/stats-nan.in"
ft analyze - <"$T/stats-nan.in"
expect "analyze: not a finite number refused" 1 "-:2: 'nan' is not a finite number"
ft -j analyze "$T/missing.in"
expect "analyze: missing file, JSON error" 2 '^{"error":".*missing.in: No such file or directory","errno":2}$'
ft analyze a b
expect "analyze: two files refused" 1 "at most one FILE"
# nothing to analyze is an error, not a header and exit 0 (a step before
# it in a pipe printed nothing)
: >"$T/empty.in"
ft analyze "$T/empty.in"
expect "analyze: an empty file is an error" 1 "analyze: $T/empty.in: no values read"
check "analyze: empty input: nothing on stdout" test ! -s "$T/out"
printf '# only a comment\n\n' | { ft analyze; }
expect "analyze: standard input without a value is an error" 1 "analyze: -: no values read"
ft -j analyze </dev/null
expect "analyze -j: empty input, a JSON error" 1 '^{"error":"analyze: -: no values read (expected NAME VALUE or NAME A B lines)","errno":61}$'
# standard input is fd 0, not the path /dev/stdin (the test box has none):
# in a mount namespace with an empty /dev
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	printf 'x 1\nx 2\n' >"$T/two.in"
	unshare -m sh -c 'mount -t tmpfs none /dev && test ! -e /dev/stdin && exec "$0" analyze' \
		"$FT_BIN" <"$T/two.in" >"$T/out" 2>"$T/err"
	rc=$?
	vgerr=
	expect "analyze: reads standard input without /dev/stdin" 0 "^x	samples	2	1.5	"
else
	echo "ok - analyze: reads standard input without /dev/stdin # SKIP needs root and unshare -m"
fi
# the old name, for one release
ft stats "$FIX/stats.in"
golden "stats, the old name of analyze: the same output" 0 analyze.txt
expect "stats: warns that it is now analyze" 0 "^foliotune: warning: 'stats' is now 'analyze'; the old name goes in the next release$"

# ------------------------------------------------------------------ summary
echo "# $pass passed, $fail failed"
[ "$fail" = 0 ]
