// SPDX-License-Identifier: GPL-2.0
/*
 * ft_rel_poison.c - ft_rel poison: MADV_HWPOISON a page of a large file,
 * anon or hugetlb folio and check what the kernel made of it (usage in
 * ft_rel.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "ft_rel.h"

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
int poison_file(const char *dir, const char *kind)
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
int poison_anon(const char *kind)
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

int poison_hugetlb(bool shared)
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
