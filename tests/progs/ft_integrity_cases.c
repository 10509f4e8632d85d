// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_integrity: the cases, one function each, and the table that names
 * them (ft_integrity -l lists it).  The driver runs each selected case
 * under each reclaim source, in table order.
 */
#define _GNU_SOURCE
#include "ft_integrity.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFD_FEATURE_WP_HUGETLBFS_SHMEM
#define UFFD_FEATURE_WP_HUGETLBFS_SHMEM (1 << 12)
#endif
#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED (1 << 13)
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif

#define SPLIT_DEBUGFS "/sys/kernel/debug/split_huge_pages"

#define PART_MUNMAP	1
#define PART_MPROTECT	2

/* ---- cases ------------------------------------------------------------ */

/*
 * The common start of a case: the backing object, mapped from offset 0 for
 * @len bytes as segment 0, its folio orders checked.  NULL on failure.
 */
static char *setup_main(struct ctx *c, size_t len)
{
	char *p;

	if (setup_backing(c) < 0)
		return NULL;
	step(c, "map");
	p = map_main(c, len, 0);
	if (!p)
		return NULL;
	add_seg(c, p, len, 0, UNLOCKED);
	if (check_orders(c) < 0)
		return NULL;
	return p;
}

int case_basic(struct ctx *c)
{
	char *p;

	p = setup_main(c, c->size);
	if (!p)
		return -1;
	dirty_all_segs(c);
	return finish(c);
}

static int helper_touch_verify(struct ctx *c, int phase, int idx)
{
	int i;

	(void)idx;
	if (phase == 0) {
		for (i = 0; i < c->nseg; i++)
			touch_read(c->seg[i].addr, c->seg[i].len);
		return 0;
	}
	return verify_segs(c, "helper (forked) view after reclaim");
}

static int case_fork(struct ctx *c)
{
	char *p;

	p = setup_main(c, c->size);
	if (!p)
		return -1;
	dirty_all_segs(c);
	step(c, "fork helper");
	if (helper_spawn(c, helper_touch_verify) < 0)
		return -1;
	return finish(c);
}

static int helper_own_map(struct ctx *c, int phase, int idx)
{
	char *p;
	int fd;

	(void)idx;
	if (phase == 1)
		return verify_segs(c, "helper (own mmap) view after reclaim");
	fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(c, "helper open %s: %s", c->path, strerror(errno));
	p = ft_map_shifted(c->size, 1 * FT_MB, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return fail(c, "helper: %s", ft_err);
	c->nseg = 0;
	add_seg(c, p, c->size, 0, UNLOCKED);
	touch_read(p, c->size);
	return 0;
}

/* One file, three mappings in this process (2 MiB+64 KiB, 2 MiB-aligned
 * NOHUGEPAGE, a window from 2 MiB at +12 KiB) and one in a helper. */
static int case_multimap(struct ctx *c)
{
	size_t woff = c->size >= 4 * FT_MB ? 2 * FT_MB : FT_ALIGN_DOWN(c->size / 2, FT_PAGE);
	char *a, *b, *w;

	a = setup_main(c, c->size);
	if (!a)
		return -1;
	b = map_backing(c, c->size, 0, 0, MADV_NOHUGEPAGE);
	if (!b)
		return -1;
	touch_read(b, c->size);
	add_seg(c, b, c->size, 0, UNLOCKED);
	w = map_backing(c, c->size - woff, woff, 12 * 1024, 0);
	if (!w)
		return -1;
	touch_read(w, c->size - woff);
	add_seg(c, w, c->size - woff, woff, UNLOCKED);
	if (c->tc->flags & F_DIRTY) {
		step(c, "dirty");
		dirty_seg(c, &c->seg[1]);	/* through the aligned mapping */
	}
	step(c, "spawn helper");
	if (helper_spawn(c, helper_own_map) < 0)
		return -1;
	return finish(c);
}

static int case_partial(struct ctx *c)
{
	size_t n = c->size, a, b, m0, m1;
	char *p;

	p = setup_main(c, n);
	if (!p)
		return -1;
	dirty_all_segs(c);
	if (c->tc->arg & PART_MUNMAP) {
		a = FT_ALIGN_DOWN(n / 3, FT_PAGE) + 5 * FT_PAGE;
		b = FT_ALIGN_DOWN(n / 2, FT_PAGE) + 3 * FT_PAGE;
		step(c, "munmap middle");
		if (munmap(p + a, b - a) < 0)
			return fail(c, "munmap %p+%#zx: %s (errno %d)", p + a, b - a,
				    strerror(errno), errno);
		c->nseg = 0;
		add_seg(c, p, a, 0, UNLOCKED);
		add_seg(c, p + b, n - b, b, UNLOCKED);
		m0 = FT_ALIGN_DOWN(2 * n / 3, FT_PAGE) + 9 * FT_PAGE;
		m1 = FT_ALIGN_DOWN(5 * n / 6, FT_PAGE) + FT_PAGE;
	} else {
		m0 = FT_ALIGN_DOWN(n / 3, FT_PAGE) + 5 * FT_PAGE;
		m1 = FT_ALIGN_DOWN(2 * n / 3, FT_PAGE) + 3 * FT_PAGE;
	}
	if (c->tc->arg & PART_MPROTECT) {
		step(c, "mprotect");
		if (mprotect(p + m0, m1 - m0, PROT_READ) < 0)
			return fail(c, "mprotect %p+%#zx PROT_READ: %s (errno %d)", p + m0, m1 - m0,
				    strerror(errno), errno);
	}
	return finish(c);
}

static int case_mremap(struct ctx *c)
{
	size_t n = c->size, a, b;
	char *p, *t, *q;

	p = setup_main(c, n);
	if (!p)
		return -1;
	a = FT_ALIGN_DOWN(n / 3, FT_PAGE) + 7 * FT_PAGE;
	b = FT_ALIGN_DOWN(n / 2, FT_PAGE) + 7 * FT_PAGE;
	step(c, "mremap part");
	t = ft_map_shifted(b - a, 12 * 1024, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return fail(c, "%s", ft_err);
	q = mremap(p + a, b - a, b - a, MREMAP_MAYMOVE | MREMAP_FIXED, t);
	if (q == MAP_FAILED) {
		munmap(t, b - a);
		return fail(c, "mremap %p+%#zx -> %p: %s (errno %d)", p + a, b - a, t,
			    strerror(errno), errno);
	}
	c->map[c->nmap].addr = q;
	c->map[c->nmap].len = b - a;
	c->nmap++;
	c->nseg = 0;
	add_seg(c, p, a, 0, UNLOCKED);
	add_seg(c, q, b - a, a, UNLOCKED);
	add_seg(c, p + b, n - b, b, UNLOCKED);
	dirty_all_segs(c);	/* writes go through the moved PTEs too */
	return finish(c);
}

/* Starts 3 pages into the file (mid-folio), 5 pages before a page-table
 * boundary, and ends 7 pages before EOF (mid-folio). */
static int case_unaligned(struct ctx *c)
{
	size_t off = 3 * FT_PAGE, len = c->size - 10 * FT_PAGE;
	char *p;

	if (setup_backing(c) < 0)
		return -1;
	step(c, "map");
	p = map_backing(c, len, off, FT_PMD - 5 * FT_PAGE, MADV_HUGEPAGE);
	if (!p)
		return -1;
	populate(c, p, len, off);
	add_seg(c, p, len, off, UNLOCKED);
	if (check_orders(c) < 0)
		return -1;
	dirty_all_segs(c);
	return finish(c);
}

/*
 * mlock: file offsets [2M, 4M) - exactly one order-9 folio - are locked and
 * must stay mapped whatever the reclaim source.  A second, 8-page lock in
 * the middle of the next folio makes that folio straddle locked and
 * unlocked VMAs: MADV_PAGEOUT may split it (a file folio split unmaps all
 * its PTEs, mlocked or not, on 6.12), so only its data is checked.
 */
int case_mlock(struct ctx *c)
{
	size_t n = c->size, a = FT_PMD, b = 2 * FT_PMD;
	size_t m0 = b + FT_PMD / 2 + 3 * FT_PAGE, m1 = m0 + 8 * FT_PAGE;
	char *p;

	if (n < 3 * FT_PMD)
		return fail(c, "this case needs -s 6 or more (got %zu MB)", n / FT_MB);
	p = setup_main(c, n);
	if (!p)
		return -1;
	dirty_all_segs(c);
	step(c, "mlock");
	if (mlock(p + a, b - a) < 0 || mlock(p + m0, m1 - m0) < 0)
		return fail(c, "mlock: %s (errno %d)", strerror(errno), errno);
	c->nseg = 0;
	add_seg(c, p, a, 0, UNLOCKED);
	add_seg(c, p + a, b - a, a, LOCKED_WHOLE);
	add_seg(c, p + b, m0 - b, b, UNLOCKED);
	add_seg(c, p + m0, m1 - m0, m0, LOCKED_PART);
	add_seg(c, p + m1, n - m1, m1, UNLOCKED);
	/* Unreclaimable: the locked folio and the straddling one. */
	c->keep = (b - a) + FT_PMD;
	return finish(c);
}

/* ---- uffd-wp ---------------------------------------------------------- */

static int uffd_open_api(struct ctx *c, uint64_t features, uint64_t *got)
{
	struct uffdio_api api = { .api = UFFD_API, .features = features };
	int fd;

	fd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	if (fd < 0 && errno == EINVAL)
		fd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (ioctl(fd, UFFDIO_API, &api) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	*got = api.features;
	(void)c;
	return fd;
}

static int uffd_wp_check(struct ctx *c)
{
	unsigned long pages = 0, wp = 0;
	int i;

	for (i = 0; i < c->nseg; i++) {
		struct ft_orders o;

		ft_orders_init(&o);
		if (ft_orders_scan(&o, c->seg[i].addr, c->seg[i].len, false) < 0)
			return fail(c, "%s", ft_err);
		pages += o.pages;
		wp += o.uffd_wp;
	}
	tap_diag("uffd-wp: PM_UFFD_WP on %lu of %lu pages after reclaim and read-back", wp, pages);
	if (wp != pages)
		return fail(c, "uffd-wp protection lost on %lu of %lu pages by reclaim", pages - wp,
			    pages);
	return 0;
}

int case_uffd(struct ctx *c)
{
	bool file = c->tc->kind == K_FILE;
	uint64_t need = UFFD_FEATURE_PAGEFAULT_FLAG_WP |
			(file ? UFFD_FEATURE_WP_ASYNC : UFFD_FEATURE_WP_HUGETLBFS_SHMEM);
	struct uffdio_register reg;
	struct uffdio_writeprotect wp;
	uint64_t have = 0;
	char *p;
	int fd;

	step(c, "userfaultfd");
	fd = uffd_open_api(c, 0, &have);
	if (fd < 0) {
		if (errno == ENOSYS)
			return skip(c, "userfaultfd syscall absent (CONFIG_USERFAULTFD=n)");
		return fail(c, "userfaultfd + UFFDIO_API: %s (errno %d)", strerror(errno), errno);
	}
	close(fd);
	if ((have & need) != need)
		return skip(c, "kernel lacks uffd feature(s) %#llx (has %#llx): %s",
			    (unsigned long long)(need & ~have), (unsigned long long)have,
			    file ? "WP_ASYNC is needed for uffd-wp on regular files"
				 : "WP_HUGETLBFS_SHMEM is needed for uffd-wp on shmem");
	c->uffd = uffd_open_api(c, need, &have);
	if (c->uffd < 0)
		return fail(c, "userfaultfd with features %#llx: %s (errno %d)",
			    (unsigned long long)need, strerror(errno), errno);
	p = setup_main(c, c->size);
	if (!p)
		return -1;
	step(c, "uffd register + writeprotect");
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)p;
	reg.range.len = c->size;
	reg.mode = UFFDIO_REGISTER_MODE_WP;
	if (ioctl(c->uffd, UFFDIO_REGISTER, &reg) < 0)
		return fail(c, "UFFDIO_REGISTER(MODE_WP) %p+%#zx: %s (errno %d)", p, c->size,
			    strerror(errno), errno);
	memset(&wp, 0, sizeof(wp));
	wp.range.start = (uintptr_t)p;
	wp.range.len = c->size;
	wp.mode = UFFDIO_WRITEPROTECT_MODE_WP;
	if (ioctl(c->uffd, UFFDIO_WRITEPROTECT, &wp) < 0)
		return fail(c, "UFFDIO_WRITEPROTECT: %s (errno %d)", strerror(errno), errno);
	{
		struct ft_orders o;

		ft_orders_init(&o);
		TRY(c, ft_orders_scan(&o, p, c->size, false));
		if (o.uffd_wp != o.pages)
			return fail(c, "PM_UFFD_WP on only %lu of %lu pages right after "
				    "UFFDIO_WRITEPROTECT", o.uffd_wp, o.pages);
	}
	c->post_verify = uffd_wp_check;
	return finish(c);
}

/* ---- truncate racing with reclaim -------------------------------------- */

struct racer {
	struct ctx *c;
	char *p;
	size_t len;
	volatile int stop;
	long iters;
	int err;
	char what[96];
};

static int raw_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		e = errno;
	close(fd);
	return e;
}

/* One read(2) of a small kernel file into buf, NUL-terminated; -1 on error. */
static ssize_t raw_read(const char *path, char *buf, size_t size)
{
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	r = read(fd, buf, size - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	return r;
}

static long long raw_read_num(const char *path)
{
	char buf[64];

	if (raw_read(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

/* "key value" from a flat-keyed cgroup file, thread-safe; -1 if absent. */
static long long raw_read_key(const char *path, const char *key)
{
	char buf[8192], *p;
	size_t kl = strlen(key);

	if (raw_read(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == ' ')
			return strtoll(p + kl + 1, NULL, 10);
	return -1;
}

static void *racer_fn(void *arg)
{
	struct racer *r = arg;
	struct ctx *c = r->c;
	char path[700], val[64];
	long long file, cur;
	int e;

	while (!r->stop) {
		switch (c->src) {
		case SRC_PAGEOUT:
			if (madvise(r->p, r->len, MADV_PAGEOUT) < 0 && !r->err) {
				r->err = errno;
				snprintf(r->what, sizeof(r->what), "madvise(MADV_PAGEOUT)");
			}
			break;
		case SRC_MEMCG:
			/*
			 * memory.high, not memory.max: the main thread faults
			 * pages in and truncation locks folios concurrently,
			 * so a memory.max below the momentarily unreclaimable
			 * part ends in a memcg OOM kill.  A memory.high write
			 * reclaims the same way and never kills.  Half of the
			 * memcg's page cache is asked for.  The two files are
			 * read at different moments while truncation frees
			 * pages, so current - file/2 can be negative: then the
			 * memcg already shrank by more than was to be asked
			 * and this round asks nothing.
			 */
			snprintf(path, sizeof(path), "%s/memory.current", c->cg);
			cur = raw_read_num(path);
			if (cur < 0) {
				if (!r->err) {
					r->err = EIO;
					snprintf(r->what, sizeof(r->what), "read memory.current");
				}
				break;
			}
			snprintf(path, sizeof(path), "%s/memory.stat", c->cg);
			file = raw_read_key(path, "file");
			if (file < 2 * (long long)FT_MB || cur - file / 2 <= 0) {
				usleep(1000);
				continue;	/* not a reclaim pass */
			}
			snprintf(val, sizeof(val), "%lld", cur - file / 2);
			snprintf(path, sizeof(path), "%s/memory.high", c->cg);
			e = raw_write(path, val);
			if (e && !r->err) {
				r->err = e;
				snprintf(r->what, sizeof(r->what), "write memory.high=%s", val);
			}
			raw_write(path, "max");
			break;
		default:
			snprintf(path, sizeof(path), "%s/memory.reclaim", c->cg);
			snprintf(val, sizeof(val), "%zu", r->len / 2);
			e = raw_write(path, val);
			if (e && e != EAGAIN && !r->err) {
				r->err = e;
				snprintf(r->what, sizeof(r->what), "write memory.reclaim=%s", val);
			}
			break;
		}
		r->iters++;	/* reclaim passes actually requested */
	}
	return NULL;
}

int case_truncate(struct ctx *c)
{
	struct racer r;
	pthread_t th;
	size_t n = c->size, len = n;
	long long oom0 = 0, oom1 = 0;
	char *p;
	int k, e;

	p = setup_main(c, n);
	if (!p)
		return -1;
	if (c->cg[0])
		oom0 = ft_cg_key(c->cg, "memory.events", "oom_kill");
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.p = p;
	r.len = n;
	if (premise_start(c) < 0)	/* the race reclaims too */
		return -1;
	step(c, "truncate racing with reclaim");
	e = pthread_create(&th, NULL, racer_fn, &r);
	if (e)
		return fail(c, "pthread_create: %s (errno %d)", strerror(e), e);
	for (k = 1; k <= 8; k++) {
		struct timespec ts = { 0, 2 * 1000 * 1000 };

		/* Shrink to a size inside a folio (3 pages past 1/16 steps). */
		len = n - (size_t)k * (n / 16) - 3 * FT_PAGE * (size_t)k;
		len = FT_ALIGN_DOWN(len, FT_PAGE);
		if (ftruncate(c->fd, (off_t)len) < 0) {
			e = errno;
			r.stop = 1;
			pthread_join(th, NULL);
			return fail(c, "ftruncate to %zu: %s (errno %d)", len, strerror(e), e);
		}
		c->file_len = len;
		touch_read(p, len);
		nanosleep(&ts, NULL);
	}
	r.stop = 1;
	pthread_join(th, NULL);
	tap_diag("truncate race: %ld reclaim passes (%s) while shrinking to %zu kB", r.iters,
		 src_name[c->src], len >> 10);
	if (r.err)
		return fail(c, "racing %s: %s (errno %d)", r.what, strerror(r.err), r.err);
	if (!r.iters)
		return fail(c, "the reclaim thread never ran");
	if (c->cg[0]) {
		oom1 = ft_cg_key(c->cg, "memory.events", "oom_kill");
		if (oom1 > oom0)
			return fail(c, "memcg OOM kill during the race");
	}
	c->nseg = 0;
	add_seg(c, p, len, 0, UNLOCKED);
	c->skip_unmap_check = true;	/* reclaim already raced; nothing left to prove */
	return finish(c);
}

/* ---- THP split via debugfs --------------------------------------------- */

static int split_range(struct ctx *c, char *p, size_t len, int order, bool *order_ok)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "%d,%#lx,%#lx,%d", (int)getpid(), (unsigned long)p,
		 (unsigned long)(p + len), order);
	if (ft_write_file(SPLIT_DEBUGFS, cmd) == 0)
		return 0;
	if (errno == EPERM)
		return fail(c, "%s (kernel lockdown restricts debugfs?)", ft_err);
	if (errno == EINVAL && order) {
		/* Kernel without the new_order field: split to order 0. */
		*order_ok = false;
		snprintf(cmd, sizeof(cmd), "%d,%#lx,%#lx", (int)getpid(), (unsigned long)p,
			 (unsigned long)(p + len));
		if (ft_write_file(SPLIT_DEBUGFS, cmd) == 0)
			return 0;
	}
	return fail(c, "%s", ft_err);
}

int case_split(struct ctx *c)
{
	struct ft_orders before, after;
	size_t n = c->size, q = FT_ALIGN_DOWN(n / 4, FT_PAGE);
	bool order_ok = true;
	char *p, hist[256];
	struct seg whole;

	if (!ft_is_debugfs("/sys/kernel/debug"))
		return fail(c, "debugfs is not mounted at /sys/kernel/debug (the runner must mount it)");
	if (!ft_exists(SPLIT_DEBUGFS))
		return skip(c, "%s absent (kernel without CONFIG_TRANSPARENT_HUGEPAGE debugfs split)",
			    SPLIT_DEBUGFS);
	p = setup_main(c, n);
	if (!p)
		return -1;
	whole = c->seg[0];
	c->seg[0].len = 2 * q;
	if (check_orders_range(c, "first half before split", &before) < 0)
		return -1;
	step(c, "split_huge_pages");
	if (split_range(c, p, q, 0, &order_ok) < 0 ||
	    split_range(c, p + q, q, 2, &order_ok) < 0)
		return -1;
	/* A file folio split unmaps all its PTEs (only anon is remapped):
	 * fault the split folios back in before looking at them. */
	touch_read(p, 2 * q);
	ft_orders_init(&after);
	TRY(c, ft_orders_scan(&after, p, 2 * q, true));
	ft_orders_done(&after);
	ft_orders_fmt(&after, hist, sizeof(hist));
	tap_diag("orders of the first half after split_huge_pages: %s%s", hist,
		 order_ok ? "" : " (kernel ignores new_order: split to 0)");
	if (before.hist[9] && (after.hist[9] >= before.hist[9] || !after.nfolios)) {
		ft_orders_free(&before);
		ft_orders_free(&after);
		return fail(c, "split_huge_pages split none of the %lu order-9 folios", before.hist[9]);
	}
	ft_orders_free(&before);
	ft_orders_free(&after);
	c->split_order_ok = order_ok;
	c->seg[0] = whole;
	dirty_all_segs(c);
	return finish(c);
}

/* ---- MADV_FREE -------------------------------------------------------- */

static int lazyfree_check(struct ctx *c)
{
	tap_diag("lazyfree: %zu of %zu pages read back as zero (discarded)", c->vr.zero_pages,
		 c->vr.pages);
	if (!c->vr.zero_pages)
		return fail(c, "no clean MADV_FREE page was discarded by reclaim (%zu pages checked)",
			    c->vr.pages);
	return 0;
}

int case_lazyfree(struct ctx *c)
{
	size_t n = c->size, i;
	char *p;

	step(c, "map");
	p = map_main(c, n, 0);
	if (!p)
		return -1;
	add_seg(c, p, n, 0, UNLOCKED);
	if (check_orders(c) < 0)
		return -1;
	step(c, "MADV_FREE");
	if (madvise(p, n, MADV_FREE) < 0)
		return fail(c, "madvise(MADV_FREE): %s (errno %d)", strerror(errno), errno);
	for (i = 0; i < c->npages; i++)
		c->st[i] |= FT_ST_ZERO_OK;
	if (c->tc->arg) {
		/* Redirty one page in four of the first half: those must
		 * survive, their folios become swap-backed again. */
		step(c, "redirty");
		for (i = 0; i < c->npages / 2; i++)
			if (i % 4 == 1) {
				ft_fill(p + i * FT_PAGE, FT_PAGE, c->id, 2, i * FT_PAGE);
				c->st[i] = 2;
			}
		if (!c->swap)
			c->keep = n / 2;
	}
	c->post_verify = lazyfree_check;
	return finish(c);
}

/* ---- the table -------------------------------------------------------- */

const struct tcase cases[] = {
	/* Regular files in -d DIR (xfs in the guest). */
	{ "file-mmap-private-clean", K_FILE, F_PRIVATE, case_basic, W_MMAP, 0, 0,
	  "default readahead, read faults (orders 2..5; Linux 7: 0), MAP_PRIVATE, read only" },
	{ "file-mmap-shared-dirty", K_FILE, F_DIRTY, case_basic, W_MMAP, 0, 0,
	  "default readahead, MAP_SHARED, part written" },
	{ "file-ra-private-clean", K_FILE, F_RA | F_PRIVATE, case_basic, W_LARGE, 0, 0,
	  "read_ahead_kb raised, primed by read(2), MAP_PRIVATE" },
	{ "file-ra-shared-clean", K_FILE, F_RA, case_basic, W_LARGE, 0, 0,
	  "read_ahead_kb raised, primed by read(2), MAP_SHARED" },
	{ "file-ra-private-dirty", K_FILE, F_RA | F_PRIVATE | F_DIRTY | F_NEEDSWAP, case_basic,
	  W_LARGE, 0, 0, "read_ahead_kb raised, MAP_PRIVATE, COW writes (anon to swap)" },
	{ "file-ra-shared-dirty", K_FILE, F_RA | F_DIRTY, case_basic, W_LARGE, 0, 0,
	  "read_ahead_kb raised, MAP_SHARED, writes must reach the disk" },
	{ "file-thp-private-clean", K_FILE, F_THP | F_PRIVATE, case_basic, W_ORDER9, 0, 0,
	  "MADV_HUGEPAGE, VA 2M+64K: PTE-mapped order-9 folios across two page tables" },
	{ "file-thp-shared-clean", K_FILE, F_THP, case_basic, W_ORDER9, 0, 0,
	  "MADV_HUGEPAGE, VA 2M+64K, MAP_SHARED" },
	{ "file-thp-private-dirty", K_FILE, F_THP | F_PRIVATE | F_DIRTY | F_NEEDSWAP, case_basic,
	  W_ORDER9, 0, 0, "MADV_HUGEPAGE, MAP_PRIVATE, COW writes" },
	{ "file-thp-shared-dirty", K_FILE, F_THP | F_DIRTY, case_basic, W_ORDER9, 0, 0,
	  "MADV_HUGEPAGE, MAP_SHARED, writes must reach the disk" },
	{ "file-pte2m", K_FILE, F_PTE2M, case_basic, W_ORDER9, 0, 0,
	  "order-9 folios PTE-mapped inside one page table each (512-PTE batches)" },
	{ "file-fork-shared", K_FILE, F_THP | F_DIRTY | F_SHARED_FOLIOS, case_fork, W_ORDER9, 0, 0,
	  "MAP_SHARED, forked child maps the same folios" },
	{ "file-fork-private-dirty", K_FILE, F_THP | F_PRIVATE | F_DIRTY | F_NEEDSWAP |
	  F_SHARED_FOLIOS, case_fork, W_ORDER9, 0, 0,
	  "MAP_PRIVATE with COW pages, shared with a forked child" },
	{ "file-multimap", K_FILE, F_THP | F_DIRTY | F_SHARED_FOLIOS, case_multimap, W_ORDER9, 0, 0,
	  "same file mapped 3 times at different alignments + by another process" },
	{ "file-munmap-middle", K_FILE, F_THP | F_DIRTY, case_partial, W_ORDER9, 0, PART_MUNMAP,
	  "middle munmapped mid-folio: partially mapped folios" },
	{ "file-mprotect-middle", K_FILE, F_THP | F_DIRTY, case_partial, W_ORDER9, 0, PART_MPROTECT,
	  "middle mprotect(PROT_READ) mid-folio: folios across two VMAs" },
	{ "file-mremap-part", K_FILE, F_THP | F_DIRTY, case_mremap, W_ORDER9, 0, 0,
	  "a middle part mremap()ed elsewhere: folios mapped at two places" },
	{ "file-unaligned", K_FILE, F_THP | F_DIRTY, case_unaligned, W_LARGE, 0, 0,
	  "mapping starts/ends mid-folio and mid-page-table" },
	{ "file-mlock-part", K_FILE, F_THP | F_DIRTY, case_mlock, W_ORDER9, 0, 0,
	  "one folio mlocked (must stay mapped), another partly mlocked" },
	{ "file-uffd-wp", K_FILE, F_THP, case_uffd, W_ORDER9, 0, 0,
	  "uffd-wp (async) protected: the protection must survive reclaim" },
	{ "file-truncate-race", K_FILE, F_THP, case_truncate, W_ORDER9, 0, 0,
	  "ftruncate shrinking mid-folio while another thread reclaims" },
	{ "file-split", K_FILE, F_THP | F_DIRTY, case_split, W_ORDER9, 0, 0,
	  "order-9 folios split via debugfs split_huge_pages (to 0 and 2) before reclaim" },
	/* Own tmpfs mount with huge=always. */
	{ "tmpfs-huge-aligned", K_TMPFS, F_ALIGNED | F_DIRTY | F_NEEDSWAP, case_basic, W_ORDER9, 0, 0,
	  "tmpfs huge=always, 2M-aligned: PMD-mapped THP (split on unmap)" },
	{ "tmpfs-huge-unaligned", K_TMPFS, F_THP | F_DIRTY | F_NEEDSWAP, case_basic, W_ORDER9, 0, 0,
	  "tmpfs huge=always, VA 2M+64K: PTE-mapped THP" },
	{ "tmpfs-huge-private", K_TMPFS, F_ALIGNED | F_PRIVATE | F_DIRTY | F_NEEDSWAP, case_basic,
	  W_ORDER9, 0, 0, "tmpfs huge=always, MAP_PRIVATE with COW writes" },
	{ "tmpfs-pte2m", K_TMPFS, F_PTE2M | F_NEEDSWAP, case_basic, W_ORDER9, 0, 0,
	  "tmpfs THP PTE-mapped inside one page table each" },
	{ "tmpfs-fork-shared", K_TMPFS, F_THP | F_DIRTY | F_NEEDSWAP | F_SHARED_FOLIOS, case_fork,
	  W_ORDER9, 0, 0, "tmpfs THP shared with a forked child" },
	{ "tmpfs-huge-partial", K_TMPFS, F_THP | F_DIRTY | F_NEEDSWAP, case_partial, W_ORDER9, 0,
	  PART_MUNMAP | PART_MPROTECT, "tmpfs THP, middle munmapped and a part mprotected" },
	{ "tmpfs-uffd-wp", K_TMPFS, F_THP | F_NEEDSWAP, case_uffd, W_ORDER9, 0, 0,
	  "tmpfs THP, uffd-wp protected" },
	/* Anonymous shared memory with exact mTHP sizes (6.12 honours the
	 * per-size shmem_enabled knobs for anonymous shmem only: the
	 * MAP_SHARED|MAP_ANONYMOUS kind and files unlinked when mapped, such
	 * as a memfd; linked tmpfs files get PMD size or nothing). */
	{ "shmem-mthp-16k", K_SHMEM, F_DIRTY | F_NEEDSWAP, case_basic, W_EXACT, 16, 0,
	  "anon shmem, hugepages-16kB/shmem_enabled=always" },
	{ "shmem-mthp-64k", K_SHMEM, F_DIRTY | F_NEEDSWAP, case_basic, W_EXACT, 64, 0,
	  "anon shmem, hugepages-64kB/shmem_enabled=always" },
	{ "shmem-mthp-128k", K_SHMEM, F_DIRTY | F_NEEDSWAP, case_basic, W_EXACT, 128, 0,
	  "anon shmem, hugepages-128kB/shmem_enabled=always" },
	{ "shmem-mthp-2048k", K_SHMEM, F_ALIGNED | F_DIRTY | F_NEEDSWAP, case_basic, W_EXACT, 2048,
	  0, "anon shmem, hugepages-2048kB/shmem_enabled=always: PMD-mapped" },
	{ "memfd-mthp-64k", K_MEMFD, F_DIRTY | F_NEEDSWAP, case_basic, W_EXACT, 64, 0,
	  "memfd, hugepages-64kB/shmem_enabled=always" },
	{ "memfd-mthp-2048k", K_MEMFD, F_ALIGNED | F_DIRTY | F_NEEDSWAP, case_basic, W_EXACT, 2048,
	  0, "memfd, hugepages-2048kB/shmem_enabled=always: PMD-mapped" },
	/* Anonymous private memory, 64 KiB mTHP. */
	{ "anon-mthp64", K_ANON, F_DIRTY | F_NEEDSWAP, case_basic, W_EXACT, 64, 0,
	  "anon 64K mTHP to swap" },
	{ "anon-mthp64-fork", K_ANON, F_DIRTY | F_NEEDSWAP | F_SHARED_FOLIOS, case_fork, W_EXACT,
	  64, 0, "anon 64K mTHP shared with a forked child" },
	{ "anon-mthp64-partial", K_ANON, F_DIRTY | F_NEEDSWAP, case_partial, W_EXACT, 64,
	  PART_MUNMAP | PART_MPROTECT, "anon 64K mTHP, middle munmapped, part mprotected" },
	{ "lazyfree-clean", K_ANON, 0, case_lazyfree, W_EXACT, 64, 0,
	  "MADV_FREE'd 64K mTHP: discarded by reclaim (read back as zero)" },
	{ "lazyfree-redirty", K_ANON, 0, case_lazyfree, W_EXACT, 64, 1,
	  "MADV_FREE'd 64K mTHP, part written again: written pages must survive" },
};

const size_t nr_cases = FT_ARRAY_SIZE(cases);
