// SPDX-License-Identifier: GPL-2.0
/*
 * ft_rel - workloads for foliotune's reliability suites
 * (the suites in tests/guest/reliability/).  Built on the host (make
 * progs), run as root in the test box.
 *
 *   ft_rel mapload DIR MB SECONDS
 *	Reclaim-heavy and verified: a MAP_SHARED xfs file (MADV_HUGEPAGE, so
 *	readahead makes large folios, mapped at 2M+64K so they are PTE-mapped)
 *	and an anon THP/mTHP region, touched, partly rewritten and
 *	MADV_PAGEOUTed in a loop; every page carries a generation stamp that
 *	must read back.  SIGTERM ends the loop early (the final check on
 *	disk still runs).  Exit 0 iff no mismatch.
 *
 *   ft_rel poison KIND DIR
 *	madvise(MADV_HWPOISON) one tail page of a large folio (file: xfs large
 *	folio; anon: THP/mTHP; hugetlb: MAP_HUGETLB or a hugetlbfs memfd),
 *	then check the kernel's answer: a clean file page is dropped and
 *	re-read from disk intact; an anon or hugetlb page raises SIGBUS on
 *	access; every other page keeps its contents.  KIND file-dirty (under
 *	writeback), file-pinned and anon-pinned (a vmsplice reference held)
 *	usually leave the folio unsplit (EHWPOISON, PG_has_hwpoisoned): it is
 *	then paged out, so that reclaim unmaps a large folio with a poisoned
 *	page.  Exit 0 iff all that holds.
 *
 *   ft_rel pin hugetlb|file|anon DIR SECONDS
 *	Pin pages of a compound folio while reclaim and poison run around
 *	them: O_DIRECT reads into and writes out of the buffer (short-term
 *	FOLL_PIN), vmsplice() into a pipe held across munmap and hole punch
 *	(FOLL_GET references outliving the mapping), io_uring fixed buffers
 *	(FOLL_LONGTERM) with READ_FIXED, a second mapping mapped and unmapped
 *	in a loop (mapcount churn), MADV_PAGEOUT of the buffer, and one
 *	MADV_HWPOISON of a page nobody pins.  Everything is released before
 *	exit; the caller then shrinks pools and compares counters.
 *
 *   ft_rel flip DIR [SECONDS [KNOB...]]
 *	Write a random valid value to every known knob in DIR (the debugfs
 *	directory; only the KNOBs named, if any), then sleep a random 10-100
 *	ms; repeat until SIGTERM or SECONDS (0: no limit).  Prints "flips N refused M rounds R mean_period_ms P" at the
 *	end; a refused valid write is a failure (exit 1).
 *
 *   ft_rel knobcheck FILE
 *	Every malformed, out-of-range, oversized, offset, continued and
 *	bad-pointer write to a knob, in one process: each must fail with
 *	EINVAL or ERANGE (EFAULT for the bad pointer) and leave the value
 *	unchanged.  One line per case that did not, then "knobcheck: N cases,
 *	A accepted, W wrong errno, C changed the value".  Exit 1 if any.
 *
 *   ft_rel hammer FILE SECONDS VALUE...
 *	Three processes write the valid VALUEs, three write malformed ones,
 *	two read, all at once for SECONDS.  A refused valid write, an accepted
 *	bad one, or a read that is not one of the VALUEs (or the value found
 *	at the start) is an error.  Prints "good E/N bad E/N read E/N"
 *	(errors/attempts); exit 1 if any error.
 *
 *   ft_rel rawio FILE
 *	Odd but legal I/O on a (debugfs) file, one result line each:
 *	"efault-write ERR" (write from an unmapped address), "efault-read ERR",
 *	"bytewise same|differs" (1-byte reads reassemble the same text as one
 *	big read), "eof-read N" (pread far past the end), "seek-read same|differs"
 *	(lseek back to 0 and re-read), "big-read N" (1 MiB buffer).
 *
 *   ft_rel hold FILE MS COUNT
 *	Open FILE, print "open", then pread() it every MS ms, COUNT times or
 *	until SIGTERM, printing "read N" or "read ERRNAME" per attempt; "close"
 *	at the end.
 *	Used to hold debugfs files open across disable + rmmod.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <liburing.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ft_common.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MFD_HUGETLB
#define MFD_HUGETLB 4U
#endif
#ifndef BUS_MCEERR_AR
#define BUS_MCEERR_AR 4
#define BUS_MCEERR_AO 5
#endif

static int failures;
static volatile sig_atomic_t stop;	/* SIGTERM/SIGINT: finish and verify */

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

#define fail(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); failures++; } while (0)
#define note(...) do { printf(__VA_ARGS__); printf("\n"); fflush(stdout); } while (0)

static void die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* ---- SIGBUS: action-optional ones are counted, action-required ones
 * jump back to the probe that touched the page. */

static sigjmp_buf probe_env;
static volatile sig_atomic_t probing;
/* Set around madvise(MADV_HWPOISON): the kernel kills (SIGBUS, BUS_MCEERR_AR
 * for MF_ACTION_REQUIRED) the process that maps a poisoned dirty or anon
 * page on its way out of the system call; that signal is expected. */
static volatile sig_atomic_t expect_mce;
static atomic_int sigbus_ao, sigbus_ar, sigbus_inject;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig; (void)uc;
	if (expect_mce) {
		atomic_fetch_add(&sigbus_inject, 1);
		return;
	}
	if (si->si_code == BUS_MCEERR_AO) {
		atomic_fetch_add(&sigbus_ao, 1);
		return;
	}
	atomic_fetch_add(&sigbus_ar, 1);
	if (probing)
		siglongjmp(probe_env, 1);
	static const char m[] = "FAIL: unexpected SIGBUS\n";
	(void)!write(1, m, sizeof(m) - 1);
	_exit(3);
}

static void sigbus_install(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };

	sigaction(SIGBUS, &sa, NULL);
}

/* Read one word at p; returns 0 and *v, or -1 if the access raised SIGBUS. */
static int probe_read(volatile uint64_t *p, uint64_t *v)
{
	if (sigsetjmp(probe_env, 1)) {
		probing = 0;
		return -1;
	}
	probing = 1;
	*v = *p;
	probing = 0;
	return 0;
}

/* ---- pagemap / kpageflags ---------------------------------------------- */

/* Order of the folio mapped at addr (0 if small or unmapped), found by
 * walking back to the head and forward over tails (within the mapping). */
static int folio_order_at(char *base, size_t len, char *addr)
{
	uint64_t pfn = ft_pfn_of(addr), f = ft_kpageflags(pfn), n = 1;
	char *p;

	if (!(f & (1ULL << FT_KPF_COMPOUND_HEAD | 1ULL << FT_KPF_COMPOUND_TAIL)))
		return 0;
	while (f & (1ULL << FT_KPF_COMPOUND_TAIL) && addr > base) {
		addr -= FT_PAGE;
		if (ft_pfn_of(addr) != pfn - 1)
			break;
		pfn--;
		f = ft_kpageflags(pfn);
	}
	for (p = addr + FT_PAGE; p < base + len; p += FT_PAGE, n++)
		if (ft_pfn_of(p) != pfn + n ||
		    !(ft_kpageflags(pfn + n) & (1ULL << FT_KPF_COMPOUND_TAIL)))
			break;
	return __builtin_ctzll(n) == 63 ? 0 : 63 - __builtin_clzll(n);
}

/* ---- data --------------------------------------------------------------- */

static inline uint64_t stamp(uint64_t off, uint64_t gen)
{
	return (off * 0x9E3779B97F4A7C15ULL) ^ (gen << 48) ^ 0x5a5aULL;
}

static void fill(char *buf, size_t len, uint64_t off0, uint64_t gen)
{
	for (size_t o = 0; o < len; o += FT_PAGE) {
		uint64_t *w = (uint64_t *)(buf + o);

		w[0] = stamp(off0 + o, gen);
		w[FT_PAGE / 8 - 1] = ~stamp(off0 + o, gen);
	}
}

static int check_page(const char *p, uint64_t off, uint64_t gen)
{
	const uint64_t *w = (const uint64_t *)p;

	return w[0] == stamp(off, gen) && w[FT_PAGE / 8 - 1] == ~stamp(off, gen);
}

static int make_file(const char *path, size_t len, uint64_t gen)
{
	char *buf = aligned_alloc(FT_PMD, FT_PMD);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || !buf)
		die(path);
	for (size_t o = 0; o < len; o += FT_PMD) {
		size_t n = len - o < FT_PMD ? len - o : FT_PMD;

		fill(buf, n, o, gen);
		if (pwrite(fd, buf, n, o) != (ssize_t)n)
			die("pwrite");
	}
	if (fsync(fd))
		die("fsync");
	posix_fadvise(fd, 0, len, POSIX_FADV_DONTNEED);
	free(buf);
	return fd;
}

/* A mapping of len bytes at 2M + skew (64K: large folios PTE-mapped). */
static char *map_at_offset(size_t len, int prot, int flags, int fd, off_t off, size_t skew)
{
	char *p = ft_map_shifted(len, skew, prot, flags, fd, off);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

/* ---- mapload -------------------------------------------------------------- */

static int cmd_mapload(const char *dir, size_t mb, int secs)
{
	char path[4096];
	size_t flen = mb << 20, alen = flen / 2, np = flen / FT_PAGE, na = alen / FT_PAGE;
	uint16_t *fgen = calloc(np, 2), *agen = calloc(na, 2);
	double end = ft_now() + secs;
	unsigned long iters = 0, seed = getpid();
	char *f, *a;
	int fd;

	snprintf(path, sizeof(path), "%s/ft_rel_mapload.%d", dir, getpid());
	fd = make_file(path, flen, 0);
	f = map_at_offset(flen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0, 64 << 10);
	madvise(f, flen, MADV_HUGEPAGE);
	a = map_at_offset(alen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, 0);
	madvise(a, alen, MADV_HUGEPAGE);
	fill(a, alen, 0, 0);

	while (ft_now() < end && !stop && failures < 10) {
		for (size_t i = 0; i < np; i++)
			if (!check_page(f + i * FT_PAGE, i * FT_PAGE, fgen[i]))
				fail("file page %zu: stamp mismatch (gen %u) after %lu iterations",
				     i, fgen[i], iters);
		for (size_t i = 0; i < na; i++)
			if (!check_page(a + i * FT_PAGE, i * FT_PAGE, agen[i]))
				fail("anon page %zu: stamp mismatch (gen %u) after %lu iterations",
				     i, agen[i], iters);
		/* Rewrite a random eighth of the pages. */
		for (size_t k = 0; k < np / 8; k++) {
			size_t i;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			i = (seed >> 33) % np;
			fill(f + i * FT_PAGE, FT_PAGE, i * FT_PAGE, ++fgen[i]);
			if (i < na)
				fill(a + i * FT_PAGE, FT_PAGE, i * FT_PAGE, ++agen[i]);
		}
		if (iters % 4 == 3)
			msync(f, flen, MS_SYNC);
		madvise(f, flen, MADV_PAGEOUT);
		madvise(a, alen, MADV_PAGEOUT);
		iters++;
	}
	/* The file must also be right on disk. */
	msync(f, flen, MS_SYNC);
	munmap(f, flen);
	posix_fadvise(fd, 0, flen, POSIX_FADV_DONTNEED);
	{
		char *buf = malloc(FT_PAGE);

		for (size_t i = 0; i < np && failures < 10; i++)
			if (pread(fd, buf, FT_PAGE, i * FT_PAGE) != (ssize_t)FT_PAGE ||
			    !check_page(buf, i * FT_PAGE, fgen[i]))
				fail("file page %zu wrong on disk (gen %u)", i, fgen[i]);
		free(buf);
	}
	munmap(a, alen);
	close(fd);
	unlink(path);
	note("mapload: %lu iterations over %zu MB file + %zu MB anon, %d failures",
	     iters, mb, mb / 2, failures);
	return failures ? 1 : 0;
}

/* ---- poison --------------------------------------------------------------- */

/* Find a mapped tail page of a large folio in [p, p+len); NULL if none. */
static char *find_tail(char *p, size_t len, size_t skip_from, size_t skip_len)
{
	for (size_t o = FT_PAGE; o < len; o += FT_PAGE) {
		if (o >= skip_from && o < skip_from + skip_len)
			continue;
		if (ft_kpageflags(ft_pfn_of(p + o)) & (1ULL << FT_KPF_COMPOUND_TAIL))
			return p + o;
	}
	return NULL;
}

/*
 * Poison one page.  Returns 0 if the kernel handled it (the folio was split
 * and the page isolated), 1 if it answered EHWPOISON: the page is marked
 * but its large folio could not be split ("unsplit thp": pinned, dirty
 * under writeback...) and stays mapped, with PG_has_hwpoisoned set; -1 on
 * any other error.
 */
static int poison_one(char *page, const char *what)
{
	uint64_t pfn = ft_pfn_of(page);
	uint64_t f = ft_kpageflags(pfn);
	int r, err;

	note("%s: poisoning pfn=0x%" PRIx64 " flags=0x%" PRIx64 " (%s%s%s)", what, pfn, f,
	     f & (1ULL << FT_KPF_COMPOUND_TAIL) ? "tail" : "not-tail",
	     f & (1ULL << FT_KPF_HUGE) ? ",hugetlb" : "", f & (1ULL << FT_KPF_THP) ? ",thp" : "");
	expect_mce = 1;
	r = madvise(page, FT_PAGE, MADV_HWPOISON);
	err = errno;
	expect_mce = 0;
	note("%s: madvise: %s; SIGBUS while injecting: %d", what, r ? strerror(err) : "ok",
	     atomic_load(&sigbus_inject));
	if (r && err != EHWPOISON) {
		fail("%s: madvise(MADV_HWPOISON): %s", what, strerror(err));
		return -1;
	}
	if (!(ft_kpageflags(pfn) & (1ULL << FT_KPF_HWPOISON)))
		fail("%s: pfn 0x%" PRIx64 " not marked HWPoison in kpageflags", what, pfn);
	return r ? 1 : 0;
}

/* Every page but the poisoned one(s) in [bad, bad+badlen) must read right. */
static void verify_rest(char *p, size_t len, char *bad, size_t badlen, uint64_t gen,
			const char *what)
{
	int wrong = 0, bus = 0;

	for (size_t o = 0; o < len; o += FT_PAGE) {
		uint64_t v;

		if (p + o >= bad && p + o < bad + badlen)
			continue;
		if (probe_read((volatile uint64_t *)(p + o), &v)) {
			bus++;
			continue;
		}
		if (!check_page(p + o, o, gen))
			wrong++;
	}
	if (wrong || bus)
		fail("%s: %d healthy pages read wrong, %d raised SIGBUS", what, wrong, bus);
	else
		note("%s: all %zu healthy pages intact", what, len / FT_PAGE - badlen / FT_PAGE);
}

/*
 * An unsplit poisoned folio (poison_one() == 1) is still mapped and large:
 * reclaiming it runs try_to_unmap() on a folio with PG_has_hwpoisoned (the
 * replacement must not batch it).  Pages out the range three times.
 */
static void reclaim_unsplit(char *p, size_t len, const char *what)
{
	for (int i = 0; i < 3; i++) {
		msync(p, len, MS_SYNC);
		madvise(p, len, MADV_PAGEOUT);
	}
	note("%s: unsplit poisoned folio paged out (MADV_PAGEOUT x3)", what);
}

/* A vmsplice reference on the page (a pin held by the pipe)... */
static void pipe_pin(char *page, int pfd[2])
{
	struct iovec iov = { page, FT_PAGE };

	if (pipe(pfd) || vmsplice(pfd[1], &iov, 1, 0) != (ssize_t)FT_PAGE)
		die("vmsplice pin");
}

/* ... and its release: the page (at offset off) must come out intact. */
static void pipe_unpin(int pfd[2], uint64_t off, const char *kind)
{
	char buf[FT_PAGE];

	if (read(pfd[0], buf, FT_PAGE) != (ssize_t)FT_PAGE || !check_page(buf, off, 0))
		fail("%s: page held by the pipe changed", kind);
	close(pfd[0]);
	close(pfd[1]);
}

/*
 * Poison the tail page of the large folio at p (pinned: with the next page
 * held by a pipe across it); poison_one()'s answer.
 */
static int poison_tail(char *p, char *tail, bool pinned, const char *kind)
{
	int r, pfd[2];

	if (pinned)
		pipe_pin(tail + FT_PAGE, pfd);
	r = poison_one(tail, kind);
	if (r < 0)
		return r;
	if (pinned)
		pipe_unpin(pfd, tail + FT_PAGE - p, kind);
	note("%s: %s", kind, r ? "folio kept large (unsplit), poisoned page still mapped"
			       : "folio split, poisoned page isolated");
	return r;
}

/*
 * kind: "file" (clean), "file-dirty" (a dirty page under writeback),
 * "file-pinned" (a vmsplice reference on the folio while poisoning).
 */
static int poison_file(const char *dir, const char *kind)
{
	bool dirty = !strcmp(kind, "file-dirty"), pinned = !strcmp(kind, "file-pinned");
	char path[4096];
	size_t len = 8 << 20;
	char *p, *tail;
	uint64_t v;
	int fd, order, r;

	snprintf(path, sizeof(path), "%s/ft_rel_poison.%d", dir, getpid());
	fd = make_file(path, len, 0);
	p = map_at_offset(len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0, 64 << 10);
	madvise(p, len, MADV_HUGEPAGE);
	for (size_t o = 0; o < len; o += FT_PAGE)
		(void)*(volatile char *)(p + o);
	tail = find_tail(p, len, 0, 0);
	if (!tail) {
		fail("%s: no large folio in the page cache (xfs large folios?)", kind);
		goto out;
	}
	order = folio_order_at(p, len, tail);
	note("%s: tail page at offset %td of an order-%d folio", kind, tail - p, order);
	if (dirty) {
		/* Dirty it (same stamps) and start writeback. */
		fill(tail, FT_PAGE, tail - p, 0);
		msync(tail, FT_PAGE, MS_ASYNC);
	}
	r = poison_tail(p, tail, pinned, kind);
	if (r < 0)
		goto out;
	if (r) {
		reclaim_unsplit(p, len, kind);
	} else if (!dirty) {
		/* Clean page cache: dropped, refaults from disk intact. */
		if (probe_read((volatile uint64_t *)tail, &v))
			fail("%s: clean poisoned page raised SIGBUS on re-read", kind);
		else if (!check_page(tail, tail - p, 0))
			fail("%s: clean poisoned page re-read with wrong data", kind);
		else
			note("%s: clean poisoned page dropped and re-read intact", kind);
	} else {
		note("%s: poisoned dirty page %s", kind,
		     probe_read((volatile uint64_t *)tail, &v) ? "raises SIGBUS" : "readable (refaulted)");
	}
	verify_rest(p, len, tail, FT_PAGE, 0, kind);
out:
	munmap(p, len);
	close(fd);
	unlink(path);
	return failures ? 1 : 0;
}

/* kind: "anon", "anon-pinned" (vmsplice reference held while poisoning). */
static int poison_anon(const char *kind)
{
	bool pinned = !strcmp(kind, "anon-pinned");
	size_t len = 8 << 20;
	char *p = map_at_offset(len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, 0);
	char *tail;
	uint64_t v;
	int r;

	madvise(p, len, MADV_HUGEPAGE);
	fill(p, len, 0, 0);
	tail = find_tail(p, len, 0, 0);
	if (!tail) {
		fail("%s: no THP/mTHP folio (check transparent_hugepage settings)", kind);
		return 1;
	}
	note("%s: tail page at offset %td of an order-%d folio", kind, tail - p,
	     folio_order_at(p, len, tail));
	r = poison_tail(p, tail, pinned, kind);
	if (r < 0)
		return 1;
	if (r) {
		reclaim_unsplit(p, len, kind);
	} else if (probe_read((volatile uint64_t *)tail, &v) == 0) {
		fail("%s: poisoned page still readable", kind);
	} else {
		note("%s: poisoned page raises SIGBUS", kind);
	}
	verify_rest(p, len, tail, FT_PAGE, 0, kind);
	munmap(p, len);
	return failures ? 1 : 0;
}

static int poison_hugetlb(bool shared)
{
	size_t len = 2 * FT_PMD;
	int fd = -1;
	char *p, *bad;
	uint64_t v;

	if (shared) {
		fd = memfd_create("ft_rel_hugetlb", MFD_HUGETLB);
		if (fd < 0 || ftruncate(fd, len))
			die("memfd_create(MFD_HUGETLB)");
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	} else {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	}
	if (p == MAP_FAILED)
		die("mmap hugetlb (nr_hugepages?)");
	fill(p, len, 0, 0);
	bad = p + 5 * FT_PAGE;
	if (poison_one(bad, shared ? "hugetlb-shared" : "hugetlb"))
		return 1;
	/* The whole huge page is lost to the process. */
	if (probe_read((volatile uint64_t *)bad, &v) == 0)
		fail("hugetlb: poisoned huge page still readable");
	else
		note("hugetlb: poisoned huge page raises SIGBUS");
	verify_rest(p, len, p, FT_PMD, 0, shared ? "hugetlb-shared" : "hugetlb");
	munmap(p, len);
	if (fd >= 0)
		close(fd);
	return failures ? 1 : 0;
}

/* ---- pin ------------------------------------------------------------------- */

struct pin_ctx {
	const char *kind;
	char *buf;		/* the compound-page buffer being pinned */
	size_t len;
	int bfd;		/* its memfd / file (or -1 for anon) */
	int dfd;		/* O_DIRECT data file on xfs */
	char dpath[4096];
	double end;
	atomic_ulong n_dio, n_splice, n_uring, n_churn, n_pageout;
	atomic_int uring_unsupported;
};

/* Layout of buf (in units of len/8): [0,2) O_DIRECT target,
 * [2,4) O_DIRECT source, [4,5) vmsplice source (constant), [5,6) untouched
 * (poisoned once), [6,8) io_uring fixed buffer. */
#define PART(c, i) ((c)->buf + (c)->len / 8 * (i))

static void *pin_dio(void *arg)
{
	struct pin_ctx *c = arg;
	size_t chunk = c->len / 8;

	while (ft_now() < c->end && !stop && failures < 10) {
		/* Write out of the buffer (pins its pages as the source)... */
		if (pwrite(c->dfd, PART(c, 2), 2 * chunk, 0) != (ssize_t)(2 * chunk))
			fail("%s: O_DIRECT pwrite: %s", c->kind, strerror(errno));
		/* ... and read it back into another part (pinned as target). */
		if (pread(c->dfd, PART(c, 0), 2 * chunk, 0) != (ssize_t)(2 * chunk))
			fail("%s: O_DIRECT pread: %s", c->kind, strerror(errno));
		else if (memcmp(PART(c, 0), PART(c, 2), 2 * chunk))
			fail("%s: O_DIRECT round trip mismatch", c->kind);
		atomic_fetch_add(&c->n_dio, 1);
	}
	return NULL;
}

static void *pin_splice(void *arg)
{
	struct pin_ctx *c = arg;
	size_t chunk = 64 << 10;
	char *tmp = malloc(chunk);
	int pfd[2];

	if (pipe(pfd))
		die("pipe");
	fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20);
	while (ft_now() < c->end && !stop && failures < 10) {
		struct iovec iov = { PART(c, 4), chunk };
		ssize_t n = vmsplice(pfd[1], &iov, 1, 0);
		size_t got = 0;

		if (n != (ssize_t)chunk) {
			fail("%s: vmsplice: %zd (%s)", c->kind, n, strerror(errno));
			break;
		}
		usleep(2000);	/* references held while the others churn */
		while (got < chunk) {
			n = read(pfd[0], tmp + got, chunk - got);
			if (n <= 0) {
				fail("%s: pipe read: %s", c->kind, strerror(errno));
				break;
			}
			got += n;
		}
		if (memcmp(tmp, PART(c, 4), chunk))
			fail("%s: vmsplice data mismatch", c->kind);
		atomic_fetch_add(&c->n_splice, 1);
	}
	close(pfd[0]);
	close(pfd[1]);
	free(tmp);
	return NULL;
}

static void *pin_uring(void *arg)
{
	struct pin_ctx *c = arg;
	struct io_uring ring;
	struct iovec iov = { PART(c, 6), 2 * (c->len / 8) };
	int ret;

	if (io_uring_queue_init(8, &ring, 0)) {
		note("%s: io_uring not available: fixed-buffer pins not exercised", c->kind);
		atomic_store(&c->uring_unsupported, 1);
		return NULL;
	}
	while (ft_now() < c->end && !stop && failures < 10) {
		struct io_uring_sqe *sqe;
		struct io_uring_cqe *cqe;

		ret = io_uring_register_buffers(&ring, &iov, 1);
		if (ret) {
			/* Longterm pins of file-backed shared memory are refused. */
			note("%s: io_uring_register_buffers: %s: fixed-buffer pins not exercised",
			     c->kind, strerror(-ret));
			atomic_store(&c->uring_unsupported, 1);
			break;
		}
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read_fixed(sqe, c->dfd, iov.iov_base, iov.iov_len, 0, 0);
		io_uring_submit(&ring);
		if (io_uring_wait_cqe(&ring, &cqe) == 0) {
			if (cqe->res != (int)iov.iov_len)
				fail("%s: READ_FIXED: %d", c->kind, cqe->res);
			io_uring_cqe_seen(&ring, cqe);
		}
		usleep(1000);
		io_uring_unregister_buffers(&ring);
		atomic_fetch_add(&c->n_uring, 1);
	}
	io_uring_queue_exit(&ring);
	return NULL;
}

static int cmd_pin(const char *kind, const char *dir, int secs)
{
	struct pin_ctx c = { .kind = kind, .bfd = -1 };
	pthread_t th[3];
	char fpath[4096];
	size_t npages = 8;
	bool hugetlb = !strcmp(kind, "hugetlb"), file = !strcmp(kind, "file");

	c.len = npages * FT_PMD;
	c.end = ft_now() + secs;
	snprintf(c.dpath, sizeof(c.dpath), "%s/ft_rel_pin_data.%d", dir, getpid());
	c.dfd = open(c.dpath, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0600);
	if (c.dfd < 0 || ftruncate(c.dfd, c.len))
		die("O_DIRECT data file");

	if (hugetlb) {
		c.bfd = memfd_create("ft_rel_pin", MFD_HUGETLB);
		if (c.bfd < 0 || ftruncate(c.bfd, c.len))
			die("memfd_create(MFD_HUGETLB) (nr_hugepages?)");
		c.buf = mmap(NULL, c.len, PROT_READ | PROT_WRITE, MAP_SHARED, c.bfd, 0);
		if (c.buf == MAP_FAILED)
			die("mmap hugetlb");
	} else if (file) {
		snprintf(fpath, sizeof(fpath), "%s/ft_rel_pin_buf.%d", dir, getpid());
		c.bfd = make_file(fpath, c.len, 0);
		c.buf = map_at_offset(c.len, PROT_READ | PROT_WRITE, MAP_SHARED, c.bfd, 0, 64 << 10);
		madvise(c.buf, c.len, MADV_HUGEPAGE);
	} else {
		c.buf = map_at_offset(c.len, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, 0);
		madvise(c.buf, c.len, MADV_HUGEPAGE);
	}
	fill(c.buf, c.len, 0, 0);
	{
		char *t = find_tail(c.buf, c.len, 0, 0);

		note("%s: buffer %zu MB, large folios: %s (order %d)", kind, c.len >> 20,
		     t ? "yes" : "NO", t ? folio_order_at(c.buf, c.len, t) : 0);
		if (!t)
			fail("%s: no compound pages in the buffer", kind);
	}

	pthread_create(&th[0], NULL, pin_dio, &c);
	pthread_create(&th[1], NULL, pin_splice, &c);
	pthread_create(&th[2], NULL, pin_uring, &c);

	/* Around the pins: mapcount churn, reclaim, one poison. */
	{
		bool poisoned = false;
		int pfd[2];

		if (pipe(pfd))
			die("pipe");
		while (ft_now() < c.end && !stop && failures < 10) {
			if (c.bfd >= 0 && !hugetlb) {
				char *m = mmap(NULL, c.len, PROT_READ, MAP_SHARED, c.bfd, 0);

				if (m != MAP_FAILED) {
					for (size_t o = 0; o < c.len; o += 16 * FT_PAGE)
						if (o / (c.len / 8) != 5)
							(void)*(volatile char *)(m + o);
					munmap(m, c.len);
				}
			} else if (hugetlb) {
				char *m = mmap(NULL, c.len, PROT_READ, MAP_SHARED, c.bfd, 0);

				if (m != MAP_FAILED) {
					for (size_t o = 0; o < c.len; o += FT_PMD)
						if (o / (c.len / 8) != 5)
							(void)*(volatile char *)(m + o);
					munmap(m, c.len);
				}
			}
			atomic_fetch_add(&c.n_churn, 1);
			madvise(c.buf, c.len, MADV_PAGEOUT);
			atomic_fetch_add(&c.n_pageout, 1);
			if (!poisoned && ft_now() > c.end - secs / 2.0) {
				/*
				 * A page nobody pins or reads any more.  Its
				 * large folio may be unsplittable for a moment
				 * (a reference from an LRU batch or from
				 * reclaim; stock too): then EHWPOISON, the
				 * page marked and its folio kept whole.  Not
				 * poison_one(): MADV_PAGEOUT may just have
				 * unmapped the page, so it has no pfn to check.
				 */
				char *v = PART(&c, 5) + 3 * FT_PAGE;
				int r;

				expect_mce = 1;
				r = madvise(v, FT_PAGE, MADV_HWPOISON);
				expect_mce = 0;
				if (r && errno != EHWPOISON)
					fail("%s: MADV_HWPOISON: %s", kind, strerror(errno));
				else
					note("%s: poisoned one page beside the pinned ones (%s)", kind,
					     r ? "EHWPOISON: its folio stayed unsplit" : "split");
				poisoned = true;
			}
			usleep(5000);
		}
		if (!poisoned)
			fail("%s: the loop ended before the poison", kind);
		/* A vmsplice reference that outlives the mapping and the
		 * file's pages: splice a pinned part, unmap and punch, then
		 * drain the pipe after everything else is gone. */
		{
			struct iovec iov = { PART(&c, 4), 64 << 10 };

			if (vmsplice(pfd[1], &iov, 1, 0) != (ssize_t)iov.iov_len)
				fail("%s: final vmsplice: %s", kind, strerror(errno));
		}
		for (int i = 0; i < 3; i++)
			pthread_join(th[i], NULL);
		munmap(c.buf, c.len);
		if (c.bfd >= 0) {
			if (hugetlb)
				fallocate(c.bfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, c.len);
			close(c.bfd);
		}
		if (file) {
			unlink(fpath);
		}
		{
			char *tmp = malloc(64 << 10);
			ssize_t n = read(pfd[0], tmp, 64 << 10);

			if (n != 64 << 10)
				fail("%s: draining the last vmsplice: %zd", kind, n);
			else if (!check_page(tmp, 4 * (c.len / 8), 0))
				fail("%s: page held only by the pipe changed", kind);
			free(tmp);
		}
		close(pfd[0]);
		close(pfd[1]);
	}
	close(c.dfd);
	unlink(c.dpath);
	note("%s: %lu O_DIRECT rounds, %lu vmsplice rounds, %lu io_uring rounds%s, %lu remaps, %lu pageouts, SIGBUS at injection %d AO %d AR %d, %d failures",
	     kind, c.n_dio, c.n_splice, c.n_uring,
	     atomic_load(&c.uring_unsupported) ? " (unsupported)" : "",
	     c.n_churn, c.n_pageout, sigbus_inject, sigbus_ao, sigbus_ar, failures);
	if (!c.n_dio || !c.n_splice)
		fail("%s: a pinning thread never completed a round", kind);
	return failures ? 1 : 0;
}

/* ---- flip ------------------------------------------------------------------ */

static int cmd_flip(const char *dir, int secs, int nonly, char **only)
{
	static const struct { const char *name; unsigned int kind; } knobs[] = {
		{ "unmap_batch", 3 }, { "fault_around_auto", 2 }, { "fault_around_mkold", 3 },
		{ "fault_around_bytes", 0 }, { "fault_around_auto_max_bytes", 0 },
		{ "reclaim_probes", 2 }, { "fault_around_auto_age", 2 },
		{ "referenced_batch", 3 },
	};
	unsigned long flips = 0, refused = 0, rounds = 0;
	double t0 = ft_now(), end = secs > 0 ? t0 + secs : 1e300;
	unsigned int seed = getpid() ^ (unsigned int)t0;

	while (!stop && ft_now() < end) {
		for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
			char path[4096], val[32];
			unsigned long v;
			int fd, n;

			if (nonly) {
				int found = 0;

				for (int j = 0; j < nonly; j++)
					found |= !strcmp(only[j], knobs[i].name);
				if (!found)
					continue;
			}
			snprintf(path, sizeof(path), "%s/%s", dir, knobs[i].name);
			fd = open(path, O_WRONLY);
			if (fd < 0)
				continue;	/* knob not provided by this module */
			v = knobs[i].kind ? (unsigned long)rand_r(&seed) % knobs[i].kind
					  : 4096UL << (rand_r(&seed) % 10);
			n = snprintf(val, sizeof(val), "%lu\n", v);
			if (write(fd, val, n) == n)
				flips++;
			else {
				refused++;
				printf("refused: %s <- %lu: %s\n", knobs[i].name, v, strerror(errno));
			}
			close(fd);
		}
		rounds++;
		usleep((10 + rand_r(&seed) % 91) * 1000);
	}
	printf("flips %lu refused %lu rounds %lu mean_period_ms %.1f\n", flips, refused, rounds,
	       rounds ? (ft_now() - t0) * 1000 / rounds : 0.0);
	return refused ? 1 : 0;
}

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

/* ---- knobcheck --------------------------------------------------------------- */

static int cmd_knobcheck(const char *path)
{
	static const struct { const char *v; size_t len; } bad[] = {
#define B(s) { s, sizeof(s) - 1 }
		B(""), B(" "), B("\t"), B("\n"), B("\n\n"), B("\r\n"), B(" \n"), B("1\r"),
		B("1\r\n"), B("\t1"), B("1\t"), B("1 "), B(" 1"), B("1\n1"), B("-0"), B("+0"),
		B("-1"), B("--1"), B("+1"), B("0x0"), B("0X1"), B("0b1"), B("0o1"), B("01x"),
		B("1e0"), B("1."), B(".1"), B("1,0"), B("1_0"), B("\xd9\xa1"), B("\xef\xbc\x91"),
		B("1\0"), B("\0" "1"), B("\0"), B("\xff"), B("true"), B("yes"), B("on"), B("nan"),
		B("inf"), B("18446744073709551615"), B("18446744073709551616"),
		B("99999999999999999999"), B("999999999999999999999"), B("4294967296"),
		B("2147483648"), B("000000000000000000001\n"), B("1\n\0"),
#undef B
	};
	static char big[1 << 20];
	char v0[64], v[64], label[64];
	int cases = 0, accepted = 0, wrong = 0, changed = 0;
	size_t sizes[] = { 22, 4096, 65536, 1 << 20 };

	if (ft_read_file(path, v0, sizeof(v0)) < 0)
		die(path);
	/* One write at offset OFF; check errno and the value after it. */
#define TRY(name, buf, len, off, ok1, ok2) do {					\
		int fd_ = open(path, O_WRONLY), e_ = 0;				\
		ssize_t n_;							\
		if (fd_ < 0)							\
			die(path);						\
		if ((off) && lseek(fd_, (off), SEEK_SET) < 0)			\
			die("lseek");						\
		n_ = write(fd_, (buf), (len));					\
		e_ = errno;							\
		close(fd_);							\
		cases++;							\
		if (n_ >= 0) {							\
			accepted++;						\
			printf("accepted: %s (%zd bytes written)\n", (name), n_); \
		} else if (e_ != (ok1) && e_ != (ok2)) {			\
			wrong++;						\
			printf("wrong errno: %s: %s\n", (name), ename(e_));	\
		}								\
		if (ft_read_file(path, v, sizeof(v)) < 0 || strcmp(v, v0)) {	\
			changed++;						\
			printf("changed: %s: %s -> %s", (name), v0, v);		\
			(void)ft_write_file(path, v0);				\
		}								\
	} while (0)

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(label, sizeof(label), "value #%zu", i);
		TRY(label, bad[i].v, bad[i].len, 0, EINVAL, ERANGE);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(big, '0', sizes[i]);
		big[sizes[i] - 1] = '1';
		snprintf(label, sizeof(label), "%zu-byte number", sizes[i]);
		TRY(label, big, sizes[i], 0, EINVAL, ERANGE);
	}
	memset(big, ' ', 4096);
	memcpy(big, "1\n", 2);
	TRY("value + 4 KiB of spaces", big, 4096, 0, EINVAL, ERANGE);
	TRY("own value at offset 1", v0, strlen(v0), 1, EINVAL, EINVAL);
	TRY("own value at offset 4096", v0, strlen(v0), 4096, EINVAL, EINVAL);
	{
		char *unmapped = mmap(NULL, FT_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		TRY("write from an unmapped buffer", unmapped, 2, 0, EFAULT, EFAULT);
	}
	/* A continued write on one open file. */
	{
		int fd = open(path, O_WRONLY), e;
		ssize_t n1, n2;

		n1 = write(fd, v0, strlen(v0) - 1);	/* without the newline */
		n2 = write(fd, "0", 1);
		e = errno;
		close(fd);
		cases++;
		if (n1 < 0 || n2 >= 0 || e != EINVAL) {
			wrong++;
			printf("continued write: first %zd, second %zd (%s)\n", n1, n2, ename(e));
		}
		if (ft_read_file(path, v, sizeof(v)) < 0 || strcmp(v, v0)) {
			changed++;
			printf("changed: continued write: %s -> %s", v0, v);
			(void)ft_write_file(path, v0);
		}
	}
#undef TRY
	printf("knobcheck: %d cases, %d accepted, %d wrong errno, %d changed the value\n",
	       cases, accepted, wrong, changed);
	return accepted || wrong || changed;
}

/* ---- hammer ------------------------------------------------------------------ */

static int cmd_hammer(const char *path, int secs, int nvals, char **vals)
{
	static const char *const bad[] = { "", "2x", "-1", " 1", "0x1", "1 1", "99999999999999999999999",
					   "\n\n", "abc", "1\t" };
	struct { long n, e; } *res;
	char v0[64];
	double end = ft_now() + secs;
	pid_t pids[8];
	long tot[3][2] = { { 0 } };

	if (ft_read_file(path, v0, sizeof(v0)) < 0)
		die(path);
	res = mmap(NULL, FT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	for (int w = 0; w < 8; w++) {
		pids[w] = fork();
		if (pids[w])
			continue;
		unsigned int seed = getpid();
		long n = 0, e = 0;

		while (ft_now() < end) {
			char buf[64];
			int fd;
			ssize_t r;

			if (w < 3) {		/* good writer */
				const char *v = vals[rand_r(&seed) % nvals];

				fd = open(path, O_WRONLY);
				r = write(fd, v, strlen(v));
				e += r != (ssize_t)strlen(v);
			} else if (w < 6) {	/* bad writer */
				const char *v = bad[rand_r(&seed) % (sizeof(bad) / sizeof(bad[0]))];

				fd = open(path, O_WRONLY);
				r = write(fd, v, strlen(v));
				e += !(r < 0 && (errno == EINVAL || errno == ERANGE));
			} else {		/* reader: "<one of the values>\n" */
				char *endp;
				unsigned long long got;
				int good;

				fd = open(path, O_RDONLY);
				r = read(fd, buf, sizeof(buf) - 1);
				buf[r > 0 ? r : 0] = '\0';
				errno = 0;
				got = strtoull(buf, &endp, 10);
				good = r > 1 && buf[0] >= '0' && buf[0] <= '9' && !errno &&
				       !strcmp(endp, "\n");
				if (good) {
					good = got == strtoull(v0, NULL, 10);
					for (int i = 0; i < nvals && !good; i++)
						good = got == strtoull(vals[i], NULL, 10);
				}
				e += !good;
			}
			close(fd);
			n++;
		}
		res[w].n = n;
		res[w].e = e;
		_exit(0);
	}
	for (int w = 0; w < 8; w++) {
		waitpid(pids[w], NULL, 0);
		tot[w < 3 ? 0 : w < 6 ? 1 : 2][0] += res[w].e;
		tot[w < 3 ? 0 : w < 6 ? 1 : 2][1] += res[w].n;
	}
	printf("good %ld/%ld bad %ld/%ld read %ld/%ld\n", tot[0][0], tot[0][1], tot[1][0], tot[1][1],
	       tot[2][0], tot[2][1]);
	return tot[0][0] || tot[1][0] || tot[2][0];
}

/* ---- rawio ----------------------------------------------------------------- */

static int cmd_rawio(const char *path)
{
	char *bad = mmap(NULL, FT_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static char a[1 << 20], b[1 << 20];
	ssize_t na, nb, n;
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0)
		fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	n = write(fd, bad, 2);
	printf("efault-write %s\n", n < 0 ? ename(errno) : "OK");
	n = pread(fd, bad, 16, 0);
	printf("efault-read %s\n", n < 0 ? ename(errno) : "OK");
	na = pread(fd, a, sizeof(a), 0);
	nb = 0;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, b + nb, 1)) == 1 && nb < (ssize_t)sizeof(b) - 1)
		nb++;
	printf("bytewise %s\n", na >= 0 && na == nb && !memcmp(a, b, na) ? "same" : "differs");
	n = pread(fd, b, 16, 1LL << 40);
	printf("eof-read %zd\n", n);
	lseek(fd, 0, SEEK_SET);
	nb = read(fd, b, sizeof(b));
	printf("seek-read %s\n", nb == na && !memcmp(a, b, na) ? "same" : "differs");
	printf("big-read %zd\n", na);
	close(fd);
	return 0;
}

/* ---- hold ------------------------------------------------------------------ */

static int cmd_hold(const char *path, int ms, int count)
{
	char buf[8192];
	int fd = open(path, O_RDONLY);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fd < 0) {
		printf("open %s\n", ename(errno));
		return 1;
	}
	printf("open\n");
	for (int i = 0; i < count && !stop; i++) {
		ssize_t n = pread(fd, buf, sizeof(buf), 0);

		if (n < 0)
			printf("read %s\n", ename(errno));
		else
			printf("read %zd\n", n);
		usleep(ms * 1000);
	}
	close(fd);
	printf("close\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigbus_install();
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	if (argc == 5 && !strcmp(argv[1], "mapload"))
		return cmd_mapload(argv[2], strtoul(argv[3], NULL, 0), atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "poison")) {
		if (!strncmp(argv[2], "file", 4))
			return poison_file(argv[3], argv[2]);
		if (!strncmp(argv[2], "anon", 4))
			return poison_anon(argv[2]);
		if (!strcmp(argv[2], "hugetlb"))
			return poison_hugetlb(false);
		if (!strcmp(argv[2], "hugetlb-shared"))
			return poison_hugetlb(true);
	}
	if (argc == 5 && !strcmp(argv[1], "pin") &&
	    (!strcmp(argv[2], "hugetlb") || !strcmp(argv[2], "file") || !strcmp(argv[2], "anon")))
		return cmd_pin(argv[2], argv[3], atoi(argv[4]));
	if (argc >= 3 && !strcmp(argv[1], "flip"))
		return cmd_flip(argv[2], argc >= 4 ? atoi(argv[3]) : 0,
				argc > 4 ? argc - 4 : 0, argv + 4);
	if (argc == 3 && !strcmp(argv[1], "knobcheck"))
		return cmd_knobcheck(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "hammer"))
		return cmd_hammer(argv[2], atoi(argv[3]), argc - 4, argv + 4);
	if (argc == 3 && !strcmp(argv[1], "rawio"))
		return cmd_rawio(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "hold"))
		return cmd_hold(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr,
		"usage: ft_rel mapload DIR MB SECONDS\n"
		"       ft_rel poison file|file-dirty|file-pinned|anon|anon-pinned|hugetlb|hugetlb-shared DIR\n"
		"       ft_rel pin hugetlb|file|anon DIR SECONDS\n"
		"       ft_rel flip DIR [SECONDS [KNOB...]]\n"
		"       ft_rel knobcheck FILE\n"
		"       ft_rel hammer FILE SECONDS VALUE...\n"
		"       ft_rel rawio FILE\n"
		"       ft_rel hold FILE MS COUNT\n");
	return 1;
}
