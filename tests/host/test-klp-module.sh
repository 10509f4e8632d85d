#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-klp-module.sh - the built foliotune.ko reaches non-exported vmlinux
# symbols only through livepatch relocations, and calls them only directly:
#  - no listed symbol is left undefined (all became .klp.sym.vmlinux.*),
#  - every .klp.rela relocation against a function is the rel32 of a direct
#    call or jmp (IBT: sealed functions must never be called indirectly),
#    except the addresses livepatch.c takes for its size check, which are
#    printed, never called,
#  - no indirect call or jump loads its target through a klp relocation.
# GNU objdump does not print .klp.rela relocations, so they are read with
# the klp-convert tests' elfdump and matched to objdump's instructions.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
KVER=${KVER:-$(cat "$top/scripts/kernels/default-kver")}
ko=$top/module/foliotune.ko
kallsyms=$top/build/kallsyms-$KVER.txt
address_only="try_to_unmap_one set_pte_range folio_referenced_one"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

if [ ! -r "$ko" ] || [ ! -r "$kallsyms" ]; then
	echo "not ok - klp module: $ko or $kallsyms missing (make module)"
	exit 1
fi
gcc -O2 -o "$w/elfdump" "$top/tests/host/klp-convert/elfdump.c" -lelf || exit 1
"$w/elfdump" "$ko" > "$w/dump"
# Function or data: klp-convert's own decision (where the symbol lies in
# vmlinux; from Linux 7.3 the kallsyms letter of every .data symbol is t/T).
make -s -C "$top/scripts" all || exit 1
# (the list's lines for KVER: scripts/kernels/klp_list.py)
python3 "$top/scripts/kernels/klp_list.py" "$KVER" "$top/module/klp-symbols.list" > "$w/list" || exit 1
"$top/scripts/klp-convert" --list "$w/list" --kallsyms "$kallsyms" \
	--print-kinds > "$w/kinds" || exit 1

undef=$(awk -F'\t' '$1 == "sym" && $4 == "0" && $3 != "" { print $3 }' "$w/dump" | sort)
listed=$(awk 'NF { print $1 }' "$w/list" | sort)
left=$(comm -12 <(echo "$undef") <(echo "$listed"))
if [ -z "$left" ]; then
	echo "ok - klp module: no listed symbol is left undefined"
else
	echo "not ok - klp module: listed symbols still undefined # $left"
fi

# rela <klp section> <target> <offset> <type> <symbol> <addend>
awk -F'\t' '$1 == "rela" && $2 ~ /^\.klp\.rela\.vmlinux\./' "$w/dump" > "$w/klp"
nklp=$(wc -l < "$w/klp")
if [ "$nklp" -gt 0 ]; then
	echo "ok - klp module: $nklp livepatch relocations"
else
	echo "not ok - klp module: no livepatch relocations at all"
fi

# section <TAB> decimal address <TAB> instruction (mawk has no strtonum)
objdump -d --no-show-raw-insn "$ko" |
	awk '/^Disassembly of section/ { sec = $4; sub(":", "", sec) }
	     /^ *[0-9a-f]+:\t/ { a = $1; sub(":", "", a); $1 = ""; print sec "\t" a "\t" $0 }' |
	while IFS=$'\t' read -r sec a insn; do
		printf '%s\t%d\t%s\n' "$sec" "$((16#$a))" "$insn"
	done > "$w/insns"
bad=0
while IFS=$'\t' read -r _ klpsec target off type sym addend; do
	name=${sym#.klp.sym.vmlinux.}; name=${name%,*}
	kind=$(awk -v n="$name" '$1 == n { print $2 }' "$w/kinds")
	# The instruction containing the relocated bytes.
	insn=$(awk -F'\t' -v s="$target" -v o=$((16#$off)) '
		$1 == s { if ($2 + 0 <= o) last = $3; else { print last; exit } }' \
		"$w/insns")
	case "$kind" in
	function)
		case "$insn" in
		*" call "*|*" jmp "*)
			case "$insn" in *"*"*) bad=1; echo "# indirect: $name at $target+$off: $insn" ;; esac ;;
		*)
			case " $address_only " in
			*" $name "*) ;;
			*) bad=1; echo "# $name at $target+$off is not a direct call: $insn" ;;
			esac ;;
		esac ;;
	*)
		case "$insn" in *"call "*"*"*|*"jmp "*"*"*) bad=1; echo "# indirect through $name: $insn" ;; esac ;;
	esac
done < "$w/klp"
if [ "$bad" = 0 ]; then
	echo "ok - klp module: every klp-relocated function is called directly"
else
	echo "not ok - klp module: indirect use of klp-relocated symbols"
fi
[ "$bad" = 0 ] && [ -z "$left" ] && [ "$nklp" -gt 0 ]
