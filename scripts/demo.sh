#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the README's main job: boot the test box, load foliotune with
# its CLI, run the seed's MADV_PAGEOUT micro-benchmark (Yin Fengwei 2023)
# with unmap_batch=0 (stock algorithm) and =1 (batched), alternating, record
# each run with `foliotune record`, print loops/s side by side and
# `foliotune compare` of the counters.  Every step prints a progress line.
#
# DEMO_REPS (default 3) runs of DEMO_SECONDS (default 5) per configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
KVER=${KVER:-6.12.117+deb12-amd64}
reps=${DEMO_REPS:-3}
secs=${DEMO_SECONDS:-5}
disk=build/vm/xfs-demo.img
mkdir -p build/vm
rm -f "$disk"
truncate -s 1G "$disk"
mkfs.xfs -q -f "$disk"
echo "[demo] booting the $KVER test box (QEMU TCG: about 6x slower than the host)"
scripts/vm/vmrun.sh -k "$KVER" -d "$disk" -- "
set -e
. tests/lib.sh
ft=\$FT_REPO/userspace/foliotune
out=\$FT_RUNDIR/demo
mkdir -p \$out
echo \"[demo] guest up: \$(uname -r) \$(uname -v)\"
modprobe virtio_blk; modprobe xfs; mkdir -p \$FT_XFS; mount /dev/vda \$FT_XFS
echo '[demo] foliotune load'
\$ft load
\$ft status | sed 's/^/    /'
for i in \$(seq $reps); do
	for mode in 0 1; do
		label=stock; [ \$mode = 1 ] && label=batched
		echo \"[demo] run \$i/$reps \$label: ft_pageout_bench -t $secs (unmap_batch=\$mode)\"
		\$ft record -o \$out/\$label-\$i.rec -l \$label -s unmap_batch=\$mode -- \
			tests/progs/ft_pageout_bench -d \$FT_XFS -t $secs > \$out/\$label-\$i.out
	done
done
echo '[demo] seed micro-benchmark, loops/s (higher is better):'
printf '    %-8s %12s %12s %8s\n' run stock batched ratio
for i in \$(seq $reps); do
	s=\$(awk '/^loops_per_sec/ { print \$2 }' \$out/stock-\$i.out)
	b=\$(awk '/^loops_per_sec/ { print \$2 }' \$out/batched-\$i.out)
	printf '    %-8s %12s %12s %8s\n' \$i \$s \$b \$(echo \"scale=3; \$b / \$s\" | bc)
done
echo '[demo] foliotune compare stock-1 batched-1 (counters that moved):'
\$ft compare \$out/stock-1.rec \$out/batched-1.rec | sed 's/^/    /'
echo '[demo] foliotune unload'
\$ft unload
echo '[demo] done: records in '\$out
"
