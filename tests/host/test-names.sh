#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's name rule, from its objects' symbol tables: what another
# file uses (a global symbol, in the kernel's namespace) is foliotune_*,
# what stays in one file is not (ft_* by convention; the module's own
# init and exit keep the usual foliotune_init/foliotune_exit).  Self-test:
# an object with one rule-breaking symbol of each kind is caught.
. "$(dirname "$0")/lib-host.sh"

# names_wrong OBJ...: every symbol that breaks the rule, as "OBJ: kind name".
names_wrong() {
	local o
	for o in "$@"; do
		nm "$o" | awk -v o="${o##*/}" '
			$3 ~ /\./ { next }	# compiler clones: f.cold, f.isra.0
			NF == 3 && $2 ~ /^[TDBR]$/ && $3 !~ /^(foliotune_|__|init_module$|cleanup_module$)/ {
				print o ": global " $3 }
			NF == 3 && $2 ~ /^[tdbr]$/ && $3 ~ /^foliotune_/ && $3 !~ /^foliotune_(init|exit)$/ {
				print o ": file-local " $3 }'
	done | sort
}

# One object per source file (not kbuild's foliotune.mod.c, nor the link).
objs=() missing=
for c in "$repo"/module/*.c; do
	case $c in *.mod.c) continue ;; esac
	if [ -f "${c%.c}.o" ]; then objs+=("${c%.c}.o"); else missing+=" ${c##*/}"; fi
done
check_eq "names: every module/*.c has its object (make ran)" "" "$missing"
wrong=$(names_wrong "${objs[@]}")
check_eq "names: module globals are foliotune_*, file-local names are not" "" "$wrong"

# Self-test: one global without the prefix, one static with it.
printf 'int ft_leaked(void) { return 1; }\nstatic int foliotune_hidden(void) { return 2; }\nint foliotune_ok(void) { return foliotune_hidden(); }\n' > "$w/bad.c"
if cc -O0 -c -o "$w/bad.o" "$w/bad.c" 2> /dev/null; then
	wrong=$(names_wrong "$w/bad.o" | tr '\n' '|')
	check_eq "names: self-test: a global ft_* and a static foliotune_* are both caught" \
		"bad.o: file-local foliotune_hidden|bad.o: global ft_leaked|" "$wrong"
else
	not_ok "names: self-test" "cc cannot compile a two-line file"
fi
