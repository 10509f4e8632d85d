#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pte_bits.py CASE [FILE] - one batched-unmap scenario whose bug would lose
a PTE bit or leave PTEs mapped, run in this process (pagemap, kpageflags and
getrusage are per process).  Prints "key=value ..." on one line; the shell
test (tests/guest/test-unmap-pte-bits.sh) checks them.  Needs root.

  partial FILE  file folios with a hole (one PTE zapped mid-folio): each folio
                is unmapped in two runs.  After memory.reclaim, every folio
                must be all mapped or all unmapped: mixed = folios with some
                PTEs left behind.
  dirty         anon shmem (64K folios or order-0, as the test sets),
                read-faulted (PTEs writable, clean) then written through
                the mapping but for the first page of each 64K: only the
                PTE dirty bits know, in a run not its first.  After
                MADV_PAGEOUT the data must read back.
  lazyfree      anon 64K folios, MADV_FREE, soft-dirty cleared (PTEs
                read-only), the first half of each folio written again
                (writable, dirty): reclaim must put back the written half
                and leave the other half read-only and not soft-dirty;
                the written half must read back, soft-dirty and writable.
                The written half's first page is old, the rest young
                (clear_refs, then read on another CPU, so needs two): its
                PTEs must come back young.
                With order-0 folios (the test sets it) each written page
                is put back on its own.
  swap          order-0 anon pages, soft-dirty cleared, every other page
                written again, swapped out by MADV_PAGEOUT: exactly the
                written ones keep soft-dirty in their swap entries.
  tlb KIND [FILE]
                KIND lazyfree, shmem (anon) or file (FILE, made here):
                read 1 MiB through a mapping (the CPU caches the
                translations), MADV_PAGEOUT (the clean folios are freed),
                new contents by another way (zero-fill, pwrite() to the
                file or to /proc/self/mem; shmem's large folios are first
                shifted by a few pages of another mapping), read
                again: stale = pages read through a translation that
                outlived its PTE (a missing TLB flush).
  single FILE   file folios each mapped by one PTE (the rest of every large
                folio zapped, order-0 pages too), accessed state cleared,
                then memory.reclaim: every such folio reclaim unmaps is a
                run of one PTE of a large folio (unmap_batch_order0, and
                unmap_nobatch_partial or, with unmap_batch=2, _off; with
                0, on Linux 7, the kernel's own: unmap_kernel_*).
  A last argument "linux7" (partial, single, tlb file; the shell tests
  give it on Linux 7, whose read faults make order-0 file folios) makes the
  file's large folios another way: 2 MiB ones by MADV_HUGEPAGE, kept
  PTE-mapped (partial, single: huge_file()), or 64 KiB ones by 64 KiB
  writes (tlb file, see there).
  pager FILE S  a workload, not a check: for S seconds, read FILE through a
                shared mapping and MADV_PAGEOUT it, again and again
                (tests/guest/test-cli.sh unloads under it).
  near FILE     order-0 file, 16K window (the test sets it): one pass
                reading every page of 1 MiB in order (one fault per 16K
                window of the address space it covers, each next to the
                one before it but the first), one reading every 16th page
                (16 faults, none near); prints the windows, and the
                fa_read_faults and fa_read_faults_near deltas of each.
"""
import ctypes
import mmap
import os
import resource
import sys
import time

PAGE = 4096
VMSTAT = "/sys/kernel/debug/foliotune/vmstat"
# <asm-generic/mman-common.h>; Debian 12's Python lacks mmap's MADV_PAGEOUT
MADV_DONTNEED, MADV_FREE, MADV_DONTFORK, MADV_PAGEOUT = 4, 8, 10, 21
MADV_HUGEPAGE = 14
PR_SET_THP_DISABLE = 41                 # <linux/prctl.h>
libc = ctypes.CDLL(None, use_errno=True)
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong,
                       ctypes.c_ulong, ctypes.c_ulong]


def madvise(m, advice, off=0, length=None):
    """madvise() of [off, off + length) of the mmap object m."""
    if length is None:
        length = len(m) - off
    if libc.madvise(addr_of(m) + off, length, advice):
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def addr_of(m):
    return ctypes.addressof(ctypes.c_char.from_buffer(m))


def huge_file(m, linux7):
    """Before the read faults of the file mapping m, if linux7: large folios
    on Linux 7.  Its mmap read-around allocates order-0 folios
    (do_sync_mmap_readahead(): ra->order = 0, where 6.12's
    page_cache_ra_order() raised it to 2), and in the test box no later
    readahead raised the order for these files: read faults made no large
    folio.  MADV_HUGEPAGE makes the fault's readahead allocate folios of
    up to 2 MiB (the file's size bounds them), and PR_SET_THP_DISABLE
    keeps a 2 MiB one from being PMD-mapped (do_set_pmd() refuses a
    process with THP disabled): each is mapped by PTEs, as the cases
    need.  (Tried on a 6.18 kernel, whose read-around is Linux 7's, on
    ext4: 8 MiB read by faults made 2048 order-0 folios; this, four
    order-9 ones, FilePmdMapped 0 kB; without the prctl, 8192 kB.)"""
    if not linux7:
        return
    if libc.prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0):
        err = ctypes.get_errno()
        raise OSError(err, "prctl(PR_SET_THP_DISABLE): " + os.strerror(err))
    madvise(m, MADV_HUGEPAGE)


def pagemap(addr, n):
    with open("/proc/self/pagemap", "rb") as f:
        f.seek(addr // PAGE * 8)
        data = f.read(8 * n)
    return [int.from_bytes(data[i * 8:i * 8 + 8], "little") for i in range(n)]


def kpageflags(pfns):
    out = []
    with open("/proc/kpageflags", "rb") as f:
        for pfn in pfns:
            f.seek(pfn * 8)
            out.append(int.from_bytes(f.read(8), "little"))
    return out


def present(e):
    return (e >> 63) & 1


def soft_dirty(e):
    return (e >> 55) & 1


def pfn(e):
    return e & ((1 << 55) - 1)


def counters():
    c = {}
    with open(VMSTAT) as f:
        for line in f:
            k, v = line.split()
            c[k] = int(v)
    return c


def delta(c0, c1, *names):
    return sum(c1[n] - c0[n] for n in names)


def pattern(i):
    return (b"%08d" % i) * (PAGE // 8)


def case_partial(path, linux7=False):
    size = os.path.getsize(path)
    n = size // PAGE
    fd = os.open(path, os.O_RDWR)
    m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    huge_file(m, linux7)
    a = addr_of(m)
    for i in range(n):
        m[i * PAGE]
    pm = pagemap(a, n)
    flags = kpageflags([pfn(e) for e in pm])
    # folio id of each page: the index of its head page (KPF_COMPOUND_HEAD
    # bit 15, KPF_COMPOUND_TAIL bit 16); order-0 pages are their own folio
    folio, head, large = [], -1, 0
    for i, fl in enumerate(flags):
        if fl & (1 << 15):
            head = i
            large += 1
        elif not fl & (1 << 16):
            head = i
        folio.append(head)
    # a hole in every large folio of at least 4 pages: zap its 3rd page
    holes = set()
    for i in range(n):
        if folio[i] == i and i + 3 < n and folio[i + 3] == i:
            holes.add(i + 2)
            madvise(m, MADV_DONTNEED, (i + 2) * PAGE, PAGE)
    c0 = counters()
    try:
        with open("/sys/fs/cgroup/ft-pte-bits/memory.reclaim", "w") as f:
            f.write("%d" % (2 * size))
    except OSError:
        pass            # EAGAIN: not all of it; the check below is per folio
    c1 = counters()
    pm = pagemap(a, n)
    groups = {}
    for i in range(n):
        if i not in holes:
            groups.setdefault(folio[i], []).append(present(pm[i]))
    mixed = sum(1 for g in groups.values() if 0 < sum(g) < len(g))
    holed_gone = sum(1 for h in holes if not any(groups[folio[h]]))
    print("large=%d holes=%d holed_unmapped=%d mixed=%d batches=%d calls=%d" % (
        large, len(holes), holed_gone, mixed,
        delta(c0, c1, "unmap_batches"), delta(c0, c1, "unmap_calls")))


def case_dirty():
    size = 4 << 20
    n = size // PAGE
    m = mmap.mmap(-1, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    for i in range(n):
        m[i * PAGE]                     # read faults: writable, clean PTEs
    # no fault: PTE dirty bit only; not the first page of each 64K, so a
    # run's dirty bit is only in PTEs after its first
    def want(i):
        return pattern(i) if i % 16 else bytes(PAGE)
    for i in range(n):
        if i % 16:
            m[i * PAGE:(i + 1) * PAGE] = want(i)
    c0 = counters()
    madvise(m, MADV_PAGEOUT)
    c1 = counters()
    a = addr_of(m)
    gone = n - sum(present(e) for e in pagemap(a, n))
    bad = sum(1 for i in range(n) if m[i * PAGE:(i + 1) * PAGE] != want(i))
    print("pages=%d unmapped=%d bad=%d order4=%d small=%d tracked=%d" % (
        n, gone, bad, delta(c0, c1, "unmap_batch_order4"),
        delta(c0, c1, "unmap_nobatch_small"),
        delta(c0, c1, "fa_unmap_young_ptes", "fa_unmap_old_ptes")))


def case_lazyfree():
    # clear_refs "1" does not flush the TLB (x86 clears accessed bits
    # without one): the pages are read again on another CPU, whose TLB
    # never held them, so the CPU sets their accessed bits again
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[0]})
    blk = 64 << 10
    size = 1 << 20
    n = size // PAGE
    raw = mmap.mmap(-1, size + blk, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                    mmap.PROT_READ | mmap.PROT_WRITE)
    madvise(raw, MADV_DONTFORK)         # a VMA of its own in smaps
    off = -addr_of(raw) % blk
    a = addr_of(raw) + off
    for i in range(n):
        raw[off + i * PAGE] = 1         # 64K folios
    madvise(raw, MADV_FREE, off, size)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("4")                    # soft-dirty clear: every PTE read-only
    per = blk // PAGE
    first = [i for i in range(n) if i % per < per // 2]
    for i in range(n):
        if i % per < per // 2:
            raw[off + i * PAGE] = 2     # first half: writable, dirty again
    with open("/proc/self/clear_refs", "w") as f:
        f.write("1")                    # every PTE old ...
    os.sched_setaffinity(0, {cpus[-1]})
    for i in first:
        if i % per:
            raw[off + i * PAGE]         # ... but those read again
    c0 = counters()
    madvise(raw, MADV_PAGEOUT, off, size)
    c1 = counters()
    young = referenced_kb(addr_of(raw)) // 4
    pm = pagemap(a, n)
    second = [i for i in range(n) if i % per >= per // 2]
    sd_leak = sum(soft_dirty(pm[i]) for i in second)
    mapped = sum(present(pm[i]) for i in second)
    first_sd = sum(soft_dirty(pm[i]) for i in first)
    lost = sum(1 for i in first if raw[off + i * PAGE] != 2)
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for i in first:
        raw[off + i * PAGE] = 4         # put back writable: no fault
    f1 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for i in range(0, n, per):
        raw[off + (i + per // 2) * PAGE] = 3    # read-only PTE: one fault each
    f2 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    print("folios=%d second_half_mapped=%d soft_dirty_leaked=%d write_faults=%d "
          "restored=%d lost=%d first_soft_dirty=%d rewrite_faults=%d small=%d "
          "young=%d" % (
              n // per, mapped, sd_leak, f2 - f1,
              delta(c0, c1, "unmap_restored_ptes"), lost, first_sd, f1 - f0,
              delta(c0, c1, "unmap_nobatch_small"), young))


def referenced_kb(start):
    """smaps' Referenced of the VMA that starts at start: its young PTEs
    (PG_referenced and the idle flag aside, which MADV_PAGEOUT clears)."""
    found = False
    with open("/proc/self/smaps") as f:
        for line in f:
            k = line.split()
            if "-" in k[0] and ":" not in k[0]:
                found = int(k[0].split("-")[0], 16) == start
            elif found and k[0] == "Referenced:":
                return int(k[1])
    return -1


def case_swap():
    """Order-0 anon pages swapped out: soft-dirty goes into the swap
    entries of the pages written since clear_refs, and only theirs."""
    n = 256
    m = mmap.mmap(-1, n * PAGE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                  mmap.PROT_READ | mmap.PROT_WRITE)
    for i in range(n):
        m[i * PAGE] = 1
    with open("/proc/self/clear_refs", "w") as f:
        f.write("4")                    # soft-dirty clear
    for i in range(0, n, 2):
        m[i * PAGE] = 2                 # even pages soft-dirty again
    c0 = counters()
    madvise(m, MADV_PAGEOUT)
    c1 = counters()
    pm = pagemap(addr_of(m), n)
    swapped = [i for i in range(n) if not present(pm[i]) and (pm[i] >> 62) & 1]
    print("pages=%d swapped=%d even=%d sd_even=%d sd_odd=%d small=%d" % (
        n, len(swapped), sum(1 for i in swapped if i % 2 == 0),
        sum(1 for i in swapped if i % 2 == 0 and soft_dirty(pm[i])),
        sum(1 for i in swapped if i % 2 and soft_dirty(pm[i])),
        delta(c0, c1, "unmap_nobatch_small")))


def case_tlb(kind, path=None, linux7=False):
    """A missing TLB flush, seen through the test box's own TLB: read
    every page (the CPU caches read-only translations), MADV_PAGEOUT (a
    clean folio is freed), then give the pages new contents by another
    way (a zero-fill for lazyfree, pwrite() to the file or, for shmem, to
    /proc/self/mem) and
    read them through the mapping again.  A translation that outlived its
    PTE reads the freed page: stale = pages that do not read the new
    contents."""
    n = 256
    size = n * PAGE
    blk = 64 << 10
    if kind == "lazyfree":
        raw = mmap.mmap(-1, size + blk, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                        mmap.PROT_READ | mmap.PROT_WRITE)
        off = -addr_of(raw) % blk
        for i in range(n):
            raw[off + i * PAGE:off + (i + 1) * PAGE] = pattern(i)
        madvise(raw, MADV_FREE, off, size)   # clean: discarded, not kept
        m = raw
    else:
        if kind == "shmem":
            # anon shmem (the test sets its folio size); its pages get new
            # contents through /proc/self/mem, a fault of their own
            fd = os.open("/proc/self/mem", os.O_RDWR)
            m = mmap.mmap(-1, size, mmap.MAP_SHARED,
                          mmap.PROT_READ | mmap.PROT_WRITE)
        else:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
            if linux7:
                # Linux 7: 64 KiB folios from 64 KiB writes (the write
                # path sizes a folio by the write), kept: read faults
                # would make order-0 ones (huge_file()), and one folio of
                # the whole file, by MADV_HUGEPAGE, was not freed by
                # MADV_PAGEOUT in a third of the runs on a 6.18 kernel
                # (its pages stay where they were: no page moves)
                for i in range(0, n, 16):
                    os.pwrite(fd, b"".join(pattern(j) for j in range(i, i + 16)),
                              i * PAGE)
                os.fsync(fd)                # clean page cache
            else:
                for i in range(n):
                    os.pwrite(fd, pattern(i), i * PAGE)
                os.fsync(fd)                # clean page cache
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            m = mmap.mmap(fd, size, mmap.MAP_SHARED,
                          mmap.PROT_READ | mmap.PROT_WRITE)
        off = 0
    a = addr_of(m) + off
    for i in range(n):
        m[off + i * PAGE]               # read: cached translations
    pfn0 = [pfn(e) for e in pagemap(a, n)]
    large = any(f & (3 << 15) for f in kpageflags(pfn0))
    c0 = counters()
    madvise(m, MADV_PAGEOUT, off, size)
    c1 = counters()
    gone = n - sum(present(e) for e in pagemap(a, n))
    if kind == "shmem" and large:
        # Freed large folios split again in the same order would come back
        # at the same offsets, where a stale translation reads the right
        # page: a few pages of another shared mapping shift them.  A few,
        # not many: every page touched evicts a translation from the
        # emulated TLB (512 of them hid a planted missing flush in one run
        # of three, 16 in none of three).  Order-0 pages come back in LIFO
        # order, already at other offsets.
        soak = mmap.mmap(-1, 16 * PAGE, mmap.MAP_SHARED,
                         mmap.PROT_READ | mmap.PROT_WRITE)
        for i in range(16):
            soak[i * PAGE] = 0xaa
    if kind == "lazyfree":
        def want(i):
            return bytes(PAGE)
    else:
        def want(i):
            return pattern(n + i)
        base = addr_of(m) if kind == "shmem" else 0
        for i in range(n):
            os.pwrite(fd, want(i), base + i * PAGE)
    stale = sum(1 for i in range(n)
                if m[off + i * PAGE:off + (i + 1) * PAGE] != want(i))
    # a page back at its old physical address would hide a stale read
    moved = sum(1 for p0, e in zip(pfn0, pagemap(a, n)) if pfn(e) != p0)
    print("pages=%d unmapped=%d stale=%d moved=%d batches=%d small=%d "
          "young=%d old=%d" % (
        n, gone, stale, moved, delta(c0, c1, "unmap_batches"),
        delta(c0, c1, "unmap_nobatch_small"),
        delta(c0, c1, "fa_unmap_young_ptes"),
        delta(c0, c1, "fa_unmap_old_ptes")))


def case_pager(path, seconds):
    """Until SECONDS pass: read every page of FILE through a shared
    mapping, then MADV_PAGEOUT it: reclaim reaches try_to_unmap_one once
    per folio, every pass, with a 10 ms pause between passes.  Prints
    "passes=N"."""
    size = os.path.getsize(path)
    fd = os.open(path, os.O_RDWR)
    m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    end = time.monotonic() + seconds
    passes = 0
    while time.monotonic() < end:
        for i in range(0, size, PAGE):
            m[i]
        madvise(m, MADV_PAGEOUT)
        passes += 1
        # off the CPU for a moment, out of any patched function: a
        # livepatch transition can switch this task then
        time.sleep(0.01)
    print("passes=%d" % passes)


def stable_counters():
    """counters() once two reads agree: not in the middle of a run's
    several increments (the identities hold only between runs)."""
    c = counters()
    for _ in range(40):
        n = counters()
        if n == c:
            return c
        c = n
        time.sleep(0.05)
    return c


def folio_heads(a, n):
    """For each of n mapped pages at a: the index of its folio's head page
    (KPF_COMPOUND_HEAD bit 15, KPF_COMPOUND_TAIL bit 16); order-0 pages
    are their own folio."""
    flags = kpageflags([pfn(e) for e in pagemap(a, n)])
    folio, head = [], -1
    for i, fl in enumerate(flags):
        if fl & (1 << 15) or not fl & (1 << 16):
            head = i
        folio.append(head)
    return folio


def case_single(path, linux7=False):
    size = os.path.getsize(path)
    n = size // PAGE
    fd = os.open(path, os.O_RDWR)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # charged to our memcg
    # writable for ctypes (addr_of), only read
    m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    huge_file(m, linux7)
    a = addr_of(m)
    for i in range(n):
        m[i * PAGE]                     # read faults: readahead, large folios
    folio = folio_heads(a, n)
    # keep the second page of each large folio, zap every other page
    keep = [i for i in range(n) if folio[i] == i - 1]
    large = len(keep)
    kept = set(keep)
    i = 0
    while i < n:
        if i in kept:
            i += 1
            continue
        j = i
        while j < n and j not in kept:
            j += 1
        madvise(m, MADV_DONTNEED, i * PAGE, (j - i) * PAGE)
        i = j
    with open("/proc/self/clear_refs", "w") as f:
        f.write("1")                    # PTE accessed bits and PG_referenced
    mapped0 = sum(present(e) for e in pagemap(a, n))
    c0 = stable_counters()
    for _ in range(3):
        try:
            with open("/sys/fs/cgroup/ft-unmap-counters/memory.reclaim", "w") as f:
                f.write("%d" % (2 * size))
        except OSError:
            pass        # EAGAIN: not all of it; what went is counted below
    c1 = stable_counters()
    pm = pagemap(a, n)
    gone = sum(1 for i in keep if not present(pm[i]))
    d = {k: c1[k] - c0[k] for k in c1}
    print("large=%d mapped=%d gone=%d calls=%d single=%d small=%d hugetlb=%d "
          "order0=%d partial=%d off=%d batches=%d nonpresent=%d "
          "ksingle=%d ksmall=%d khugetlb=%d korder0=%d kpartial=%d kbatches=%d" % (
              large, mapped0, gone, d["unmap_calls"], d["unmap_single_ptes"],
              d["unmap_nobatch_small"], d["unmap_nobatch_hugetlb"],
              d["unmap_batch_order0"], d["unmap_nobatch_partial"],
              d["unmap_nobatch_off"], d["unmap_batches"],
              d["unmap_nobatch_nonpresent"],
              d["unmap_kernel_single_ptes"], d["unmap_kernel_nobatch_small"],
              d["unmap_kernel_nobatch_hugetlb"], d["unmap_kernel_batch_order0"],
              d["unmap_kernel_nobatch_partial"], d["unmap_kernel_batches"]))


def case_near(path):
    n = 256                             # 1 MiB: 64 windows of 16K
    fd = os.open(path, os.O_RDWR)
    m = mmap.mmap(fd, n * PAGE, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    # the fault position is kept per CPU: stay on one
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    # twice, the first time to warm up: a first run also faults in parts
    # of the interpreter's own read-only data, file read faults that
    # would move this CPU's position between two of ours
    for _ in range(2):
        # the window is aligned in the address space: a mapping that does
        # not start on 16K starts and ends with a shorter one
        a = addr_of(m)
        out = ["windows=%d" % len({(a + i * PAGE) // (4 * PAGE) for i in range(n)})]
        for name, step in (("seq", 1), ("stride16", 16)):
            madvise(m, MADV_DONTNEED)
            c0 = counters()
            for i in range(0, n, step):
                m[i * PAGE]
            c1 = counters()
            out.append("%s_faults=%d %s_near=%d" % (
                name, delta(c0, c1, "fa_read_faults"),
                name, delta(c0, c1, "fa_read_faults_near")))
    print(" ".join(out))


if __name__ == "__main__":
    case = sys.argv[1]
    # a last argument "linux7": Linux 7's large file folios (the top)
    linux7 = sys.argv[-1] == "linux7"
    args = sys.argv[2:len(sys.argv) - linux7]
    if case == "partial":
        case_partial(args[0], linux7)
    elif case == "dirty":
        case_dirty()
    elif case == "lazyfree":
        case_lazyfree()
    elif case == "swap":
        case_swap()
    elif case == "tlb":
        case_tlb(*args, linux7=linux7)
    elif case == "single":
        case_single(args[0], linux7)
    elif case == "near":
        case_near(sys.argv[2])
    elif case == "pager":
        case_pager(sys.argv[2], float(sys.argv[3]))
    else:
        sys.exit("unknown case " + case)
