#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# newer.sh - the registry's Debian builds (6.12 and Linux 7) newer than the
# newest verified one (make kernels-newer), in one line: per generation
# (6.12, Linux 7), suite (deb12, deb13, deb14) and flavour (amd64,
# cloud-amd64), every build whose package version is above that of the
# newest module/verified/ header of the same generation, suite and flavour
# (its FT_VERIFIED_SOURCE): a verified 6.12 build says nothing about a
# Linux 7 one, nor the other way round.  PREEMPT_RT builds are left out: they
# are refused, never verified.  The registry is asked through list.sh (the
# private apt configuration of apt.sh; the host's apt is never touched).
# Exit 0 with the line, or 1 with one line on standard error when the
# registry cannot be asked.  Test only: FT_NEWER_LIST=FILE stands for
# list.sh's answer, FT_NEWER_VERIFIED=DIR for module/verified/
# (tests/host/test-kernels-newer.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
verified_dir=${FT_NEWER_VERIFIED:-$repo/module/verified}

err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
if [ -n "${FT_NEWER_LIST:-}" ]; then
	builds=$(cat "$FT_NEWER_LIST" 2>"$err")
else
	builds=$("$here/list.sh" 2>"$err")
fi || {
	echo "kernels-newer: the registry could not be asked: $(grep . "$err" | tail -1)" >&2
	exit 1
}

# "generation-suite-flavour": 6.12.115+deb13.1-cloud-amd64 ->
# 6-deb13-cloud-amd64, 7.3.4+deb13-amd64 -> 7-deb13-amd64
key() { echo "${1%%.*}-$(echo "${1#*+}" | sed 's/^\(deb[0-9]*\)[.0-9]*-/\1-/')"; }
newer() { dpkg --compare-versions "$1" gt "$2"; }

declare -A newest newest_rel
for h in "$verified_dir"/*.h; do
	rel=$(basename "$h" .h)
	case $rel in *+deb1*) ;; *) continue ;; esac	# not the debug lane's
	v=$(sed -n 's/^#define FT_VERIFIED_SOURCE[^"]*"[^ ]* \(.*\)"$/\1/p' "$h")
	[ -n "$v" ] || continue
	k=$(key "$rel")
	if [ -z "${newest[$k]:-}" ] || newer "$v" "${newest[$k]}"; then
		newest[$k]=$v newest_rel[$k]=$rel
	fi
done

found=()
while read -r rel v; do
	case $rel in *-rt-*) continue ;; esac
	[ -e "$verified_dir/$rel.h" ] && continue
	k=$(key "$rel")
	if [ -z "${newest[$k]:-}" ] || newer "$v" "${newest[$k]}"; then
		found+=("$rel ($v)")
	fi
done <<< "$builds"

if [ ${#found[@]} -eq 0 ]; then
	echo "kernels-newer: none; the registry has no Debian build newer than the newest verified ones ($(printf '%s\n' "${newest_rel[@]}" | sort -V | tr '\n' ' ' | sed 's/ $//; s/ /, /g'))"
else
	echo "kernels-newer: ${#found[@]} Debian build(s) newer than the newest verified ones, to verify (make verify-kernel KVER=...): $(printf '%s\n' "${found[@]}" | sed ':a;N;$!ba;s/\n/, /g')"
fi
