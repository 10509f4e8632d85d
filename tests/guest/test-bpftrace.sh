#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bpftrace tools in tools/bpftrace/ start, attach to the module's own
# symbols, print their sections for a small workload, and exit.
. "$(dirname "$0")/../lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

ft_unload
ft_load || { not_ok "bpftrace: load foliotune" "insmod failed"; exit 0; }
dir=$FT_XFS; mountpoint -q "$dir" || dir=$w
timeout 180 bpftrace "$FT_REPO/tools/bpftrace/unmap-latency.bt" test \
	-c "$FT_REPO/tests/progs/ft_pageout_bench -d $dir -t 2 -n 1" > "$w/out" 2>&1
rc=$?
check_eq "bpftrace: unmap-latency.bt exits 0" 0 "$rc"
for section in '@ns\[test, [0-9]+\]' '@calls\[test, [0-9]+\]: [1-9]' '@avg_ns\[test, [0-9]+\]: [1-9]'; do
	if grep -qE "^$section" "$w/out"; then
		ok "bpftrace: unmap-latency.bt prints $section"
	else
		not_ok "bpftrace: unmap-latency.bt prints $section" "$(tail -3 "$w/out" | tr '\n' '|')"
	fi
done
ft_unload
