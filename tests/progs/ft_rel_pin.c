// SPDX-License-Identifier: GPL-2.0
/*
 * ft_rel_pin.c - ft_rel pin: O_DIRECT, vmsplice and io_uring pins of a
 * compound folio while reclaim and poison run around them (usage in
 * ft_rel.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "ft_rel.h"

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

int cmd_pin(const char *kind, const char *dir, int secs)
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
