#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""referenced.py DIR CGROUP [mglru] - one reclaim pass over 2 MiB file folios with
known accessed-bit patterns; prints reclaim's decision for each folio and
the foliotune counters' deltas as "key=value" on one line.  Run it in
CGROUP (a memcg), as root, with the classic LRU or MGLRU, with or without
foliotune; tests/guest/test-referenced.sh compares the runs.

Layout.  A fresh file in DIR (no shadow entries: a refault would activate)
of NF order-9 folios (MADV_HUGEPAGE readahead), mapped 64 KiB past a 2 MiB
boundary, so every folio is PTE-mapped in two runs: 496 PTEs in one page
table, 16 in the next.  Folios PMD_A.. are mapped once more, 2 MiB-aligned,
by a second mapping that gets PMD mappings.  The first pages of every folio
are faulted, clear_refs clears every accessed bit and PG_referenced, then
only the pages of each pattern below are read again:

  none      no page read                      stock decision: reclaim
  start     page 0 (first PTE of run 1)       keep (one referencing VMA)
  middle    page 200                          keep
  end       page 495 (last PTE of run 1)      keep
  run2      page 500 (run 2)                  keep
  all       every page                        keep
  procs2    a child maps it too; both read    activate (two VMAs)
  procs1    a child maps it too; child reads  keep
  split2    its middle is mprotect()ed into   activate (two VMAs)
            a VMA of its own; pages 10 and
            300 read (two VMAs)
  split1    as split2, only page 300 read     keep
  mlock     mlock2(MLOCK_ONFAULT)ed after     whatever stock does: the
            the faults (the folio straddles   VM_LOCKED path
            a page table, so it stays on the
            evictable LRU); all read
  pmd_none  PMD-mapped, no access             reclaim
  pmd_young PMD-mapped, read                  keep

First reclaim pass: the test folios are the oldest on the inactive list, a
ballast of unmapped page cache (4x the test file, read after them) is
younger, and memory.reclaim asks for the test file plus half the ballast.
Reclaim thus meets each test folio once: "reclaim" unmaps it, "keep"
rotates it to the head behind the ballast, "activate" moves it to the
active list, which stays too small to be scanned.  Decisions read back from
pagemap and kpageflags: R (no PTE left), A (mapped, PG_active), K (mapped,
inactive).

A second pass (classic LRU only), nothing read since: memory.reclaim of
everything in CGROUP.  A folio kept by the first pass had its accessed bits
cleared there and PG_referenced set, so now reclaim finds it unreferenced
and reclaims it (R); one whose bits the first pass left set would be
activated again and stay.  Its decisions: "decisions2".

"mglru", for MGLRU (lru_gen core only: no page-table walk clears the
accessed bits before eviction), changes two things.  Folios added by a
fault go to the youngest generation (folio_add_lru(): lru_gen_in_fault()),
page cache added by read() to the oldest, so the ballast is faulted
through a mapping (unmapped again before the reclaim) instead of read():
it then sits in the test folios' generation, younger than them, and the
one pass meets each test folio once, as with the classic LRU (a kept folio
goes to a younger generation than the rest of the ballast).  And every
PTE-mapped folio gets a VMA of its own, between PROT_NONE holes: the
look-around at a young PTE (lru_gen_look_around(): up to 64 PTEs of the
same page table and VMA) clears and promotes what it finds, so in one
shared VMA a folio whose run shares a page table with its neighbour's
would decide the neighbour's fate by being met first.  Each folio keeps
its two runs (496 + 16 PTEs).  Decisions are then R or K only (MGLRU
folds PG_active into the generation): reclaim for none and pmd_none, keep
for the others (mlock: try_to_unmap_one() refuses it, reclaim activates
it).
"""
import ctypes
import mmap
import os
import re
import signal
import sys

PAGE = 4096
FOLIO = 2 << 20
NPG = FOLIO // PAGE
SHIFT = 64 << 10
VMSTAT = "/sys/kernel/debug/foliotune/vmstat"
MADV_HUGEPAGE = 14
POSIX_FADV_DONTNEED = 4
KPF_ACTIVE = 6
PROT_NONE = 0

PATTERNS = ["none", "start", "middle", "end", "run2", "all", "procs2",
            "procs1", "split2", "split1", "mlock", "pmd_none", "pmd_young"]
PTE_PATTERNS = PATTERNS[:11]
NF = len(PATTERNS)

libc = ctypes.CDLL(None, use_errno=True)
for fn in ("madvise", "mprotect", "mlock2"):
    getattr(libc, fn).argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]


def die(msg):
    print("error=" + re.sub(r"\s", "_", msg))
    sys.exit(1)


def call(fn, *args):
    if getattr(libc, fn)(*args) != 0:
        e = ctypes.get_errno()
        die("%s: %s" % (fn, os.strerror(e)))


def map_at(fd, off, length, shift):
    """MAP_SHARED read-only mapping of fd at off, shift bytes past a 2 MiB
    boundary (reserve, then MAP_FIXED inside the reservation)."""
    res = libc.mmap(None, length + 2 * FOLIO, 0,
                    mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    if res in (None, ctypes.c_void_p(-1).value):
        die("mmap reserve")
    base = (res + FOLIO - 1) // FOLIO * FOLIO + shift
    p = libc.mmap(base, length, mmap.PROT_READ, mmap.MAP_SHARED | 0x10,
                  fd, off)
    if p != base:
        die("mmap fixed")
    call("madvise", base, length, MADV_HUGEPAGE)
    return base


def tlb_flush(addr, length):
    """clear_refs flushes no TLB, so a read that hits a translation cached
    since the faults sets no accessed bit (seen in the box: procs1, the
    child's one read, reclaimed, on the stock kernel too).  An mprotect()
    round trip flushes the range; the PTEs keep their accessed bits."""
    call("mprotect", addr, length, PROT_NONE)
    call("mprotect", addr, length, mmap.PROT_READ)


def touch(addr):
    ctypes.c_char.from_address(addr).value


def pagemap(addr, n):
    with open("/proc/self/pagemap", "rb") as f:
        f.seek(addr // PAGE * 8)
        data = f.read(8 * n)
    return [int.from_bytes(data[i * 8:i * 8 + 8], "little") for i in range(n)]


def kpageflags(pfn):
    with open("/proc/kpageflags", "rb") as f:
        f.seek(pfn * 8)
        return int.from_bytes(f.read(8), "little")


def counters():
    c = {}
    try:
        with open(VMSTAT) as f:
            for line in f:
                k, v = line.split()
                c[k] = int(v)
    except OSError:
        pass
    return c


def clear_refs(pid):
    with open("/proc/%d/clear_refs" % pid, "w") as f:
        f.write("1")


def write_file(path, size):
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    buf = os.urandom(1 << 20)
    for _ in range(size >> 20):
        os.write(fd, buf)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, size, POSIX_FADV_DONTNEED)
    return fd


def decision(a):
    """R, A or K for the folio mapped at a (PTE-mapped view)."""
    pm = pagemap(a, NPG)
    pres = [e for e in pm if e >> 63]
    if not pres:
        return "R"
    pfn = pres[0] & ((1 << 55) - 1)
    fl = kpageflags(pfn & ~(NPG - 1))
    return "A" if fl & (1 << KPF_ACTIVE) else "K"


def child_proc(fd, idx, read, rd, wr):
    """Map folio idx (shifted), fault it, tell the parent, wait, clear own
    refs, read page 7 if read, tell the parent, sleep until killed."""
    a = map_at(fd, idx * FOLIO, FOLIO, SHIFT)
    for i in range(NPG):
        touch(a + i * PAGE)
    os.write(wr, b"f")
    os.read(rd, 1)
    clear_refs(os.getpid())
    tlb_flush(a, FOLIO)
    if read:
        touch(a + 7 * PAGE)
    os.write(wr, b"r")
    signal.pause()


def main():
    d, cg = sys.argv[1], sys.argv[2]
    mglru = len(sys.argv) > 3 and sys.argv[3] == "mglru"
    tag = "%d" % os.getpid()
    tpath, bpath = "%s/ft-ref-%s" % (d, tag), "%s/ft-ref-ballast-%s" % (d, tag)
    tsize, bsize = NF * FOLIO, 4 * NF * FOLIO
    fd = write_file(tpath, tsize)
    os.close(write_file(bpath, bsize))
    pmd0 = PATTERNS.index("pmd_none")
    if mglru:
        # one VMA per folio: no look-around reaches another folio's PTEs
        fas = [map_at(fd, i * FOLIO, FOLIO, SHIFT) for i in range(pmd0)]
    else:
        a = map_at(fd, 0, pmd0 * FOLIO, SHIFT)
        fas = [a + i * FOLIO for i in range(pmd0)]
    pmd_a = map_at(fd, pmd0 * FOLIO, (NF - pmd0) * FOLIO, 0)

    def fa(p):
        return fas[PATTERNS.index(p)]

    # fault every page of the PTE-mapped folios, and the PMD ones
    for f in fas:
        for i in range(NPG):
            touch(f + i * PAGE)
    for f in range(NF - pmd0):
        touch(pmd_a + f * FOLIO)
    # pages 100-199 of the split folios become a VMA of their own (no
    # access: PROT_NONE PTEs stay mapped); mlock faults nothing new
    for p in ("split2", "split1"):
        call("mprotect", fa(p) + 100 * PAGE, 100 * PAGE, PROT_NONE)
    # MLOCK_ONFAULT: no populate, whose FOLL_TOUCH would activate the folio
    call("mlock2", fa("mlock"), FOLIO, 1)

    kids = []
    for p, read in (("procs2", True), ("procs1", True)):
        r1, w1 = os.pipe()
        r2, w2 = os.pipe()
        pid = os.fork()
        if pid == 0:
            child_proc(fd, PATTERNS.index(p), read, r1, w2)
            os._exit(0)
        os.read(r2, 1)
        kids.append((pid, w1, r2))

    # geometry: one order-9 folio per 2 MiB, every page mapped
    bad = 0
    for i in range(pmd0):
        pm = pagemap(fas[i], NPG)
        pfns = [e & ((1 << 55) - 1) for e in pm if e >> 63]
        if len(pfns) != NPG or pfns[0] % NPG or \
           any(q != pfns[0] + k for k, q in enumerate(pfns)) or \
           not kpageflags(pfns[0]) & (1 << 15):
            bad += 1
    with open("/proc/self/smaps") as f:
        sm = f.read()
    pmd_mapped = sum(int(x) for x in re.findall(r"FilePmdMapped:\s+(\d+) kB", sm))

    # every accessed bit and PG_referenced off, then the patterns
    clear_refs(os.getpid())
    for _, w1, _ in kids:
        os.write(w1, b"c")
    for _, _, r2 in kids:
        os.read(r2, 1)
    reads = {"start": [0], "middle": [200], "end": [495], "run2": [500],
             "all": range(NPG), "procs2": [3], "procs1": [],
             "split2": [10, 300], "split1": [300], "mlock": range(NPG)}
    # flush the TLB first (see child_proc): without it a read can hit a
    # translation cached since the faults and set no accessed bit
    for p in reads:
        parts = [(0, 100), (200, NPG)] if p.startswith("split") else [(0, NPG)]
        for s, e in parts:
            tlb_flush(fa(p) + s * PAGE, (e - s) * PAGE)
    tlb_flush(pmd_a + FOLIO, FOLIO)
    for p, pages in reads.items():
        for i in pages:
            touch(fa(p) + i * PAGE)
    touch(pmd_a + FOLIO)                       # pmd_young

    # the ballast: younger unmapped page cache (MGLRU: faulted, see above)
    if mglru:
        bfd = os.open(bpath, os.O_RDONLY)
        b = mmap.mmap(bfd, bsize, mmap.MAP_SHARED, mmap.PROT_READ)
        os.close(bfd)
        for i in range(0, bsize, PAGE):
            b[i]
        b.close()
    else:
        with open(bpath, "rb") as f:
            while f.read(1 << 20):
                pass

    c0 = counters()
    err = "0"
    try:
        with open("%s/memory.reclaim" % cg, "w") as f:
            f.write("%d" % (tsize + bsize // 2))
    except OSError as e:
        err = e.strerror.replace(" ", "_")
    c1 = counters()

    def decisions():
        dec = [decision(f) for f in fas]
        for f in range(NF - pmd0):
            pm = pagemap(pmd_a + f * FOLIO, 1)
            if not pm[0] >> 63:
                dec.append("R")
            else:
                fl = kpageflags((pm[0] & ((1 << 55) - 1)) & ~(NPG - 1))
                dec.append("A" if fl & (1 << KPF_ACTIVE) else "K")
        return "".join(dec)

    dec = decisions()
    dec2 = None
    if not mglru:
        try:
            with open("%s/memory.reclaim" % cg, "w") as f:
                f.write("%d" % (tsize + bsize))
        except OSError:
            pass    # EAGAIN: less than asked was left to reclaim
        dec2 = decisions()
    for pid, _, _ in kids:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    os.unlink(tpath)
    os.unlink(bpath)

    out = ["decisions=" + dec, "geometry_bad=%d" % bad,
           "pmd_mapped_kb=%d" % pmd_mapped, "reclaim_err=" + err]
    if dec2 is not None:
        out.append("decisions2=" + dec2)
    for k in sorted(c1):
        if k.startswith(("referenced_", "unmap_", "pageref_")):
            out.append("%s=%d" % (k, c1[k] - c0.get(k, 0)))
    print(" ".join(out))


if __name__ == "__main__":
    main()
