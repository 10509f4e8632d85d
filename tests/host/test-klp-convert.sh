#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of scripts/klp-convert: build the tool and small crafted
# objects (tests/host/klp-convert/), run the tool on them and check the
# result with a small libelf dumper (elfdump.c).  Prints "ok - NAME" or
# "not ok - NAME # reason" per check; exits nonzero if any failed.
#
# Also, when the kernel headers are installed, builds a real external
# module with kbuild (modpost given the private symvers) and converts it;
# and, when valgrind is installed, runs the tool under it.
#
# Environment: KDIR (kernel headers, default the foliotune target),
# KEEP=1 keeps the scratch directory.

set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
T=$TOP/tests/host/klp-convert
KVER=${KVER:-$(cat "$(dirname "$0")/../../scripts/kernels/default-kver")}
# (make exports both; run alone, the headers come from the kernel cache)
KDIR=${KDIR:-$("$(dirname "$0")/../../scripts/kernels/fetch.sh" "$KVER" --path kdir)}
# kbuild with the compiler KVER's headers name (gcc-14 for a Debian 13 build)
KBUILD_RUN=("$TOP/scripts/kernels/kbuild-run.sh" "$KVER")
W=$(mktemp -d /tmp/test-klp-convert.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$W"' EXIT

pass=0
fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
nok() { echo "not ok - $1 # $2"; fail=$((fail + 1)); }
# expect NAME REASON COMMAND...: ok if COMMAND succeeds.
expect() {
	local name=$1 reason=$2
	shift 2
	if "$@"; then ok "$name"; else nok "$name" "$reason"; fi
}

KC=$TOP/scripts/klp-convert
DUMP=$W/elfdump
LIST=$T/klp-symbols.list
KALLSYMS=$T/kallsyms.txt
SYMVERS=$T/symvers.txt
CFLAGS_OBJ="-c -O2 -mcmodel=kernel -fno-pic -fno-asynchronous-unwind-tables
	-fno-common -mno-red-zone -fno-stack-protector -ffreestanding -w"

# kc ARGS...: run the tool; stdout in $W/out, stderr in $W/err, status in $rc.
kc() {
	"$KC" "$@" >"$W/out" 2>"$W/err"
	rc=$?
}
# refused NAME PATTERN: the last run failed with status 1 and said PATTERN.
refused() {
	if [ "$rc" -ne 1 ]; then
		nok "$1" "exit status $rc, expected 1"
	elif ! grep -q -- "$2" "$W/err"; then
		nok "$1" "no '$2' in: $(head -c 300 "$W/err" | tr '\n' '|')"
	else
		ok "$1"
	fi
}
# convert IN OUT [LIST]: the usual conversion.
convert() {
	kc --list "${3:-$LIST}" --kallsyms "$KALLSYMS" --symvers "$SYMVERS" "$1" "$2"
}

# --- build ------------------------------------------------------------------

if make -s -B -C "$TOP/scripts" all >"$W/build.log" 2>&1; then
	ok "build klp-convert (-Wall -Wextra -Werror)"
else
	nok "build klp-convert (-Wall -Wextra -Werror)" "$(tail -3 "$W/build.log" | tr '\n' '|')"
	echo "1..$((pass + fail))"
	exit 1
fi
gcc -O2 -Wall -Wextra -Werror -o "$DUMP" "$T/elfdump.c" -lelf || exit 1
for t in t-basic t-jump t-gotpcrel t-unlisted; do
	# shellcheck disable=SC2086
	gcc $CFLAGS_OBJ -o "$W/$t.o" "$T/$t.c" || exit 1
done

# --- --write-symvers --------------------------------------------------------

kc --list "$LIST" --kallsyms "$KALLSYMS" --write-symvers "$W/klp.symvers"
printf '0x00000000\t%s\tvmlinux\tEXPORT_SYMBOL_GPL\t\n' hidden_fn hidden_var dup_fn unused_fn \
	>"$W/klp.symvers.expected"
expect "write-symvers: exit 0" "rc=$rc: $(cat "$W/err")" [ "$rc" -eq 0 ]
expect "write-symvers: format (CRC 0, vmlinux, GPL, empty namespace; list order)" \
	"$(diff "$W/klp.symvers.expected" "$W/klp.symvers" | head -5 | tr '\n' '|')" \
	cmp -s "$W/klp.symvers.expected" "$W/klp.symvers"

printf 'hidden_fn\nnowhere_fn\n' >"$W/list-missing"
kc --list "$W/list-missing" --kallsyms "$KALLSYMS" --write-symvers "$W/bad.symvers"
refused "write-symvers: validates the list against kallsyms" "nowhere_fn"
expect "write-symvers: nothing written on failure" "file exists" [ ! -e "$W/bad.symvers" ]

printf 'hidden_fn\nexp_fn\n' >"$W/list-exp"
kc --list "$W/list-exp" --kallsyms "$KALLSYMS" --symvers "$SYMVERS" --write-symvers "$W/bad.symvers"
refused "write-symvers: with --symvers, refuses an exported symbol" "exp_fn.*exported"

# --- the basic conversion ---------------------------------------------------

IN=$W/t-basic.o
OUT=$W/t-basic.ko
sha_before=$(sha256sum <"$IN")
kc -v --list "$LIST" --kallsyms "$KALLSYMS" --symvers "$SYMVERS" "$IN" "$OUT"
expect "basic: exit 0" "rc=$rc: $(head -c 300 "$W/err")" [ "$rc" -eq 0 ]
cp "$W/out" "$W/basic.out"
cp "$W/err" "$W/basic.err"
expect "basic: input left untouched" "checksum changed" [ "$(sha256sum <"$IN")" = "$sha_before" ]
if ! { "$DUMP" "$IN" >"$W/in.dump" && "$DUMP" "$OUT" >"$W/out.dump"; }; then
	nok "basic: elfdump" "cannot read the output"
fi
readelf -a -W "$OUT" >/dev/null 2>"$W/readelf.err"
expect "basic: readelf reads the output without complaint" "$(head -3 "$W/readelf.err")" \
	[ ! -s "$W/readelf.err" ]

# sym_line NAME: the "shndx bind" of symbol NAME in the output.
sym_line() { awk -F'\t' -v n="$1" '$1 == "sym" && $3 == n { print $4, $5 }' "$W/out.dump"; }
expect "basic: hidden_fn -> .klp.sym.vmlinux.hidden_fn,0 (SHN_LIVEPATCH, GLOBAL)" \
	"got '$(sym_line '.klp.sym.vmlinux.hidden_fn,0')'" \
	[ "$(sym_line '.klp.sym.vmlinux.hidden_fn,0')" = "ff20 1" ]
expect "basic: hidden_var -> .klp.sym.vmlinux.hidden_var,0" \
	"got '$(sym_line '.klp.sym.vmlinux.hidden_var,0')'" \
	[ "$(sym_line '.klp.sym.vmlinux.hidden_var,0')" = "ff20 1" ]
expect "basic: duplicate with sympos 2 -> .klp.sym.vmlinux.dup_fn,2" \
	"got '$(sym_line '.klp.sym.vmlinux.dup_fn,2')'" \
	[ "$(sym_line '.klp.sym.vmlinux.dup_fn,2')" = "ff20 1" ]
expect "basic: no listed symbol left undefined" "$(grep -P '^sym\t\d+\t(hidden_fn|hidden_var|dup_fn)\t' "$W/out.dump")" \
	bash -c "! grep -qP '^sym\t\d+\t(hidden_fn|hidden_var|dup_fn)\t' '$W/out.dump'"
expect "basic: symbol indices unchanged" "symbol count differs" \
	[ "$(grep -c '^sym' "$W/in.dump")" = "$(grep -c '^sym' "$W/out.dump")" ]

# sec_line NAME: "type flags link info align entsize" of section NAME.
sec_line() { awk -F'\t' -v n="$1" '$1 == "sec" && $2 == n { print $3, $4, $5, $6, $8, $9 }' "$W/out.dump"; }
for t in .text .init.text .data; do
	expect "basic: .klp.rela.vmlinux.$t: RELA, ALLOC|INFO_LINK|RELA_LIVEPATCH, link .symtab, info $t" \
		"got '$(sec_line ".klp.rela.vmlinux.$t")'" \
		[ "$(sec_line ".klp.rela.vmlinux.$t")" = "4 100042 .symtab $t 8 18" ]
done

# Relocations against listed symbols: the input's, in the input's order...
awk -F'\t' '$1 == "rela" && $6 ~ /^(hidden_fn|hidden_var|dup_fn)$/ && $3 != ".comment.klp_test" {
	print $3, $4, $5, $6, $7 }' "$W/in.dump" >"$W/moved.in"
# ...are exactly those of the .klp.rela sections, symbol renamed.
awk -F'\t' '$1 == "rela" && $2 ~ /^\.klp\.rela\.vmlinux\./ {
	s = $6; sub(/^\.klp\.sym\.vmlinux\./, "", s); sub(/,[0-9]+$/, "", s)
	print $3, $4, $5, s, $7 }' "$W/out.dump" >"$W/moved.out"
expect "basic: every listed-symbol relocation moved to .klp.rela (offset, type, addend kept)" \
	"$(diff "$W/moved.in" "$W/moved.out" | head -5 | tr '\n' '|')" \
	cmp -s "$W/moved.in" "$W/moved.out"
expect "basic: relocation types PLT32, PC32, 32S and 64 were converted" "types: $(cut -d' ' -f3 "$W/moved.out" | sort -u | tr '\n' ' ')" \
	[ "$(cut -d' ' -f3 "$W/moved.out" | sort -nu | tr '\n' ' ')" = "1 2 4 11 " ]
expect "basic: moved, not copied (no normal relocation against a .klp.sym in loaded sections)" \
	"$(grep -P '^rela\t\.rela[^\t]*\t(?!\.comment)[^\t]*\t[^\t]*\t[^\t]*\t\.klp\.sym' "$W/out.dump" | head -2)" \
	bash -c "! grep -qP '^rela\t\.rela[^\t]*\t(?!\.comment)[^\t]*\t[^\t]*\t[^\t]*\t\.klp\.sym' '$W/out.dump'"

# Mixed sections: the other relocations are untouched, same order.
awk -F'\t' '$1 == "rela" && $6 !~ /^(hidden_fn|hidden_var|dup_fn)$/' "$W/in.dump" >"$W/kept.in"
awk -F'\t' '$1 == "rela" && $2 !~ /^\.klp\.rela\./ && $6 !~ /^\.klp\.sym\./' "$W/out.dump" >"$W/kept.out"
expect "basic: mixed sections keep exported-symbol relocations intact" \
	"$(diff "$W/kept.in" "$W/kept.out" | head -5 | tr '\n' '|')" cmp -s "$W/kept.in" "$W/kept.out"
expect "basic: mixed sections really were mixed" "no exp_* relocation in .rela.text/.rela.data" \
	bash -c "grep -qP '^rela\t\.rela\.text\t.*\texp_fn\t' '$W/kept.out' &&
		 grep -qP '^rela\t\.rela\.data\t.*\texp_var\t' '$W/kept.out'"
expect "basic: weak undefined symbol (unlisted, unexported) accepted and untouched" "weak_fn changed" \
	grep -qP '^rela\t\.rela\.text\t\.text\t43\t11\tweak_fn\t0$' "$W/out.dump"
expect "basic: relocation in a non-allocated section left in place" "not found" \
	grep -qP '^rela\t\.rela\.comment\.klp_test\t\.comment\.klp_test\t0\t1\t\.klp\.sym\.vmlinux\.hidden_var,0\t0$' \
	"$W/out.dump"

# __versions: exactly the converted entries gone, the rest byte-identical.
grep -P '^ver\t' "$W/in.dump" | grep -vP '^ver\t[0-9a-f]+\t(hidden_fn|hidden_var|dup_fn)\t' >"$W/ver.expected"
grep -P '^ver\t' "$W/out.dump" >"$W/ver.out"
expect "basic: __versions loses exactly the converted entries, others byte-identical" \
	"$(diff "$W/ver.expected" "$W/ver.out" | head -5 | tr '\n' '|')" cmp -s "$W/ver.expected" "$W/ver.out"
expect "basic: __versions input had 6 entries, output 3" "in $(grep -c '^ver' "$W/in.dump"), out $(grep -c '^ver' "$W/out.dump")" \
	[ "$(grep -c '^ver' "$W/in.dump")/$(grep -c '^ver' "$W/out.dump")" = 6/3 ]

expect "basic: --verbose prints one line per converted symbol with its count" \
	"$(tr '\n' '|' <"$W/basic.out")" \
	bash -c "grep -qx 'klp-convert: hidden_fn -> .klp.sym.vmlinux.hidden_fn,0: 3 relocations' '$W/basic.out' &&
		 grep -qx 'klp-convert: dup_fn -> .klp.sym.vmlinux.dup_fn,2: 1 relocation' '$W/basic.out' &&
		 grep -q '^klp-convert: hidden_var -> .klp.sym.vmlinux.hidden_var,0: 4 relocations' '$W/basic.out' &&
		 grep -qx 'klp-convert: unused_fn: listed, not referenced' '$W/basic.out'"
expect "basic: no warning or error ('address' marks hidden_fn)" "$(tr '\n' '|' <"$W/basic.err")" \
	[ ! -s "$W/basic.err" ]

# --- refusals ---------------------------------------------------------------

convert "$OUT" "$W/twice.ko"
refused "already converted module is refused" "already converted"

convert "$W/t-unlisted.o" "$W/t-unlisted.ko"
refused "unlisted, unexported undefined symbol is refused (named)" "undefined symbol secret_fn is neither exported"
expect "refused conversion writes no output" "output exists" [ ! -e "$W/t-unlisted.ko" ]

printf 'hidden_fn\nhidden_var\ndup_fn\n' >"$W/list-nopos"
convert "$IN" "$W/x.ko" "$W/list-nopos"
refused "duplicate name without sympos is refused" "dup_fn (list line 3): 2 vmlinux symbols"

printf 'hidden_fn\nhidden_var\ndup_fn 3\n' >"$W/list-pos3"
convert "$IN" "$W/x.ko" "$W/list-pos3"
refused "sympos out of range is refused (module symbols not counted)" "dup_fn (list line 3): sympos 3 out of range"

printf 'hidden_fn 1 address\nhidden_var\ndup_fn 1\n' >"$W/list-pos1"
convert "$IN" "$W/pos1.ko" "$W/list-pos1"
expect "sympos 1 of a duplicate (and of a unique name) is accepted" "rc=$rc $(head -c 200 "$W/err")" \
	bash -c "[ $rc -eq 0 ] && '$DUMP' '$W/pos1.ko' | grep -qP '^sym\t\d+\t\.klp\.sym\.vmlinux\.dup_fn,1\t' &&
		 '$DUMP' '$W/pos1.ko' | grep -qP '^sym\t\d+\t\.klp\.sym\.vmlinux\.hidden_fn,1\t'"

printf 'hidden_fn\nhidden_var\ndup_fn 2\nmod_only_fn\n' >"$W/list-missing"
convert "$IN" "$W/x.ko" "$W/list-missing"
refused "listed symbol missing from kallsyms (only in a module) is refused" "mod_only_fn (list line 4): not found in kallsyms"

printf 'hidden_fn\nhidden_var\ndup_fn 2\nclone_fn\n' >"$W/list-clone"
convert "$IN" "$W/x.ko" "$W/list-clone"
refused "listed name present only as a compiler clone is refused (clone named)" \
	"clone_fn (list line 4): not found in kallsyms, only the compiler clone clone_fn.isra.0"

printf 'hidden_fn\nfixed_percpu_data\n' >"$W/list-zero"
kc --list "$W/list-zero" --kallsyms "$KALLSYMS" --write-symvers "$W/x.symvers"
refused "listed symbol at address 0 is refused (the kernel cannot resolve it)" \
	"fixed_percpu_data (list line 2): address 0 in kallsyms"

# A copy read without privileges shows every address as 0: order still
# counts, but nothing tells a function from data, so a listed symbol used
# other than by a direct call must be marked "address".
sed 's/^[0-9a-f]*/0000000000000000/' "$KALLSYMS" >"$W/kallsyms-noaddr"
kc --list "$LIST" --kallsyms "$W/kallsyms-noaddr" --symvers "$SYMVERS" "$IN" "$W/noaddr.ko"
refused "kallsyms with hidden (zero) addresses: a data reference cannot be judged, refused (named, why)" \
	"R_X86_64_PC32 at .text+0x[0-9a-f]*: cannot tell whether hidden_var is a function .*no addresses; read /proc/kallsyms as root"
expect "... only hidden_var (hidden_fn is marked 'address', dup_fn only called)" "$(tr '\n' '|' <"$W/err")" \
	bash -c "! grep -q 'hidden_fn\|dup_fn' '$W/err'"
sed 's/^hidden_var.*$/hidden_var address/' "$LIST" >"$W/list-varaddr"
kc --list "$W/list-varaddr" --kallsyms "$W/kallsyms-noaddr" --symvers "$SYMVERS" "$IN" "$W/noaddr.ko"
expect "kallsyms with hidden (zero) addresses, every non-call use marked: accepted, sympos still counted" \
	"rc=$rc $(head -c 200 "$W/err")" \
	bash -c "[ $rc -eq 0 ] && '$DUMP' '$W/noaddr.ko' | grep -qP '^sym\t\d+\t\.klp\.sym\.vmlinux\.dup_fn,2\t'"

# Function or data comes from where the symbol lies (vmlinux text:
# [_stext, _etext), [_sinittext, _einittext)), never from the kallsyms
# letter: Linux 7.3 links kexec code into .data, and nm then types every
# .data symbol t/T.  Planted: the letters lie both ways.
kinds() { kc --list "$1" --kallsyms "$2" --print-kinds; tr '\n' ' ' <"$W/out"; }
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "expected '$2', got '$3'"; fi; }
check_eq "kinds: from the address, the fixture's" \
	"hidden_fn function hidden_var data dup_fn function unused_fn function " "$(kinds "$LIST" "$KALLSYMS")"
sed 's/ D hidden_var$/ T hidden_var/' "$KALLSYMS" >"$W/kallsyms-7.3"
check_eq "kinds: a .data symbol typed T (Linux 7.3) is data" \
	"hidden_fn function hidden_var data dup_fn function unused_fn function " "$(kinds "$LIST" "$W/kallsyms-7.3")"
kc --list "$LIST" --kallsyms "$W/kallsyms-7.3" --symvers "$SYMVERS" "$IN" "$W/t73.ko"
expect "a .data symbol typed T (Linux 7.3): its PC32, 32S and 64 references convert, no error" \
	"rc=$rc $(head -c 300 "$W/err")" bash -c "[ $rc -eq 0 ] && [ ! -s '$W/err' ]"
"$DUMP" "$W/t73.ko" >"$W/t73.dump"
expect "... and they are the data references of the letter-D run" "$(diff <(grep klp "$W/out.dump") <(grep klp "$W/t73.dump") | head -3)" \
	cmp -s <(grep klp "$W/out.dump") <(grep klp "$W/t73.dump")
sed 's/ T hidden_fn$/ D hidden_fn/' "$KALLSYMS" >"$W/kallsyms-fnD"
sed 's/^hidden_fn address.*$/hidden_fn/' "$LIST" >"$W/list-fnnoaddr"
check_eq "kinds: a text symbol typed D is a function" \
	"hidden_fn function hidden_var data dup_fn function unused_fn function " "$(kinds "$LIST" "$W/kallsyms-fnD")"
kc --list "$W/list-fnnoaddr" --kallsyms "$W/kallsyms-fnD" --symvers "$SYMVERS" "$IN" "$W/x.ko"
refused "a text symbol typed D: taking its address is still refused (IBT)" \
	'R_X86_64_64 at .data+0x0 takes the address of function hidden_fn'
sed 's/^ffffffff81001000 T hidden_fn$/ffffffff83000800 t hidden_fn/' "$KALLSYMS" | sort >"$W/kallsyms-init"
kc --list "$W/list-fnnoaddr" --kallsyms "$W/kallsyms-init" --symvers "$SYMVERS" "$IN" "$W/x.ko"
refused "a function in init text ([_sinittext, _einittext)): taking its address is refused" \
	'R_X86_64_64 at .data+0x0 takes the address of function hidden_fn'
grep -v ' _etext$' "$KALLSYMS" >"$W/kallsyms-noetext"
kc --list "$LIST" --kallsyms "$W/kallsyms-noetext" --symvers "$SYMVERS" "$IN" "$W/x.ko"
refused "kallsyms with addresses but no _etext: refused (cannot tell functions from data)" \
	"no vmlinux text bounds (_stext, _etext): cannot tell functions from data"
check_eq "kinds: without addresses, unknown" \
	"hidden_fn unknown hidden_var unknown dup_fn unknown unused_fn unknown " "$(kinds "$LIST" "$W/kallsyms-noaddr")"

printf 'hidden_fn\nhidden_var\ndup_fn 2\nexp_fn\n' >"$W/list-exported"
convert "$IN" "$W/x.ko" "$W/list-exported"
refused "exported symbol on the list is refused" "exp_fn (list line 4): exported"

printf 'hidden_fn\nhidden_var\ndup_fn\nexp_fn\nnowhere\n' >"$W/list-many"
convert "$IN" "$W/x.ko" "$W/list-many"
expect "all problems are printed before failing" "$(tr '\n' '|' <"$W/err")" \
	bash -c "[ $rc -eq 1 ] && grep -q dup_fn '$W/err' && grep -q exp_fn '$W/err' && grep -q nowhere '$W/err' &&
		 grep -q '3 errors' '$W/err'"

printf 'hidden_fn\nhidden_fn\nhidden_var x\n' >"$W/list-bad"
convert "$IN" "$W/x.ko" "$W/list-bad"
refused "malformed list (duplicate entry, bad sympos) is refused" "hidden_fn is already listed on line 1"

printf 'hidden_fn 0 address extra\nhidden_var address 1\ndup_fn 2 replaced address\n' >"$W/list-bad2"
convert "$IN" "$W/x.ko" "$W/list-bad2"
refused "list: a token after 'address', sympos after it, or 'replaced address' is refused" \
	"expected 'name \[sympos\] \[address\] \[replaced\]'"
expect "list: ... each bad line named (3 errors)" "$(tr '\n' '|' <"$W/err")" grep -q '3 errors' "$W/err"

# Without "address", taking a listed function's address is an error (IBT).
sed 's/^hidden_fn address.*$/hidden_fn/' "$LIST" >"$W/list-noaddr"
convert "$IN" "$W/noaddr-mark.ko" "$W/list-noaddr"
refused "list: a listed function's address taken without 'address' is refused (IBT)" \
	'R_X86_64_64 at .data+0x0 takes the address of function hidden_fn'
expect "list: ... and no output is written" "output exists" [ ! -e "$W/noaddr-mark.ko" ]

# "replaced": a compiler clone beside the name is an error, and only then.
printf 'hidden_fn address replaced\nhidden_var\ndup_fn 2\nclone_fn replaced\n' >"$W/list-repl"
printf 'ffffffff81007000 t clone_fn\n' | cat "$KALLSYMS" - >"$W/kallsyms-clone"
kc --list "$W/list-repl" --kallsyms "$W/kallsyms-clone" --symvers "$SYMVERS" "$IN" "$W/x.ko"
refused "list: a 'replaced' function with a compiler clone beside it is refused (clone named)" \
	"clone_fn (list line 4): replaced by the livepatch, but kallsyms also has its compiler clone clone_fn.isra.0"
expect "list: ... and only that one (hidden_fn has no clone)" "$(tr '\n' '|' <"$W/err")" \
	bash -c "grep -q '1 error' '$W/err' && ! grep -q 'hidden_fn' '$W/err'"
for c in constprop.0 part.1 isra.2; do
	printf 'ffffffff81001800 t hidden_fn.%s\n' "$c" | cat "$KALLSYMS" - >"$W/kallsyms-c"
	kc --list "$W/list-repl" --kallsyms "$W/kallsyms-c" --symvers "$SYMVERS" --write-symvers "$W/x.symvers"
	refused "list: a 'replaced' function with a .$c clone is refused" \
		"hidden_fn (list line 1): replaced by the livepatch, but kallsyms also has its compiler clone hidden_fn.$c"
done
# a .cold part is the function's own cold blocks, not a clone (the binary
# check of verify-kernel proves only the function jumps to it)
printf 'hidden_fn address replaced\nhidden_var\ndup_fn 2\n' >"$W/list-cold"
printf 'ffffffff81001800 t hidden_fn.cold\n' | cat "$KALLSYMS" - >"$W/kallsyms-c"
kc --list "$W/list-cold" --kallsyms "$W/kallsyms-c" --symvers "$SYMVERS" --write-symvers "$W/x.symvers"
expect "list: a 'replaced' function with a .cold part is fine" \
	"exit $rc: $(head -c 300 "$W/err" | tr '\n' '|')" [ "$rc" -eq 0 ]
printf 'hidden_fn address\nhidden_var\ndup_fn 2\nclone_fn\n' >"$W/list-norepl"
kc --list "$W/list-norepl" --kallsyms "$W/kallsyms-clone" --symvers "$SYMVERS" "$IN" "$W/norepl.ko"
expect "list: a clone beside a listed function that is only called is fine" \
	"exit $rc: $(head -c 300 "$W/err" | tr '\n' '|')" [ "$rc" -eq 0 ]

# foliotune's own list marks exactly the functions its livepatch replaces
# (livepatch.c's FT_REPLACED() lines, its klp_func old_names).
repl_list=$(awk '$1 !~ /^#/ && / replaced( |$)/ { print $1 }' "$TOP/module/klp-symbols.list" | sort | tr '\n' ' ')
repl_klp=$(sed -n 's/^[[:space:]]*FT_REPLACED(\([a-z_0-9]*\)),$/\1/p' "$TOP/module/livepatch.c" | sort | tr '\n' ' ')
expect "module list: 'replaced' marks exactly livepatch.c's old_name functions ($repl_klp)" \
	"list: '$repl_list', livepatch.c: '$repl_klp'" [ -n "$repl_klp" -a "$repl_list" = "$repl_klp" ]

printf 'hidden_var\n' >"$W/list-var"
convert "$W/t-jump.o" "$W/x.ko" "$W/list-var"
refused "listed symbol referenced from __jump_table is refused" "hidden_var is referenced from __jump_table+0x8"

convert "$W/t-gotpcrel.o" "$W/x.ko" "$W/list-var"
refused "unsupported relocation type is refused" "unsupported relocation R_X86_64_REX_GOTPCRELX"

cp "$IN" "$W/signed.o"
printf 'SIG~Module signature appended~\n' >>"$W/signed.o"
convert "$W/signed.o" "$W/x.ko"
refused "signed module is refused" "module is signed"

cp "$IN" "$W/same.o"
convert "$W/same.o" "$W/same.o"
refused "IN and OUT being the same file is refused" "same file"

kc --list "$LIST" --kallsyms "$KALLSYMS" "$IN" "$W/x.ko"
expect "missing --symvers is a usage error (status 2)" "rc=$rc" [ "$rc" -eq 2 ]

# --- valgrind ---------------------------------------------------------------

if command -v valgrind >/dev/null; then
	VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all"
	# shellcheck disable=SC2086
	$VG "$KC" -v --list "$LIST" --kallsyms "$KALLSYMS" --symvers "$SYMVERS" "$IN" "$W/vg.ko" \
		>/dev/null 2>"$W/vg.err"
	vrc=$?
	expect "valgrind: conversion has no errors or leaks" "rc=$vrc $(grep -v warning "$W/vg.err" | head -5 | tr '\n' '|')" \
		[ "$vrc" -eq 0 ]
	# shellcheck disable=SC2086
	$VG "$KC" --list "$W/list-many" --kallsyms "$KALLSYMS" --symvers "$SYMVERS" "$IN" "$W/vg2.ko" \
		>/dev/null 2>"$W/vg.err"
	vrc=$?
	expect "valgrind: failing run has no errors or leaks" "rc=$vrc $(grep -v error: "$W/vg.err" | head -5 | tr '\n' '|')" \
		[ "$vrc" -eq 1 ]
	# shellcheck disable=SC2086
	$VG "$KC" --list "$W/list-var" --kallsyms "$KALLSYMS" --symvers "$SYMVERS" "$W/t-jump.o" "$W/vg3.ko" \
		>/dev/null 2>"$W/vg.err"
	vrc=$?
	expect "valgrind: refused module has no errors or leaks" "rc=$vrc $(grep -v error: "$W/vg.err" | head -5 | tr '\n' '|')" \
		[ "$vrc" -eq 1 ]
else
	ok "valgrind # SKIP valgrind not installed"
fi

# --- a real kbuild module ---------------------------------------------------

if [ -f "$KDIR/Makefile" ] && [ -f "$KDIR/Module.symvers" ]; then
	M=$W/kbuild
	mkdir -p "$M"
	cat >"$M/kc_demo.c" <<'EOF'
#include <linux/module.h>
#include <linux/kernel.h>
extern unsigned long kallsyms_lookup_name(const char *name);
extern int sysctl_max_map_count;
static int __init kc_demo_init(void)
{
	pr_info("kc_demo %lx %d\n", kallsyms_lookup_name("kc_demo"), sysctl_max_map_count);
	return 0;
}
static void __exit kc_demo_exit(void)
{
}
module_init(kc_demo_init);
module_exit(kc_demo_exit);
MODULE_LICENSE("GPL");
EOF
	echo 'obj-m := kc_demo.o' >"$M/Kbuild"
	printf 'kallsyms_lookup_name\nsysctl_max_map_count\n' >"$M/list"
	printf 'ffffffff81000000 T _stext\nffffffff81100000 T kallsyms_lookup_name\nffffffff81800000 T _etext\nffffffff82000000 D sysctl_max_map_count\n' \
		>"$M/kallsyms"
	kc --list "$M/list" --kallsyms "$M/kallsyms" --symvers "$KDIR/Module.symvers" \
		--write-symvers "$M/klp.symvers"
	if "${KBUILD_RUN[@]}" make -C "$KDIR" M="$M" KBUILD_EXTRA_SYMBOLS="$M/klp.symvers" modules >"$M/build.log" 2>&1; then
		ok "kbuild: modpost accepts the listed symbols via the private symvers"
		kc -v --list "$M/list" --kallsyms "$M/kallsyms" --symvers "$KDIR/Module.symvers" \
			"$M/kc_demo.ko" "$M/kc_demo-klp.ko"
		expect "kbuild: real module converts" "rc=$rc $(head -c 300 "$W/err")" [ "$rc" -eq 0 ]
		"$DUMP" "$M/kc_demo-klp.ko" >"$M/dump"
		expect "kbuild: call and data load in .klp.rela.vmlinux..init.text" "$(grep klp "$M/dump" | tr '\n' '|')" \
			bash -c "grep -qP '^rela\t\.klp\.rela\.vmlinux\.\.init\.text\t\.init\.text\t[0-9a-f]+\t4\t\.klp\.sym\.vmlinux\.kallsyms_lookup_name,0\t-4$' '$M/dump' &&
				 grep -qP '^rela\t\.klp\.rela\.vmlinux\.\.init\.text\t\.init\.text\t[0-9a-f]+\t2\t\.klp\.sym\.vmlinux\.sysctl_max_map_count,0\t-4$' '$M/dump'"
		if readelf -SW "$M/kc_demo.ko" | grep -q ' __versions '; then
			expect "kbuild: __versions keeps module_layout and drops the CRC-0 entries" \
				"$(grep '^ver' "$M/dump" | cut -f2,3 | tr '\n' '|')" \
				bash -c "grep -qP '^ver\t[0-9a-f]+\tmodule_layout\t' '$M/dump' &&
					 ! grep -qP '^ver\t0\t' '$M/dump'"
		else
			# (no MODVERSIONS, as Debian's Linux 7)
			expect "kbuild: no __versions in, none out" "$(grep '^ver' "$M/dump" | head -2)" \
				bash -c "! grep -q '^ver' '$M/dump'"
		fi
		expect "kbuild: modinfo still reads the module" "modinfo failed" \
			bash -c "modinfo -F vermagic '$M/kc_demo-klp.ko' | grep -q '$KVER'"
		# The loader parses a module's BTF against vmlinux's, and without
		# MODULE_ALLOW_BTF_MISMATCH (Debian's Linux 7.3) a bad one fails
		# the load: the conversion must leave it byte for byte.
		for b in .BTF .BTF.base; do
			if ! readelf -SW "$M/kc_demo.ko" | grep -q " $b "; then
				ok "kbuild: $b unchanged # SKIP this build's modules have no $b"
				continue
			fi
			objcopy --dump-section "$b=$M/in$b" "$M/kc_demo.ko" "$M/in.o" 2>/dev/null
			objcopy --dump-section "$b=$M/out$b" "$M/kc_demo-klp.ko" "$M/out.o" 2>/dev/null
			expect "kbuild: $b byte for byte unchanged by the conversion" "differs or missing" \
				bash -c "[ -s '$M/in$b' ] && cmp -s '$M/in$b' '$M/out$b'"
		done
	else
		nok "kbuild: modpost accepts the listed symbols via the private symvers" \
			"$(grep -E 'ERROR|error' "$M/build.log" | head -3 | tr '\n' '|')"
	fi
else
	ok "kbuild module # SKIP no kernel headers in $KDIR"
fi

# --- optional: load a converted livepatch in the test box -------------------
#
# VM=1 boots the target kernel (harness/vm/vmrun.sh) and loads a livepatch
# that, through livepatch relocations resolved from the target's real
# kallsyms copy (build/kallsyms-$KVER.txt), calls kallsyms_lookup_name(),
# reads sysctl_max_map_count and fault_around_pages (static; on Linux 7.3
# kallsyms types it t, as every .data symbol), takes the address of
# init_mm (T there) and of the last of the duplicated vmlinux init_once
# symbols, and replaces cmdline_proc_show() with a function that prints
# two of them.  The guest's /proc/kallsyms and sysctls must agree; the
# patch is enabled, disabled and unloaded, console clean (vmrun's gate).
# Debian's Linux 7.3 has no MODVERSIONS and refuses a module whose BTF
# does not parse (no MODULE_ALLOW_BTF_MISMATCH): the load proves the
# converted .BTF intact there too.  The guest runs under TCG without CET:
# this proves loading and resolution, not IBT.

REAL_KALLSYMS=$TOP/build/kallsyms-$KVER.txt
if [ "${VM:-0}" != 1 ]; then
	ok "load in the test box # SKIP set VM=1"
elif [ ! -f "$REAL_KALLSYMS" ] || [ ! -f "$KDIR/Makefile" ]; then
	ok "load in the test box # SKIP no $REAL_KALLSYMS or headers"
else
	# Under /var/tmp: the guest sees the host root (read-only), not /tmp.
	V=$(mktemp -d /var/tmp/test-klp-convert-vm.XXXXXX)
	[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$W" "$V"' EXIT
	npos=$(awk '$3 == "init_once" && NF == 3' "$REAL_KALLSYMS" | wc -l)
	printf 'kallsyms_lookup_name\nsysctl_max_map_count\ninit_once %s address\nfault_around_pages\ninit_mm\n' \
		"$npos" >"$V/list"
	cat >"$V/kc_vm.c" <<'MOD'
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/seq_file.h>
#include <linux/mm_types.h>
extern unsigned long kallsyms_lookup_name(const char *name);
extern int sysctl_max_map_count;
extern char init_once[];
extern unsigned long fault_around_pages;	/* static in mm/memory.c */
static int kc_vm_cmdline_show(struct seq_file *m, void *v)
{
	seq_printf(m, "kc_vm %lu %lx\n", READ_ONCE(fault_around_pages),
		   (unsigned long)&init_mm);
	return 0;
}
static struct klp_func kc_vm_funcs[] = {
	{ .old_name = "cmdline_proc_show", .new_func = kc_vm_cmdline_show },
	{ }
};
static struct klp_object kc_vm_objs[] = {
	{ .funcs = kc_vm_funcs },
	{ }
};
static struct klp_patch kc_vm_patch = {
	.mod = THIS_MODULE,
	.objs = kc_vm_objs,
};
static int __init kc_vm_init(void)
{
	pr_info("kc_vm: %lx %d %lx\n", kallsyms_lookup_name("vfs_read"),
		sysctl_max_map_count, (unsigned long)init_once);
	return klp_enable_patch(&kc_vm_patch);
}
static void __exit kc_vm_exit(void)
{
}
module_init(kc_vm_init);
module_exit(kc_vm_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
MOD
	echo 'obj-m := kc_vm.o' >"$V/Kbuild"
	cat >"$V/guest.sh" <<'GUEST'
lp=/sys/kernel/livepatch/kc_vm
wait_for() { local i; for i in $(seq 600); do eval "$1" && return 0; sleep 0.1; done; return 1; }
insmod "$1/kc_vm-klp.ko" || exit 1
# vmrun hides lines that look like kernel messages: strip the timestamp.
dmesg | sed -n 's/.*kc_vm: \([0-9a-f]* [0-9]* [0-9a-f]*\)$/got \1/p'
echo want "$(awk '$3 == "vfs_read" && NF == 3 { print $1 }' /proc/kallsyms)" \
	"$(cat /proc/sys/vm/max_map_count)" \
	"$(awk '$3 == "init_once" && NF == 3 { a = $1 } END { print a }' /proc/kallsyms)"
wait_for '[ "$(cat $lp/transition)" = 0 ]' || echo "transition did not finish"
echo "patched $(cat /proc/cmdline)"
echo "patchwant kc_vm $(( $(cat /sys/kernel/debug/fault_around_bytes) / 4096 ))" \
	"$(awk '$3 == "init_mm" && NF == 3 { print $1 }' /proc/kallsyms | sed 's/^0*//')"
echo 0 > $lp/enabled
wait_for '[ ! -d $lp ]' || echo "patch still there"
rmmod kc_vm && wait_for '[ ! -d /sys/module/kc_vm ]' && echo unloaded
echo "after $(cut -c1-5 /proc/cmdline)"
GUEST
	kc --list "$V/list" --kallsyms "$REAL_KALLSYMS" --symvers "$KDIR/Module.symvers" \
		--write-symvers "$V/klp.symvers" &&
		"${KBUILD_RUN[@]}" make -C "$KDIR" M="$V" KBUILD_EXTRA_SYMBOLS="$V/klp.symvers" modules >"$V/build.log" 2>&1 &&
		kc -v --list "$V/list" --kallsyms "$REAL_KALLSYMS" --symvers "$KDIR/Module.symvers" \
			"$V/kc_vm.ko" "$V/kc_vm-klp.ko"
	expect "load in the test box: the livepatch builds and converts" \
		"rc=$rc $(head -c 300 "$W/err") $(tail -3 "$V/build.log" | tr '\n' '|')" [ -s "$V/kc_vm-klp.ko" ]
	"$TOP/harness/vm/vmrun.sh" -k "$KVER" -s "$V/guest.sh" "$V" >"$V/vm.out" 2>&1
	vrc=$?
	got=$(sed -n 's/^got //p' "$V/vm.out")
	want=$(sed -n 's/^want //p' "$V/vm.out")
	expect "load in the test box: direct call, data read and sympos resolve as in /proc/kallsyms" \
		"got '$got' want '$want': $(tail -3 "$V/vm.out" | tr '\n' '|')" \
		[ "${got:-none}" = "${want:-missing}" ]
	got=$(sed -n 's/^patched //p' "$V/vm.out")
	want=$(sed -n 's/^patchwant //p' "$V/vm.out")
	expect "load in the test box: the patched function reads fault_around_pages and &init_mm as the kernel has them" \
		"got '$got' want '$want'" [ "${got:-none}" = "${want:-missing}" ]
	expect "load in the test box: disabled and unloaded, the original function back, console clean" \
		"exit $vrc: $(tail -3 "$V/vm.out" | tr '\n' '|')" \
		bash -c "[ $vrc = 0 ] && grep -qx unloaded '$V/vm.out' && ! grep -q '^after kc_vm' '$V/vm.out'"
fi

echo "1..$((pass + fail))"
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
