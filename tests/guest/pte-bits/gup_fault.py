#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gup_fault.py FILE PAGE - map FILE, clear the accessed state of its pages
(touch them, /proc/self/clear_refs, MADV_DONTNEED, as ft_faultaround does),
fault page PAGE in through /proc/self/mem (get_user_pages: nothing touches
the PTE after the fault, unlike a CPU access, which sets the accessed bit
itself), print "rss_kb=N" of that mapping from /proc/self/smaps, then
MADV_PAGEOUT it and print the deltas of foliotune's fa_unmap_young_ptes and
fa_unmap_old_ptes (and unmap_calls, and the pages still mapped after it:
the premise that reclaim unmapped them): the accessed bits exactly as the
fault (and fault-around) wrote them (MADV_PAGEOUT does not clear them; smaps Referenced would not
do: get_user_pages() marks the faulting folio PG_referenced).  Also
"window_folio=1" when the 64K-aligned 16 pages around PAGE are mapped, after
the fault, by one large folio (consecutive PFNs, compound pages, no head
after the first): then fault-around mapped them in one run that holds the
faulting page.  THP is off for the process (PR_SET_THP_DISABLE): Linux 7's
khugepaged collapses a mapped regular file's page cache into 2 MiB folios
(6.12 builds without READ_ONLY_THP_FOR_FS), which would replace the folios
this test prepared between the touch and the fault."""
import ctypes
import mmap
import os
import sys

path, page = sys.argv[1], int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(41, 1, 0, 0, 0):      # PR_SET_THP_DISABLE, before the mmap
    sys.exit("prctl: " + os.strerror(ctypes.get_errno()))
fd = os.open(path, os.O_RDONLY)
m = mmap.mmap(fd, os.path.getsize(path), mmap.MAP_SHARED, mmap.PROT_READ)
real = os.path.realpath(path)
with open("/proc/self/maps") as f:
    start = next(int(line.split("-")[0], 16) for line in f
                 if line.rstrip("\n").endswith(" " + real))
size = len(m)
for off in range(0, size, 4096):
    m[off]
with open("/proc/self/clear_refs", "w") as f:
    f.write("1")            # PTE accessed bits and PG_referenced
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
if libc.madvise(start, size, 4):    # MADV_DONTNEED
    sys.exit("madvise: " + os.strerror(ctypes.get_errno()))
mem = os.open("/proc/self/mem", os.O_RDONLY)
os.pread(mem, 8, start + page * 4096)
rss = None
with open("/proc/self/smaps") as f:
    inside = False
    for line in f:
        if "-" in line.split()[0] and len(line.split()) >= 5:
            inside = int(line.split("-")[0], 16) == start
        elif inside and line.startswith("Rss:"):
            rss = int(line.split()[1])


def counters():
    with open("/sys/kernel/debug/foliotune/vmstat") as f:
        return dict((k, int(v)) for k, v in (line.split() for line in f))


def window_folio():
    """1 if the 16 PTEs of PAGE's 64K window map one large folio."""
    first = (start + page * 4096) & ~0xffff
    with open("/proc/self/pagemap", "rb") as f:
        f.seek(first // 4096 * 8)
        pm = [int.from_bytes(f.read(8), "little") for _ in range(16)]
    if not all(e >> 63 for e in pm):
        return 0
    pfns = [e & ((1 << 55) - 1) for e in pm]
    if any(q != pfns[0] + k for k, q in enumerate(pfns)):
        return 0
    head, tail = 1 << 15, 1 << 16     # KPF_COMPOUND_HEAD, KPF_COMPOUND_TAIL
    with open("/proc/kpageflags", "rb") as f:
        f.seek(pfns[0] * 8)
        fl = [int.from_bytes(f.read(8), "little") for _ in range(16)]
    return int(all(x & (head | tail) for x in fl) and
               not any(x & head for x in fl[1:]))


wf = window_folio()
c0 = counters()
if libc.madvise(start, size, 21):   # MADV_PAGEOUT
    sys.exit("madvise: " + os.strerror(ctypes.get_errno()))
c1 = counters()
with open("/proc/self/pagemap", "rb") as f:
    f.seek(start // 4096 * 8)
    pm = f.read(8 * (size // 4096))
mapped = sum(pm[i * 8 + 7] >> 7 for i in range(size // 4096))
print("rss_kb=%s window_folio=%d young=%d old=%d calls=%d mapped_after=%d" % (
    rss, wf, c1["fa_unmap_young_ptes"] - c0["fa_unmap_young_ptes"],
    c1["fa_unmap_old_ptes"] - c0["fa_unmap_old_ptes"],
    c1["unmap_calls"] - c0["unmap_calls"], mapped))
