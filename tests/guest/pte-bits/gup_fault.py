#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gup_fault.py FILE PAGE - map FILE, fault page PAGE in through
/proc/self/mem (get_user_pages: nothing touches the PTE after the fault,
unlike a CPU access, which sets the accessed bit itself), then print
"rss_kb=N referenced_kb=N" of that mapping from /proc/self/smaps: the PTE
state exactly as the fault (and fault-around) wrote it."""
import mmap
import os
import sys

path, page = sys.argv[1], int(sys.argv[2])
fd = os.open(path, os.O_RDONLY)
m = mmap.mmap(fd, os.path.getsize(path), mmap.MAP_SHARED, mmap.PROT_READ)
real = os.path.realpath(path)
with open("/proc/self/maps") as f:
    start = next(int(line.split("-")[0], 16) for line in f
                 if line.rstrip("\n").endswith(" " + real))
mem = os.open("/proc/self/mem", os.O_RDONLY)
os.pread(mem, 8, start + page * 4096)
rss = ref = None
with open("/proc/self/smaps") as f:
    inside = False
    for line in f:
        if "-" in line.split()[0] and len(line.split()) >= 5:
            inside = int(line.split("-")[0], 16) == start
        elif inside and line.startswith("Rss:"):
            rss = int(line.split()[1])
        elif inside and line.startswith("Referenced:"):
            ref = int(line.split()[1])
print("rss_kb=%s referenced_kb=%s" % (rss, ref))
