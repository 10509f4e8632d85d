// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_faultaround - helper for tests/guest/test-faultaround.sh.
 *
 *   ft_faultaround prep FILE MB [order0]
 *       Create FILE (MB MiB) filled with ft_pat(1, 1, off).  "order0":
 *       then drop it from the page cache and read it back with
 *       POSIX_FADV_WILLNEED, which allocates order-0 folios.
 *   ft_faultaround drop FILE
 *       fsync FILE and drop it from the page cache (POSIX_FADV_DONTNEED).
 *       Tests use this, not /proc/sys/vm/drop_caches: drop_caches sets
 *       PG_reclaim on dirty folios it cannot drop (tmpfs), and PG_reclaim
 *       is PG_readahead, which makes fault-around skip them from then on.
 *   ft_faultaround fault FILE PAGE [pageout]
 *       Map 1 MiB of FILE MAP_SHARED at a 2 MiB-aligned address, clear the
 *       accessed state of its pages (touch, /proc/self/clear_refs,
 *       MADV_DONTNEED), then read one byte of page PAGE: one read fault.
 *       Prints "rss_kb=N referenced_kb=N" from /proc/self/smaps and the
 *       deltas of foliotune's fa_* counters around the fault (Linux 7 maps
 *       a large folio whole: fa_pages_beyond_window).  "pageout":
 *       then MADV_PAGEOUT the mapping and print the fa_unmap_* and
 *       unmap_calls deltas and rss_after_kb.
 *   ft_faultaround verify FILE SECONDS
 *       Until SECONDS pass, map FILE shared, private and writable and check
 *       every page it touches (sequential, random, strided; COW writes in
 *       the private map, same-value writes in the shared one).  Prints
 *       "ok PAGES" or the first mismatch (exit 1).
 *   ft_faultaround touch seq|strideN|rand FILE SECONDS [exec|dual]
 *       Read faults until SECONDS pass: map FILE shared (PROT_EXEC too with
 *       "exec"; twice with "dual", reading each page through both maps, so
 *       reclaim finds two young PTEs) and read one byte of every page in
 *       order (seq), of every Nth page in order (strideN, e.g. stride16) or
 *       of random pages (rand, npages/16 per pass);
 *       MADV_DONTNEED the mapping after each pass so the next pass faults
 *       again.  Prints "passes N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ft_common.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define VMSTAT "/sys/kernel/debug/foliotune/vmstat"
#define MAP_LEN FT_MB

/* The fault's counters (NFAULT of them), then the pageout's. */
static const char * const counters[] = {
	"fa_events", "fa_pages_mapped", "fa_pages_mapped_old", "fa_read_faults",
	"fa_pages_beyond_window", "fa_fault_folio_pages",
	"fa_unmap_young_ptes", "fa_unmap_old_ptes", "unmap_calls",
};
#define NFAULT	6
#define NCOUNTERS FT_ARRAY_SIZE(counters)

static void die(const char *what)
{
	fprintf(stderr, "ft_faultaround: %s: %s\n", what, ft_err[0] ? ft_err : strerror(errno));
	exit(2);
}

/* All counters in one read(2) of the vmstat file: no page faults here. */
static void read_counters(long *v)
{
	static char buf[16384];
	size_t i;
	int fd, n;

	fd = open(VMSTAT, O_RDONLY);
	if (fd < 0)
		die("open " VMSTAT);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("read " VMSTAT);
	buf[n] = '\0';
	for (i = 0; i < NCOUNTERS; i++) {
		char *p = buf;
		size_t len = strlen(counters[i]);

		v[i] = -1;
		while ((p = strstr(p, counters[i]))) {
			if ((p == buf || p[-1] == '\n') && p[len] == ' ') {
				v[i] = strtol(p + len + 1, NULL, 10);
				break;
			}
			p += len;
		}
	}
}

static int open_file(const char *path, int flags, size_t *size)
{
	struct stat st;
	int fd = open(path, flags);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	*size = st.st_size;
	return fd;
}

static int cmd_prep(const char *path, long mb, int order0)
{
	size_t len = (size_t)mb * FT_MB, off;
	char *buf = malloc(FT_MB);
	int fd;

	if (!buf)
		die("malloc");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(path);
	for (off = 0; off < len; off += FT_MB) {
		ft_fill(buf, FT_MB, 1, 1, off);
		if (pwrite(fd, buf, FT_MB, off) != (ssize_t)FT_MB)
			die("pwrite");
	}
	if (fsync(fd))
		die("fsync");
	if (order0) {
		if (posix_fadvise(fd, 0, len, POSIX_FADV_DONTNEED) ||
		    posix_fadvise(fd, 0, len, POSIX_FADV_WILLNEED))
			die("posix_fadvise");
	}
	close(fd);
	free(buf);
	return 0;
}

static int cmd_drop(const char *path)
{
	size_t size;
	int fd = open_file(path, O_RDWR, &size);

	if (fsync(fd) || posix_fadvise(fd, 0, size, POSIX_FADV_DONTNEED))
		die("fsync/posix_fadvise");
	close(fd);
	return 0;
}

/* A 2 MiB-aligned MAP_SHARED map of len bytes of fd: one page table. */
static char *map_aligned(int fd, size_t len, int prot)
{
	char *res, *p;

	res = mmap(NULL, len + FT_PMD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		die("mmap reserve");
	p = (char *)FT_ALIGN_UP((uintptr_t)res, FT_PMD);
	if (mmap(p, len, prot, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		die("mmap file");
	return p;
}

/* Leave the map's pages mapped by no PTE, with no accessed state. */
static void clear_access(char *p, size_t len)
{
	volatile char sink;
	size_t off;

	for (off = 0; off < len; off += FT_PAGE)
		sink = p[off];
	(void)sink;
	if (ft_write_file("/proc/self/clear_refs", "1"))
		die("clear_refs");
	if (madvise(p, len, MADV_DONTNEED))
		die("madvise(MADV_DONTNEED)");
}

static int cmd_fault(const char *path, long page, int pageout)
{
	long before[NCOUNTERS], after[NCOUNTERS], rss, ref;
	volatile char sink;
	size_t size, i;
	char *p;
	int fd;

	fd = open_file(path, O_RDONLY, &size);
	if (size < MAP_LEN || page < 0 || page >= (long)(MAP_LEN / FT_PAGE)) {
		fprintf(stderr, "ft_faultaround: file too small or page out of range\n");
		return 2;
	}
	p = map_aligned(fd, MAP_LEN, PROT_READ);
	/* Warm up everything the measurement uses, so it faults nothing else. */
	read_counters(before);
	if (ft_smaps_kb(p, "Rss") < 0)
		die("smaps");
	clear_access(p, MAP_LEN);

	read_counters(before);
	sink = p[page * FT_PAGE];
	read_counters(after);
	(void)sink;
	rss = ft_smaps_kb(p, "Rss");
	ref = ft_smaps_kb(p, "Referenced");
	printf("rss_kb=%ld referenced_kb=%ld", rss, ref);
	for (i = 0; i < NFAULT; i++)
		printf(" %s=%ld", counters[i], after[i] - before[i]);
	if (pageout) {
		read_counters(before);
		if (madvise(p, MAP_LEN, MADV_PAGEOUT))
			die("madvise(MADV_PAGEOUT)");
		read_counters(after);
		for (i = NFAULT; i < NCOUNTERS; i++)
			printf(" %s=%ld", counters[i], after[i] - before[i]);
		printf(" rss_after_kb=%ld", ft_smaps_kb(p, "Rss"));
	}
	printf("\n");
	return 0;
}

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static int check_page(const char *p, size_t off, const char *what)
{
	const uint64_t *w = (const uint64_t *)(p + off);
	size_t i;

	for (i = 0; i < FT_PAGE / 8; i++) {
		uint64_t want = ft_pat(1, 1, off + i * 8);

		if (w[i] != want) {
			printf("MISMATCH %s at offset %zu: got %#llx want %#llx\n", what,
			       off + i * 8, (unsigned long long)w[i], (unsigned long long)want);
			return -1;
		}
	}
	return 0;
}

static int cmd_verify(const char *path, long seconds)
{
	uint64_t end = ft_now_ns() + (uint64_t)seconds * 1000000000ULL;
	size_t size, npages, pages = 0, i, pg;
	char *p, *q;
	int fd, round = 0;

	fd = open_file(path, O_RDWR, &size);
	npages = size / FT_PAGE;
	while (ft_now_ns() < end) {
		/* Shared, read only: sequential, random or strided order. */
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			die("mmap shared");
		for (i = 0; i < npages; i++) {
			switch (round % 3) {
			case 0: pg = i; break;
			case 1: pg = rnd() % npages; break;
			default: pg = (i * 7) % npages; break;
			}
			if (check_page(p, pg * FT_PAGE, "shared"))
				return 1;
			pages++;
		}
		munmap(p, size);

		/* Private: read (maps neighbours), then COW-write some of them. */
		q = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
		if (q == MAP_FAILED)
			die("mmap private");
		for (i = 0; i < npages; i += 16) {
			pg = (i + rnd() % 16) % npages;
			if (check_page(q, pg * FT_PAGE, "private read"))
				return 1;
			pg = (pg + 1 + rnd() % 3) % npages;
			((uint64_t *)(q + pg * FT_PAGE))[0] = 0x5a5a5a5a5a5a5a5aULL;
			((uint64_t *)(q + pg * FT_PAGE))[0] = ft_pat(1, 1, pg * FT_PAGE);
			if (check_page(q, pg * FT_PAGE, "private after COW"))
				return 1;
			pages += 2;
		}
		munmap(q, size);

		/* Shared, writable: write faults on read-only pre-mapped PTEs. */
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			die("mmap shared rw");
		for (i = 0; i < npages; i += 8) {
			pg = rnd() % npages;
			if (check_page(p, pg * FT_PAGE, "shared rw read"))
				return 1;
			pg = (pg + 1) % npages;
			((volatile uint64_t *)(p + pg * FT_PAGE))[1] =
				ft_pat(1, 1, pg * FT_PAGE + 8);
			pages++;
		}
		munmap(p, size);
		round++;
	}
	/* The file itself, through the page cache. */
	for (pg = 0; pg < npages; pg++) {
		static uint64_t buf[FT_PAGE / 8];

		if (pread(fd, buf, FT_PAGE, pg * FT_PAGE) != (ssize_t)FT_PAGE)
			die("pread");
		for (i = 0; i < FT_PAGE / 8; i++) {
			if (buf[i] != ft_pat(1, 1, pg * FT_PAGE + i * 8)) {
				printf("MISMATCH file at offset %zu\n", pg * FT_PAGE + i * 8);
				return 1;
			}
		}
	}
	printf("ok %zu pages in %d rounds\n", pages, round);
	return 0;
}

static int cmd_touch(const char *mode, const char *path, long seconds,
		     const char *opt)
{
	uint64_t end = ft_now_ns() + (uint64_t)seconds * 1000000000ULL;
	int seq = !strcmp(mode, "seq"), exec = !strcmp(opt, "exec");
	int dual = !strcmp(opt, "dual");
	size_t size, npages, i, pg, stride = 0, n;
	volatile char sink;
	long passes = 0;
	char *p, *p2;
	int fd;

	if (!strncmp(mode, "stride", 6)) {
		stride = strtoul(mode + 6, NULL, 10);
		if (!stride) {
			fprintf(stderr, "touch: bad stride in '%s'\n", mode);
			return 2;
		}
	} else if (!seq && strcmp(mode, "rand")) {
		fprintf(stderr, "touch: unknown mode '%s'\n", mode);
		return 2;
	}
	fd = open_file(path, O_RDONLY, &size);
	npages = size / FT_PAGE;
	n = seq ? npages : stride ? (npages + stride - 1) / stride : npages / 16;
	p = mmap(NULL, size, PROT_READ | (exec ? PROT_EXEC : 0), MAP_SHARED, fd, 0);
	p2 = dual ? mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0) : p;
	if (p == MAP_FAILED || p2 == MAP_FAILED)
		die("mmap");
	while (ft_now_ns() < end) {
		for (i = 0; i < n; i++) {
			pg = seq ? i : stride ? i * stride : rnd() % npages;
			sink = p[pg * FT_PAGE];
			if (dual)
				sink = p2[pg * FT_PAGE];
		}
		if (madvise(p, size, MADV_DONTNEED) ||
		    (dual && madvise(p2, size, MADV_DONTNEED)))
			die("madvise(MADV_DONTNEED)");
		passes++;
	}
	(void)sink;
	printf("passes %ld\n", passes);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "prep"))
		return cmd_prep(argv[2], atol(argv[3]), argc > 4 && !strcmp(argv[4], "order0"));
	if (argc == 3 && !strcmp(argv[1], "drop"))
		return cmd_drop(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "fault"))
		return cmd_fault(argv[2], atol(argv[3]), argc > 4 && !strcmp(argv[4], "pageout"));
	if (argc == 4 && !strcmp(argv[1], "verify"))
		return cmd_verify(argv[2], atol(argv[3]));
	if (argc >= 5 && !strcmp(argv[1], "touch"))
		return cmd_touch(argv[2], argv[3], atol(argv[4]), argc > 5 ? argv[5] : "");
	fprintf(stderr, "usage: see the top of tests/progs/ft_faultaround.c\n");
	return 2;
}
