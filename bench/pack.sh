#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pack.sh RESULTS_DIR - before committing a benchmark session: replace every
# raw/ directory in RESULTS_DIR and one level below by raw.tar.xz (sorted,
# owner and time stripped, so the same files make the same archive).
# the report programs (bench/report/) read the archive as they read
# raw/; `tar -xJf raw.tar.xz` gives the files back.
set -uo pipefail

dir=${1:?usage: pack.sh RESULTS_DIR}
n=0
for r in "$dir/raw" "$dir"/*/raw; do
	[ -d "$r" ] || continue
	d=$(dirname "$r")
	tar -C "$d" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		-cJf "$d/raw.tar.xz.tmp" raw || { rm -f "$d/raw.tar.xz.tmp"; exit 2; }
	# the archive lists every file before raw/ goes
	want=$(cd "$d" && find raw | sort)
	got=$(tar -tJf "$d/raw.tar.xz.tmp" | sed 's|/$||' | sort)
	[ "$want" = "$got" ] || { echo "pack.sh: $d/raw.tar.xz.tmp does not list raw/" >&2; exit 2; }
	mv "$d/raw.tar.xz.tmp" "$d/raw.tar.xz" && rm -r "$r" || exit 2
	echo "pack.sh: $d/raw.tar.xz ($(du -k "$d/raw.tar.xz" | cut -f1) KiB)"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "pack.sh: no raw/ directory under $dir" >&2; exit 1; }
