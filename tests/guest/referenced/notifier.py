#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""notifier.py DIR CGROUP classic|mglru [churn] - one reclaim pass over
2 MiB file folios, as referenced.py makes them, in a process whose mm has a
secondary MMU: tests/modules/ft_mn_test.ko's notifier, registered by
opening /sys/kernel/debug/ft_mn_test/notifier.  Prints reclaim's decision
per folio, what the notifier was asked about each folio, and the foliotune
counters' deltas as "key=value" on one line; tests/guest/test-mmu-notifier.sh
compares the runs.  Run it in CGROUP (a memcg), as root.

Layout (referenced.py's helpers): NF order-9 folios of a fresh file, each
mapped alone in a VMA of its own 64 KiB past a 2 MiB boundary (two runs of
496 and 16 PTEs), every page faulted, then every accessed bit cleared;
then per folio:

  none       nothing young                            reclaim (R)
  sec_first  the secondary MMU has used page 0        keep (K)
  sec_mid    ... page 200                             K
  sec_run2   ... page 500 (the second run)            K
  sec_all    ... every page                           K
  prim       the CPU reads page 300                   K
  both       the CPU reads page 10, the secondary
             MMU has used page 400                    K

The primary PTEs of the sec_* folios are all old: only the notifier's
answer keeps them (folio_referenced_one() asks it per PTE, or per run).
The ballast and the memory.reclaim target are referenced.py's, so the
pass meets each test folio once (classic LRU, or MGLRU core only).

Per folio the notifier's calls inside its VMA: "calls" (how many), "cover"
(1 when every page of the folio was in exactly one call's range), "sizes"
(the ranges' lengths in pages, as met), and "digest" (a hash of the
calls, their ranges and answers, in order: the same calls as another run
give the same digest).

churn: no notifier held for the pass; instead a thread opens and closes
the file in a loop while reclaim runs (each open registers a notifier on
this mm, each close unregisters it), and no page is marked young for the
secondary MMU.  It prints how many registrations it made and how many of
them fell inside the memory.reclaim call.  Registering takes every VMA's
rmap lock (mm_take_all_locks()), and reclaim's rmap walk only tries those
locks (a contended folio is kept), so under churn a folio may be kept that
would be reclaimed; a folio in use must never be reclaimed.
"""
import hashlib
import mmap
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import referenced as ref  # noqa: E402

MN = "/sys/kernel/debug/ft_mn_test/notifier"
PATTERNS = ["none", "sec_first", "sec_mid", "sec_run2", "sec_all", "prim",
            "both"]
NF = len(PATTERNS)
SECONDARY = {"sec_first": [0], "sec_mid": [200], "sec_run2": [500],
             "sec_all": range(ref.NPG), "both": [400]}
PRIMARY = {"prim": [300], "both": [10]}


def mn_read(fd):
    """The notifier's counts and records: (dict, [(op, start, end, young)])."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        b = os.read(fd, 1 << 16)
        if not b:
            break
        chunks.append(b)
    counts, recs = {}, []
    for line in b"".join(chunks).decode().splitlines():
        f = line.split()
        if f[0] in ("cfy", "cy", "ty"):
            recs.append((f[0], int(f[1], 16), int(f[2], 16), int(f[3])))
        elif f[0] == "calls":
            counts["cfy"], counts["cy"], counts["ty"] = map(int, f[1:4])
        else:
            counts[f[0]] = int(f[1])
    return counts, recs


def mn_cmd(fd, cmd):
    os.write(fd, cmd.encode())


def per_folio(recs, fas):
    """calls, cover, sizes and digest of the calls inside each folio's VMA."""
    calls, cover, sizes, digest = [], "", [], []
    for a in fas:
        mine = [r for r in recs if a <= r[1] < a + ref.FOLIO]
        seen = [0] * ref.NPG
        for _, s, e, _ in mine:
            for p in range((s - a) // ref.PAGE,
                           min((e - a + ref.PAGE - 1) // ref.PAGE, ref.NPG)):
                seen[p] += 1
        calls.append(str(len(mine)))
        cover += "1" if all(n == 1 for n in seen) else "0"
        sizes.append("+".join(str((e - s) // ref.PAGE) for _, s, e, _ in mine)
                     if len(mine) <= 8 else "%dx" % len(mine))
        h = hashlib.sha1()
        for op, s, e, y in mine:
            h.update(("%s %d %d %d;" % (op, s - a, e - a, y)).encode())
        digest.append(h.hexdigest()[:8])
    return ",".join(calls), cover, ",".join(sizes), ",".join(digest)


def churn_loop(stop, window, counts):
    """Open and close the notifier file until stop is set; count the
    registrations, and those made while window is set.  Registered for a
    millisecond, then not for one: reclaim's walk meets the mm both ways
    (without the pauses it found the rmap locks taken and kept every
    folio)."""
    while not stop.is_set():
        fd = os.open(MN, os.O_RDWR | os.O_CLOEXEC)
        counts[0] += 1
        if window.is_set():
            counts[1] += 1
        time.sleep(0.001)
        os.close(fd)
        time.sleep(0.001)


def main():
    d, cg, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    mglru = mode == "mglru"
    churn = len(sys.argv) > 4 and sys.argv[4] == "churn"
    tag = "%d" % os.getpid()
    tpath, bpath = "%s/ft-mn-%s" % (d, tag), "%s/ft-mn-ballast-%s" % (d, tag)
    tsize, bsize = NF * ref.FOLIO, 4 * NF * ref.FOLIO
    mfd = None if churn else os.open(MN, os.O_RDWR | os.O_CLOEXEC)
    fd = ref.write_file(tpath, tsize)
    os.close(ref.write_file(bpath, bsize))
    fas = [ref.map_at(fd, i * ref.FOLIO, ref.FOLIO, ref.SHIFT)
           for i in range(NF)]
    for a in fas:
        for i in range(ref.NPG):
            ref.touch(a + i * ref.PAGE)

    # geometry: one order-9 folio per 2 MiB, every page mapped
    bad = 0
    for a in fas:
        pm = ref.pagemap(a, ref.NPG)
        pfns = [e & ((1 << 55) - 1) for e in pm if e >> 63]
        if len(pfns) != ref.NPG or pfns[0] % ref.NPG or \
           any(q != pfns[0] + k for k, q in enumerate(pfns)) or \
           not ref.kpageflags(pfns[0]) & (1 << 15):
            bad += 1

    # every accessed bit and PG_referenced off, then the patterns
    ref.clear_refs(os.getpid())
    for a in fas:
        ref.tlb_flush(a, ref.FOLIO)
    if mfd is not None:
        mn_cmd(mfd, "reset")
        for p, pages in SECONDARY.items():
            a = fas[PATTERNS.index(p)]
            if len(pages) == ref.NPG:
                mn_cmd(mfd, "young %x %d" % (a, ref.NPG))
            else:
                for i in pages:
                    mn_cmd(mfd, "young %x 1" % (a + i * ref.PAGE))
    for p, pages in PRIMARY.items():
        for i in pages:
            ref.touch(fas[PATTERNS.index(p)] + i * ref.PAGE)

    # the ballast: younger unmapped page cache (MGLRU: faulted, as in
    # referenced.py)
    if mglru:
        bfd = os.open(bpath, os.O_RDONLY)
        b = mmap.mmap(bfd, bsize, mmap.MAP_SHARED, mmap.PROT_READ)
        os.close(bfd)
        for i in range(0, bsize, ref.PAGE):
            b[i]
        b.close()
    else:
        with open(bpath, "rb") as f:
            while f.read(1 << 20):
                pass

    stop, window, regs = threading.Event(), threading.Event(), [0, 0]
    th = None
    if churn:
        th = threading.Thread(target=churn_loop, args=(stop, window, regs))
        th.start()
        while regs[0] == 0:
            pass
    c0 = ref.counters()
    err = "0"
    window.set()
    try:
        with open("%s/memory.reclaim" % cg, "w") as f:
            f.write("%d" % (tsize + bsize // 2))
    except OSError as e:
        err = e.strerror.replace(" ", "_")
    window.clear()
    c1 = ref.counters()
    if th:
        stop.set()
        th.join()

    dec = "".join(ref.decision(a) for a in fas)
    out = ["decisions=" + dec, "geometry_bad=%d" % bad, "reclaim_err=" + err]
    if mfd is not None:
        counts, recs = mn_read(mfd)
        calls, cover, sizes, digest = per_folio(recs, fas)
        op = "cy" if mglru else "cfy"
        inside = [r for r in recs if any(a <= r[1] < a + ref.FOLIO for a in fas)]
        out += ["calls=" + calls, "cover=" + cover, "sizes=" + sizes,
                "digest=" + digest,
                "mn_dropped=%d" % counts["dropped"],
                # every call the counts name is a record read back
                "mn_lost=%d" % (counts["cfy"] + counts["cy"] + counts["ty"] -
                                counts["dropped"] - len(recs)),
                "mn_other_ops=%d" % sum(r[0] != op for r in inside),
                "mn_ranges=%d" % sum(r[0] == op and r[2] - r[1] > ref.PAGE
                                     for r in recs)]
        os.close(mfd)
    else:
        out += ["registrations=%d" % regs[0],
                "registrations_in_reclaim=%d" % regs[1]]
    os.close(fd)
    os.unlink(tpath)
    os.unlink(bpath)
    for k in sorted(c1):
        if k.startswith("referenced_"):
            out.append("%s=%d" % (k, c1[k] - c0.get(k, 0)))
    print(" ".join(out))


if __name__ == "__main__":
    main()
