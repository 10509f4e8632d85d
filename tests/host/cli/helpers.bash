# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# helpers.bash - what the CLI's bats tests share (load helpers): every test
# runs the CLI against fake trees of its own (FOLIOTUNE_SYSROOT) made fresh
# by setup(): $R with the module loaded (fake debugfs knobs and counters,
# /proc/vmstat, livepatch sysfs), $U without it.  Module syscalls are always
# simulated (FOLIOTUNE_FAKE_MODULE_SYSCALLS).
#
# Environment (userspace/Makefile's check passes them): FT_BIN (the CLI),
# FT_SRCDIR (userspace/), FT_KVER (the build the CLI was compiled for),
# VALGRIND (command, empty for none), UPDATE_GOLDEN=1 (rewrite golden/).
#
#   ft ARG...            run the CLI: $status, $output (stdout), $stderr;
#                        under valgrind, its findings fail the test
#   ft_bg ARG..., ft_wait  the same in the background
#   expect RC PAT...     exit status RC, and each PAT (grep BRE) in stdout
#                        or stderr
#   expect_not PAT       PAT in neither
#   golden FILE [SRC]    SRC (default: stdout, $T/out), normalised, is golden/FILE
#   refused PAT          support's refusal: exit 2, one short line PAT on
#                        stderr, the verified builds on stdout
#   refute CMD...        CMD fails
# (In a bats test "! CMD" and "A && B" never fail the test: refute, and one
# check per line.)

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$HERE/fixtures
GOLD=$HERE/golden
TOP=$(cd "$HERE/../../.." && pwd)
FT_SRCDIR=${FT_SRCDIR:-$TOP/userspace}
FT_BIN=${FT_BIN:-$FT_SRCDIR/foliotune}
VALGRIND=${VALGRIND-valgrind}
command -v "${VALGRIND:-true}" > /dev/null 2>&1 || VALGRIND=
# The build the CLI was compiled for (userspace/Makefile passes it; its
# default is the project's), that build's version string from its
# module/verified/ header (a made-up one for a build that has none), and
# another verified build: a kernel the module was not built for.
KVER=${FT_KVER:-$(cat "$TOP/scripts/kernels/default-kver")}
KVERSION=$(sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' \
	"$TOP/module/verified/$KVER.h" 2> /dev/null | head -1)
KVERSION=${KVERSION:-#1 SMP PREEMPT_DYNAMIC Debian (a build not in module/verified)}
KVERSION_RE=$(printf '%s\n' "$KVERSION" | sed 's/[][\\.*^$|]/\\&/g')
OTHER_KVER=$(cd "$TOP/module/verified" && ls -- *.h | sed 's/\.h$//' |
	grep -vx -e "$KVER" -e '.*-ftdebug' | head -1)
# The verified builds as support lists them, one per line (and joined, for
# <VERIFIED> in golden files: they stay put when a build is verified).
VERIFIED_LINES=$(cd "$TOP/module/verified" && LC_ALL=C ls -- *.h | sed 's/\.h$//' | grep -v -e '-ftdebug$')
VERIFIED=$(printf '%s\n' "$VERIFIED_LINES" | sed ':a;N;$!ba;s/\n/, /g')

# Never touch the real kernel's modules, whoever runs this.
export FOLIOTUNE_FAKE_MODULE_SYSCALLS=38	# ENOSYS unless a test says otherwise
export FOLIOTUNE_ASSUME_UID=0
unset FOLIOTUNE_DEBUGFS SUDO_UID SUDO_GID
export LC_ALL=C

# mk_root DIR loaded|unloaded: a fake system.
mk_root() {
	local r=$1 l d
	rm -rf "$r"
	mkdir -p "$r/proc/sys/kernel" "$r/sys/kernel/security" \
		"$r/sys/kernel/debug/tracing" "$r/lib/modules/$KVER"
	echo "$KVER" > "$r/proc/sys/kernel/osrelease"
	echo "$KVERSION" > "$r/proc/sys/kernel/version"
	echo 0 > "$r/proc/sys/kernel/modules_disabled"
	echo "[none] integrity confidentiality" > "$r/sys/kernel/security/lockdown"
	cp "$FIX/proc_vmstat.before" "$r/proc/vmstat"
	[ "$2" = loaded ] || return 0
	mkdir -p "$r/sys/module/foliotune"
	echo live > "$r/sys/module/foliotune/initstate"
	l=$r/sys/kernel/livepatch/foliotune
	mkdir -p "$l/vmlinux/try_to_unmap_one,1" "$l/vmlinux/do_fault_around,1"
	echo 1 > "$l/enabled"
	echo 0 > "$l/transition"
	echo 0 > "$l/force"
	echo 1 > "$l/vmlinux/patched"
	d=$r/sys/kernel/debug/foliotune
	mkdir -p "$d"
	echo 1 > "$d/unmap_batch"
	echo 65536 > "$d/fault_around_bytes"
	echo 0 > "$d/fault_around_mkold"
	# the auto-tuner knobs are "not provided" by this fake module
	printf 'release %s\nversion %s\nsource linux-source-6.12 1\nverified %s\n' "$KVER" "$KVERSION" \
		"locally on box1 (machine-id sha256 0123456789abcdef) at 2026-12-03 13:00 UTC" > "$d/build"
	cp "$FIX/module_vmstat.before" "$d/vmstat"
}

# mk_tasks ROOT: tasks a transition waits for (and some it does not).
mk_tasks() {
	local p=$1/proc
	mkdir -p "$p/100/task/100" "$p/100/task/101" "$p/200" "$p/300/task/300"
	echo 0 > "$p/100/task/100/patch_state"
	echo stuck-worker > "$p/100/task/100/comm"
	echo 1 > "$p/100/task/101/patch_state"
	echo done-thread > "$p/100/task/101/comm"
	echo 0 > "$p/200/patch_state"
	echo old-style > "$p/200/comm"
	echo -1 > "$p/300/task/300/patch_state"
	echo idle > "$p/300/task/300/comm"
}

# knob_names: the knob names, from the X-macro list in the shared header.
knob_names() {
	sed -n '/define FOLIOTUNE_KNOBS/,/^$/s/^[[:space:]]*X(\([a-z_0-9]*\), .*/\1/p' \
		"$TOP/include/foliotune.h"
}

setup() {
	T=$BATS_TEST_TMPDIR
	R=$T/root
	U=$T/unloaded
	D=$R/sys/kernel/debug/foliotune
	L=$R/sys/kernel/livepatch/foliotune
	mk_root "$R" loaded
	mk_root "$U" unloaded
	export FOLIOTUNE_SYSROOT=$R
}

# diag TEXT...: why a check failed, on the test's output (bats shows it).
diag() { printf '# %s\n' "$@" >&2; }

# refute CMD...: CMD fails (a bare "! CMD" never fails a bats test).
refute() {
	if "$@"; then
		diag "unexpectedly true: $*"
		return 1
	fi
}

# vg: the command prefix that runs the CLI (valgrind, or nothing).
vg() {
	[ -n "$VALGRIND" ] && echo "$VALGRIND -q --error-exitcode=1 --leak-check=full" \
		"--errors-for-leak-kinds=definite,indirect,possible" \
		"--show-leak-kinds=definite,indirect,possible --child-silent-after-fork=yes" \
		"--log-file=$T/vg.%p"
}

# vg_clean: no valgrind finding in the runs so far (their logs removed).
vg_clean() {
	local f bad=
	for f in "$T"/vg.*; do
		[ -s "$f" ] && { diag "valgrind: $(head -c 600 "$f")"; bad=1; }
	done
	rm -f "$T"/vg.*
	[ -z "$bad" ]
}

# (its streams also as they are, in $T/out and $T/err)
ft() {
	# shellcheck disable=SC2046
	$(vg) "$FT_BIN" "$@" > "$T/out" 2> "$T/err" && status=0 || status=$?
	output=$(cat "$T/out")
	stderr=$(cat "$T/err")
	vg_clean
}

# ft_bg ARG...: the CLI in the background; ft_wait: as ft, once it ends.
ft_bg() {
	# shellcheck disable=SC2046
	$(vg) "$FT_BIN" "$@" > "$T/out" 2> "$T/err" &
	bg=$!
}
ft_wait() {
	wait "$bg" && status=0 || status=$?
	output=$(cat "$T/out")
	stderr=$(cat "$T/err")
	vg_clean
}

expect() {
	local want=$1 pat
	shift
	if [ "$status" != "$want" ]; then
		diag "exit $status, want $want" "stdout: $output" "stderr: $stderr"
		return 1
	fi
	for pat in "$@"; do
		if ! printf '%s\n%s\n' "$output" "$stderr" | grep -q -e "$pat"; then
			diag "no '$pat' in:" "stdout: $output" "stderr: $stderr"
			return 1
		fi
	done
}

expect_not() {
	if printf '%s\n%s\n' "$output" "$stderr" | grep -q -e "$1"; then
		diag "unexpected '$1' in: $output $stderr"
		return 1
	fi
}

# normalise: the volatile parts of an output: temporary and fixture
# directories, the kernel build, dates, wall times, the tool's version.
# EXTRA_SED: more sed expressions for one test.
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

golden() {
	local g=$GOLD/$1 norm=$T/golden.norm
	normalise < "${2:-$T/out}" > "$norm"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$norm" "$g"
	elif [ ! -f "$g" ]; then
		diag "missing golden file $1 (UPDATE_GOLDEN=1 creates it)"
		return 1
	elif ! diff -u "$g" "$norm" >&2; then
		diag "output differs from golden/$1"
		return 1
	fi
}

refused() {
	if [ "$status" != 2 ]; then
		diag "exit $status, want 2; stderr: $stderr"
		return 1
	elif [ "$(printf '%s\n' "$stderr" | wc -l)" != 1 ] || ! grep -q -e "$1" <<< "$stderr"; then
		diag "want one line '$1' on stderr: $stderr"
		return 1
	elif [ "${#stderr}" -gt 400 ]; then
		diag "the refusal is ${#stderr} characters long: $stderr"
		return 1
	elif [ "$output" != "$VERIFIED_LINES" ]; then
		diag "stdout is not the verified builds, one per line: $output"
		return 1
	fi
}

# one_line RC STREAM PATTERN: exit RC, exactly one line on STREAM (output
# or stderr) matching PATTERN, nothing on the other.
one_line() {
	local s o
	if [ "$2" = output ]; then s=$output o=$stderr; else s=$stderr o=$output; fi
	if [ "$status" != "$1" ]; then
		diag "exit $status, want $1; stdout: $output stderr: $stderr"
		return 1
	elif [ "$(printf '%s\n' "$s" | wc -l)" != 1 ] || ! grep -q -e "$3" <<< "$s"; then
		diag "want one line '$3' on $2: $s"
		return 1
	elif [ -n "$o" ]; then
		diag "the other stream is not empty: $o"
		return 1
	fi
}
