#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reclaim-arms.sh - sourced by bench/reclaim.sh (host) and
# bench/reclaim-guest.sh (box): the configurations of the reclaim benchmark.

# The reclaim benchmark's configurations, NAME:UNMAP_BATCH:REFERENCED_BATCH.
# Each knob picks an arm of its walk: 0 the kernel's own code, 1 foliotune's
# batching, 2 one PTE at a time (docs/batching.md, "The arms"); stock is
# the kernel's own code in both, the anchor every configuration is paired
# with.  On 6.12 the kernel's own code is one PTE at a time (arm 2 runs the
# same code as 0), so the three with a 2 only differ from stock on Linux 7.
BENCH_RECLAIM_ARMS="stock:0:0 unmap:1:0 refs:0:1 both:1:1 pte:2:2 unmap-pte:2:0 refs-pte:0:2"

# bench_reclaim_configs RELEASE: the configurations bench/reclaim.sh runs
# by default on kernel RELEASE: on Linux 7 all, on 6.12 those without a 2.
bench_reclaim_configs() {
	local a out=""
	for a in $BENCH_RECLAIM_ARMS; do
		case $1:${a#*:} in [1-6].*:*2*) continue ;; esac
		out="$out ${a%%:*}"
	done
	echo "${out# }"
}

# bench_reclaim_knobs CONFIG: its unmap_batch and referenced_batch, "U R";
# fails for a name that is none.
bench_reclaim_knobs() {
	local a
	for a in $BENCH_RECLAIM_ARMS; do
		[ "${a%%:*}" = "$1" ] && { a=${a#*:}; echo "${a%%:*} ${a#*:}"; return 0; }
	done
	return 1
}
