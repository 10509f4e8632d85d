// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_integrity: what its cases are made of, run in the case process: the
 * failure helpers, mapping, populating and dirtying the range, the backing
 * objects, folio orders, reclaim, helper processes, the premise (what
 * try_to_unmap_one did) and finish(), the common tail of every case.
 */
#define _GNU_SOURCE
#include "ft_integrity.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* ---- failure helpers (case process) --------------------------------- */

static void vset(char *dst, size_t n, const char *fmt, va_list ap)
{
	if (dst[0])
		return;		/* keep the first reason */
	vsnprintf(dst, n, fmt, ap);
}

int __attribute__((format(printf, 2, 3))) fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (c->helper_idx >= 0)
		vset(c->res->helper_reason[c->helper_idx],
		     sizeof(c->res->helper_reason[0]), fmt, ap);
	else
		vset(c->res->reason, sizeof(c->res->reason), fmt, ap);
	va_end(ap);
	return -1;
}

int __attribute__((format(printf, 2, 3))) skip(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c->res->reason, sizeof(c->res->reason), fmt, ap);
	va_end(ap);
	c->res->status = ST_SKIP;
	return 1;
}

void step(struct ctx *c, const char *s)
{
	if (c->helper_idx < 0)
		snprintf(c->res->step, sizeof(c->res->step), "%s", s);
	if (opt.verbose)
		tap_diag("%s: %s%s", c->name, c->helper_idx >= 0 ? "helper: " : "", s);
}

/* ---- mapping, population, dirtying ---------------------------------- */

void touch_read(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += FT_PAGE)
		(void)*(const volatile char *)(p + i);
}

void add_seg(struct ctx *c, char *addr, size_t len, uint64_t off, int locked)
{
	c->seg[c->nseg].addr = addr;
	c->seg[c->nseg].len = len;
	c->seg[c->nseg].off = off;
	c->seg[c->nseg].locked = locked;
	c->nseg++;
}

static size_t seg_bytes(const struct ctx *c)
{
	size_t t = 0;
	int i;

	for (i = 0; i < c->nseg; i++)
		t += c->seg[i].len;
	return t;
}

static void forget_map(struct ctx *c, void *addr)
{
	int i;

	for (i = 0; i < c->nmap; i++)
		if (c->map[i].addr == addr) {
			c->map[i] = c->map[--c->nmap];
			return;
		}
}

int unmap_all(struct ctx *c)
{
	int rc = 0;

	while (c->nmap) {
		c->nmap--;
		if (munmap(c->map[c->nmap].addr, c->map[c->nmap].len) < 0 && !rc)
			rc = fail(c, "munmap %p+%#zx: %s (errno %d)", c->map[c->nmap].addr,
				  c->map[c->nmap].len, strerror(errno), errno);
	}
	c->nseg = 0;
	return rc;
}

char *map_backing(struct ctx *c, size_t len, uint64_t off, size_t shift, int madv)
{
	int flags, fd = -1;
	off_t foff = 0;
	char *p;

	switch (c->tc->kind) {
	case K_FILE:
	case K_TMPFS:
	case K_MEMFD:
		flags = (c->tc->flags & F_PRIVATE) ? MAP_PRIVATE : MAP_SHARED;
		fd = c->fd;
		foff = (off_t)off;
		break;
	case K_SHMEM:
		flags = MAP_SHARED | MAP_ANONYMOUS;
		break;
	default:
		flags = MAP_PRIVATE | MAP_ANONYMOUS;
		break;
	}
	p = ft_map_shifted(len, shift, PROT_READ | PROT_WRITE, flags, fd, foff);
	if (p == MAP_FAILED) {
		fail(c, "%s", ft_err);
		return NULL;
	}
	c->map[c->nmap].addr = p;
	c->map[c->nmap].len = len;
	c->nmap++;
	if (madv && madvise(p, len, madv) < 0) {
		fail(c, "madvise(%s) %p+%#zx: %s (errno %d)",
		     madv == MADV_HUGEPAGE ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", p, len,
		     strerror(errno), errno);
		return NULL;
	}
	return p;
}

/* File/tmpfs: read one word per page.  Anon/shmem: write generation 1. */
void populate(struct ctx *c, char *p, size_t len, uint64_t off)
{
	size_t i;

	if (c->tc->kind == K_FILE || c->tc->kind == K_TMPFS) {
		touch_read(p, len);
		return;
	}
	ft_fill(p, len, c->id, 1, off);
	for (i = 0; i < len / FT_PAGE; i++) {
		c->st[off / FT_PAGE + i] = 1;
		if (c->tc->kind == K_MEMFD)
			c->disk[off / FT_PAGE + i] = 1;
	}
}

/* read(2) the whole file: readahead (with the raised read_ahead_kb) then
 * decides the folio sizes before anything is mapped. */
static int prime_read(struct ctx *c)
{
	size_t chunk = 256 * 1024, done = 0;
	char *buf = malloc(chunk);

	if (!buf)
		return fail(c, "out of memory");
	while (done < c->file_len) {
		ssize_t r = pread(c->fd, buf, chunk, (off_t)done);

		if (r <= 0) {
			free(buf);
			return fail(c, "priming read at %#zx: %s", done,
				    r < 0 ? strerror(errno) : "unexpected EOF");
		}
		done += (size_t)r;
	}
	free(buf);
	return 0;
}

/* Maps [off, off+len) according to the case flags and populates it. */
char *map_main(struct ctx *c, size_t len, uint64_t off)
{
	bool file = c->tc->kind == K_FILE || c->tc->kind == K_TMPFS;
	unsigned int f = c->tc->flags;
	char *p;

	if ((f & F_RA) && prime_read(c) < 0)
		return NULL;
	if (f & F_PTE2M) {
		long pmd;

		/* 1: a MADV_HUGEPAGE mapping makes the page cache use
		 * order-9 folios; 2: a 2 MiB-aligned MADV_NOHUGEPAGE mapping
		 * maps them with 512 PTEs inside one page table (do_set_pmd
		 * refuses VM_NOHUGEPAGE VMAs on 6.12). */
		p = map_backing(c, len, off, 64 * 1024, MADV_HUGEPAGE);
		if (!p)
			return NULL;
		touch_read(p, len);
		munmap(p, len);
		forget_map(c, p);
		p = map_backing(c, len, off, 0, MADV_NOHUGEPAGE);
		if (!p)
			return NULL;
		populate(c, p, len, off);
		pmd = ft_smaps_kb(p, c->tc->kind == K_FILE ? "FilePmdMapped" : "ShmemPmdMapped");
		if (pmd > 0) {
			fail(c, "%ld kB of the range are PMD-mapped despite MADV_NOHUGEPAGE", pmd);
			return NULL;
		}
		return p;
	}
	if (f & F_THP)
		p = map_backing(c, len, off, 64 * 1024, file || c->tc->kind == K_SHMEM ? MADV_HUGEPAGE : 0);
	else if (f & F_ALIGNED)
		p = map_backing(c, len, off, 0, file ? MADV_HUGEPAGE : 0);
	else
		p = map_backing(c, len, off, 0, 0);
	if (!p)
		return NULL;
	populate(c, p, len, off);
	return p;
}

/* Generation 2 into pages of the first half of the object whose index is
 * not 2 mod 3: large folios end up with dirty and clean PTEs mixed, and
 * the second half stays clean (reclaimable without writeback). */
static bool dirty_pred(const struct ctx *c, uint64_t pg)
{
	return pg < c->npages / 2 && pg % 3 != 2;
}

void dirty_seg(struct ctx *c, const struct seg *s)
{
	bool shared_file = (c->tc->kind == K_FILE || c->tc->kind == K_TMPFS ||
			    c->tc->kind == K_MEMFD) && !(c->tc->flags & F_PRIVATE);
	size_t i;

	for (i = 0; i < s->len / FT_PAGE; i++) {
		uint64_t pg = s->off / FT_PAGE + i;

		if (!dirty_pred(c, pg))
			continue;
		ft_fill(s->addr + i * FT_PAGE, FT_PAGE, c->id, 2, pg * FT_PAGE);
		c->st[pg] = 2;
		if (shared_file)
			c->disk[pg] = 2;
	}
}

void dirty_all_segs(struct ctx *c)
{
	int i;

	if (!(c->tc->flags & F_DIRTY))
		return;
	step(c, "dirty");
	for (i = 0; i < c->nseg; i++)
		dirty_seg(c, &c->seg[i]);
}

/* ---- backing objects ------------------------------------------------- */

int setup_backing(struct ctx *c)
{
	size_t i;

	if (c->tc->kind == K_MEMFD) {
		/* Unlinked at mmap time: anonymous shmem for the mTHP knobs;
		 * pages are created by the faults that fill it. */
		step(c, "memfd_create");
		c->fd = memfd_create("ft_integrity", MFD_CLOEXEC);
		if (c->fd < 0)
			return fail(c, "memfd_create: %s (errno %d)", strerror(errno), errno);
		if (ftruncate(c->fd, (off_t)c->size) < 0)
			return fail(c, "ftruncate memfd: %s (errno %d)", strerror(errno), errno);
		c->file_len = c->size;
		return 0;
	}
	if (c->tc->kind != K_FILE && c->tc->kind != K_TMPFS)
		return 0;
	step(c, "create file");
	c->fd = open(c->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (c->fd < 0)
		return fail(c, "create %s: %s (errno %d)", c->path, strerror(errno), errno);
	c->file_len = c->size;
	if (ft_write_pattern_file(c->fd, c->size, c->id, c->tc->kind == K_FILE) < 0)
		return fail(c, "%s: %s", c->path, ft_err);
	for (i = 0; i < c->npages; i++)
		c->st[i] = c->disk[i] = 1;
	if (c->tc->kind == K_FILE) {
		/* A fresh open: file_ra_state_init() picks up read_ahead_kb. */
		close(c->fd);
		c->fd = open(c->path, O_RDWR | O_CLOEXEC);
		if (c->fd < 0)
			return fail(c, "reopen %s: %s (errno %d)", c->path, strerror(errno), errno);
	}
	return 0;
}

static int verify_disk(struct ctx *c)
{
	struct stat sb;

	if (c->tc->kind != K_FILE && c->tc->kind != K_TMPFS && c->tc->kind != K_MEMFD)
		return 0;
	step(c, "verify file");
	if (fstat(c->fd, &sb) < 0)
		return fail(c, "fstat: %s (errno %d)", strerror(errno), errno);
	if ((size_t)sb.st_size != c->file_len)
		return fail(c, "file size %lld, expected %zu", (long long)sb.st_size, c->file_len);
	if (c->tc->kind == K_FILE) {
		if (fsync(c->fd) < 0)
			return fail(c, "fsync: %s (errno %d)", strerror(errno), errno);
		errno = posix_fadvise(c->fd, 0, 0, POSIX_FADV_DONTNEED);
		if (errno)
			return fail(c, "posix_fadvise(DONTNEED): %s (errno %d)", strerror(errno), errno);
		TRY(c, ft_drop_caches());
	}
	if (ft_verify_fd(c->fd, c->file_len, 0, c->id, c->disk, NULL,
			 c->tc->kind == K_FILE ?
			 "file re-read after munmap+fsync+drop_caches" :
			 "tmpfs/memfd re-read after munmap") < 0)
		return fail(c, "%s", ft_err);
	return 0;
}

/* ---- folio orders ---------------------------------------------------- */

static int order_of_kb(int kb)
{
	int o = 0;

	while ((4 << o) < kb)
		o++;
	return o;
}

static bool kernel_batches(void);

int check_orders_range(struct ctx *c, const char *what, struct ft_orders *out)
{
	struct ft_orders o;
	char hist[256], big[160] = "";
	bool ok = true;
	int i, max;

	step(c, "scan folio orders");
	ft_orders_init(&o);
	for (i = 0; i < c->nseg; i++)
		if (ft_orders_scan(&o, c->seg[i].addr, c->seg[i].len, true) < 0) {
			ft_orders_free(&o);
			return fail(c, "%s", ft_err);
		}
	ft_orders_done(&o);
	ft_orders_fmt(&o, hist, sizeof(hist));
	tap_diag("orders: %s", hist);
	tap_diag("%s: %lu folios (%lu KPF_THP), %lu pages, %lu present", what, o.nfolios, o.thp,
		 o.pages, o.present);
	max = ft_orders_max(&o);
	if (c->tc->want == W_EXACT) {
		size_t k;

		for (k = 0; k < o.nheads; k++)
			if ((int)(o.heads[k] & 0x0f) > order_of_kb(c->tc->mthp_kb)) {
				snprintf(big, sizeof(big), "; first larger folio: pfn %#llx order %d kpageflags %#llx",
					 (unsigned long long)(o.heads[k] >> 8), (int)(o.heads[k] & 0x0f),
					 (unsigned long long)ft_kpageflags(o.heads[k] >> 8));
				break;
			}
	}
	if (out)
		*out = o;
	else
		ft_orders_free(&o);
	if (o.pfn_hidden)
		return fail(c, "pagemap hides PFNs (not root / no CAP_SYS_ADMIN): orders unknown");
	switch (c->tc->want) {
	case W_MMAP:
		if (kernel_batches()) {
			ok = max == 0;
			snprintf(hist + strlen(hist), sizeof(hist) - strlen(hist),
				 "; wanted order-0 folios (Linux 7's mmap read-around)");
			break;
		}
		/* 6.12's read-around gives large folios */
		__attribute__((fallthrough));
	case W_LARGE:
		ok = max >= 2;
		snprintf(hist + strlen(hist), sizeof(hist) - strlen(hist), "; wanted a folio of order >= 2");
		break;
	case W_ORDER9:
		ok = o.hist[9] > 0;
		snprintf(hist + strlen(hist), sizeof(hist) - strlen(hist), "; wanted order-9 folios");
		break;
	case W_EXACT:
		i = order_of_kb(c->tc->mthp_kb);
		ok = o.hist[i] > 0 && max == i;
		snprintf(hist + strlen(hist), sizeof(hist) - strlen(hist),
			 "; wanted order-%d (%d kB) folios and nothing larger", i, c->tc->mthp_kb);
		break;
	default:
		break;
	}
	if (ok)
		return 0;
	/* What tells a kernel surprise from a race, for whoever reads the log. */
	tap_diag("orders not as wanted: %lu present, %lu swap entries of %lu pages%s",
		 o.present, o.swapped, o.pages, big);
	if (opt.allow_small) {
		tap_diag("folio orders not as wanted (ignored, -A): %s", hist);
		return 0;
	}
	return fail(c, "folio orders: %s (use -A to only report)", hist);
}

int check_orders(struct ctx *c)
{
	return check_orders_range(c, "range", NULL);
}

/* ---- reclaim ---------------------------------------------------------- */

static long present_pages(struct ctx *c, long *locked_missing, uint64_t *first_missing)
{
	long total = 0;
	int i;

	if (locked_missing)
		*locked_missing = 0;
	for (i = 0; i < c->nseg; i++) {
		struct ft_orders o;

		ft_orders_init(&o);
		if (ft_orders_scan(&o, c->seg[i].addr, c->seg[i].len, false) < 0)
			return fail(c, "%s", ft_err);
		total += (long)o.present;
		if (c->seg[i].locked == LOCKED_WHOLE && locked_missing && o.present != o.pages) {
			uint64_t *pm = malloc(c->seg[i].len / FT_PAGE * 8);
			size_t k;

			*locked_missing += (long)(o.pages - o.present);
			if (pm && ft_pagemap(c->seg[i].addr, c->seg[i].len, pm) == 0)
				for (k = 0; k < c->seg[i].len / FT_PAGE; k++)
					if (!(pm[k] & FT_PM_PRESENT)) {
						*first_missing = c->seg[i].off + k * FT_PAGE;
						break;
					}
			free(pm);
		}
	}
	return total;
}

/*
 * Lower memory.high, not memory.max: both writes reclaim the memcg the same
 * way, but a memory.max write OOM-kills after 16 rounds without progress,
 * and a stock 6.12 box has such rounds when another thread of the memcg
 * reclaims at the same time (the -M churn thread charging an open file;
 * in one OOM report the page counter stood 2 MiB above memory.stat's sum,
 * likely a folio the other reclaimer freed and had not yet uncharged).
 * One squeeze in about 300 ended in that OOM, foliotune loaded or not.
 */
static int memcg_squeeze(struct ctx *c, size_t reclaimable)
{
	long long cur, after, oom0, oom1, kill0, kill1, target, want;
	char val[64];

	cur = ft_cg_read(c->cg, "memory.current");
	oom0 = ft_cg_key(c->cg, "memory.events", "oom");
	kill0 = ft_cg_key(c->cg, "memory.events", "oom_kill");
	if (cur < 0 || oom0 < 0 || kill0 < 0)
		return fail(c, "%s", ft_err);
	want = (long long)reclaimable < cur ? (long long)reclaimable : cur;
	target = cur - want * 3 / 4;
	if (target < (long long)c->keep + (long long)FT_MB)
		target = (long long)c->keep + (long long)FT_MB;
	if (target >= cur) {
		tap_diag("memcg: memory.current %lld kB already below target %lld kB", cur >> 10,
			 target >> 10);
		return 0;
	}
	snprintf(val, sizeof(val), "%lld", target);
	if (ft_cg_write(c->cg, "memory.high", val) < 0) {
		fail(c, "%s", ft_err);
		ft_cg_write(c->cg, "memory.high", "max");
		return -1;
	}
	after = ft_cg_read(c->cg, "memory.current");
	TRY(c, ft_cg_write(c->cg, "memory.high", "max"));
	oom1 = ft_cg_key(c->cg, "memory.events", "oom");
	kill1 = ft_cg_key(c->cg, "memory.events", "oom_kill");
	tap_diag("memcg: memory.current %lld -> %lld kB (memory.high %lld kB, %zu kB reclaimable)",
		 cur >> 10, after >> 10, target >> 10, reclaimable >> 10);
	if (oom1 > oom0 || kill1 > kill0)
		return fail(c, "memcg OOM while squeezing to memory.high=%lld kB (oom %lld->%lld, "
			    "oom_kill %lld->%lld)", target >> 10, oom0, oom1, kill0, kill1);
	return 0;
}

static int memcg_reclaim(struct ctx *c, size_t bytes)
{
	long long cur, after;
	char val[64];
	uint64_t t0;

	bytes = FT_ALIGN_UP(bytes ? bytes : FT_PAGE, FT_PAGE);
	cur = ft_cg_read(c->cg, "memory.current");
	snprintf(val, sizeof(val), "%zu", bytes);
	t0 = ft_now_ns();
	if (ft_cg_write(c->cg, "memory.reclaim", val) < 0) {
		if (errno != EAGAIN)
			return fail(c, "%s", ft_err);
		tap_diag("memory.reclaim %zu kB: EAGAIN (could not reclaim all of it)", bytes >> 10);
	}
	after = ft_cg_read(c->cg, "memory.current");
	tap_diag("memory.reclaim %zu kB: memory.current %lld -> %lld kB in %.3f s", bytes >> 10,
		 cur >> 10, after >> 10, (double)(ft_now_ns() - t0) / 1e9);
	return 0;
}

static int do_reclaim(struct ctx *c)
{
	size_t total = seg_bytes(c);
	size_t reclaimable = total > c->keep ? total - c->keep : 0;
	int i;

	switch (c->src) {
	case SRC_PAGEOUT:
		for (i = 0; i < c->nseg; i++) {
			if (c->seg[i].locked)
				continue;	/* MADV_PAGEOUT: EINVAL on VM_LOCKED */
			if (madvise(c->seg[i].addr, c->seg[i].len, MADV_PAGEOUT) < 0)
				return fail(c, "madvise(MADV_PAGEOUT) %p+%#zx: %s (errno %d)",
					    c->seg[i].addr, c->seg[i].len, strerror(errno), errno);
		}
		/*
		 * 6.12's MADV_PAGEOUT skips folios mapped by more than one
		 * process: without more, reclaim of these cases would never
		 * reach try_to_unmap_one.  Their memcg's memory.reclaim does.
		 */
		if (!(c->tc->flags & F_SHARED_FOLIOS))
			return 0;
		if (!c->cg[0])
			return fail(c, "MADV_PAGEOUT skips shared folios and there is no memcg "
				    "for memory.reclaim (cgroup2 unusable)");
		return memcg_reclaim(c, reclaimable * 3 / 4);
	case SRC_MEMCG:
		/*
		 * Dirty page-cache folios are never reclaimed by memcg
		 * limit reclaim (MGLRU does not even isolate them and only
		 * kswapd writes file pages back), so squeezing below them
		 * would fall short.  Write them back first; the
		 * dirty-PTE unmap path is covered by the pageout source.
		 */
		if (c->tc->kind == K_FILE && !(c->tc->flags & F_PRIVATE) &&
		    (c->tc->flags & F_DIRTY) && fdatasync(c->fd) < 0)
			return fail(c, "fdatasync: %s (errno %d)", strerror(errno), errno);
		return memcg_squeeze(c, reclaimable);
	case SRC_RECLAIM:
		return memcg_reclaim(c, reclaimable * 3 / 4);
	default:
		return fail(c, "bad source");
	}
}

/* ---- helper processes (fork / several mappers) ----------------------- */

int helper_spawn(struct ctx *c, helper_fn fn)
{
	int up[2], down[2], idx = c->nhelpers;
	pid_t pid;

	if (idx >= MAX_HELPERS)
		return fail(c, "too many helpers");
	if (pipe2(up, O_CLOEXEC) < 0 || pipe2(down, O_CLOEXEC) < 0)
		return fail(c, "pipe2: %s (errno %d)", strerror(errno), errno);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail(c, "fork helper: %s (errno %d)", strerror(errno), errno);
	if (pid == 0) {
		char ch = 0;
		int rc;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(up[0]);
		close(down[1]);
		c->helper_idx = idx;
		rc = fn(c, 0, idx);
		if (write(up[1], rc ? "E" : "R", 1) != 1 || rc)
			_exit(1);
		if (read(down[0], &ch, 1) != 1)
			_exit(2);
		rc = fn(c, 1, idx);
		_exit(rc ? 1 : 0);
	}
	close(up[1]);
	close(down[0]);
	c->helpers[idx].pid = pid;
	c->helpers[idx].up = up[0];
	c->helpers[idx].down = down[1];
	c->nhelpers++;
	return 0;
}

static int helpers_wait(struct ctx *c, int i, const char *when)
{
	int status;

	if (waitpid(c->helpers[i].pid, &status, 0) < 0)
		return fail(c, "waitpid helper %d: %s", i, strerror(errno));
	c->helpers[i].pid = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		return fail(c, "helper %d killed by signal %d (%s) %s%s%s", i, WTERMSIG(status),
			    strsignal(WTERMSIG(status)), when,
			    c->res->helper_reason[i][0] ? ": " : "", c->res->helper_reason[i]);
	return fail(c, "helper %d failed %s: %s", i, when,
		    c->res->helper_reason[i][0] ? c->res->helper_reason[i] : "(no reason)");
}

static int helpers_ready(struct ctx *c)
{
	int i;

	for (i = 0; i < c->nhelpers; i++) {
		char ch = 0;

		if (read(c->helpers[i].up, &ch, 1) != 1 || ch != 'R') {
			helpers_wait(c, i, "during setup");
			return -1;
		}
	}
	return 0;
}

static int helpers_finish(struct ctx *c)
{
	int i, rc = 0;

	for (i = 0; i < c->nhelpers; i++)
		if (write(c->helpers[i].down, "G", 1) != 1)
			rc = fail(c, "release helper %d: %s", i, strerror(errno));
	for (i = 0; i < c->nhelpers; i++) {
		if (c->helpers[i].pid && helpers_wait(c, i, "verifying after reclaim") < 0)
			rc = -1;
		close(c->helpers[i].up);
		close(c->helpers[i].down);
	}
	c->nhelpers = 0;
	return rc;
}

/* ---- premise: what reclaim did in try_to_unmap_one --------------------- */

#define FT_VMSTAT_PATH "/sys/kernel/debug/" FOLIOTUNE_DEBUGFS_DIR "/" FOLIOTUNE_VMSTAT_FILE
/* A set of counters: bit FT_x for counter x. */
typedef unsigned __int128 ctr_mask;
#define CBIT(x) ((ctr_mask)1 << (FT_##x))

static const char *const ctr_name[FT_NR_COUNTERS] = {
	FOLIOTUNE_COUNTERS(FOLIOTUNE_NAME_STRING)
};

_Static_assert(FT_NR_COUNTERS <= 128, "counter masks are 128-bit");

/* Counters that only foliotune's batching moves. */
static const ctr_mask batch_ctrs = CBIT(unmap_batches) | CBIT(unmap_batched_ptes) |
	CBIT(unmap_batch_order1) | CBIT(unmap_batch_order2) | CBIT(unmap_batch_order3) |
	CBIT(unmap_batch_order4) | CBIT(unmap_batch_order5) | CBIT(unmap_batch_order6) |
	CBIT(unmap_batch_order7) | CBIT(unmap_batch_order8) | CBIT(unmap_batch_order9);

/* The counters of the kernel's own code (Linux 7, unmap_batch=0). */
static const ctr_mask kernel_ctrs = CBIT(unmap_kernel_batches) |
	CBIT(unmap_kernel_batched_ptes) | CBIT(unmap_kernel_single_ptes) |
	CBIT(unmap_kernel_nobatch_small) | CBIT(unmap_kernel_nobatch_swap) |
	CBIT(unmap_kernel_nobatch_hwpoison) | CBIT(unmap_kernel_nobatch_nonpresent) |
	CBIT(unmap_kernel_nobatch_uffd_wp) | CBIT(unmap_kernel_nobatch_hugetlb) |
	CBIT(unmap_kernel_nobatch_partial) | CBIT(unmap_kernel_batch_order0) |
	CBIT(unmap_kernel_batch_order1) | CBIT(unmap_kernel_batch_order2) |
	CBIT(unmap_kernel_batch_order3) | CBIT(unmap_kernel_batch_order4) |
	CBIT(unmap_kernel_batch_order5) | CBIT(unmap_kernel_batch_order6) |
	CBIT(unmap_kernel_batch_order7) | CBIT(unmap_kernel_batch_order8) |
	CBIT(unmap_kernel_batch_order9);

/* Linux 7 batches in its own try_to_unmap_one(): arm 0 is not per PTE. */
static bool kernel_batches(void)
{
	return ft_linux7();
}

/* All of foliotune's counters in one read; -1 (ft_err) if one is missing. */
static int ctrs_read(struct ctrs *out)
{
	char buf[8192], *line, *save = NULL;
	int i;

	if (ft_read_file(FT_VMSTAT_PATH, buf, sizeof(buf)) < 0)
		return -1;
	for (i = 0; i < FT_NR_COUNTERS; i++)
		out->v[i] = -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		long long v;

		if (sscanf(line, "%63s %lld", name, &v) != 2)
			continue;
		for (i = 0; i < FT_NR_COUNTERS; i++)
			if (!strcmp(name, ctr_name[i]))
				out->v[i] = v;
	}
	for (i = 0; i < FT_NR_COUNTERS; i++)
		if (out->v[i] < 0) {
			ft_seterr("counter %s missing from %s", ctr_name[i], FT_VMSTAT_PATH);
			return -1;
		}
	return 0;
}

static bool counters_expected(void)
{
	return opt.mode == M_BATCH || opt.mode == M_NOBATCH || opt.mode == M_FLIP ||
	       opt.mode == M_PTE;
}

/* Before reclaim (once per case: the truncate race starts earlier). */
int premise_start(struct ctx *c)
{
	if (!counters_expected() || c->c0)
		return 0;
	c->c0 = malloc(sizeof(*c->c0));
	if (!c->c0)
		return fail(c, "out of memory");
	if (ctrs_read(c->c0) < 0)
		return fail(c, "premise: cannot read foliotune's counters (-U %s): %s",
			    mode_name[opt.mode], ft_err);
	return 0;
}

/* Names and deltas of the counters in @mask that moved, for messages. */
static void fmt_moved(char *buf, size_t n, const long long *d, ctr_mask mask)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < FT_NR_COUNTERS && len < n; i++)
		if ((mask & ((ctr_mask)1 << i)) && d[i])
			len += (size_t)snprintf(buf + len, n - len, "%s%s %+lld", len ? ", " : "",
						ctr_name[i], d[i]);
	if (!len)
		snprintf(buf, n, "none");
}

static void fmt_names(char *buf, size_t n, ctr_mask mask)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < FT_NR_COUNTERS && len < n; i++)
		if (mask & ((ctr_mask)1 << i))
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "",
						ctr_name[i]);
}

static bool any_moved(const long long *d, ctr_mask mask)
{
	int i;

	for (i = 0; i < FT_NR_COUNTERS; i++)
		if ((mask & ((ctr_mask)1 << i)) && d[i])
			return true;
	return false;
}

/*
 * With unmap_batch=1, the path each case exists for:
 *   any    at least one of these counters moves;
 *   batch  unmap_batches moves, and unmap_batch_order<order> when order >= 0;
 *   none   no batch counter moves (the case is excluded from batching).
 * With unmap_batch=0 no batch counter may move, and the large-folio PTEs are
 * done one by one for the "off" reason (or were order 0 after a split).
 */
struct expect {
	ctr_mask any;
	bool batch, none;
	int order;
	const char *what;
};

static void case_expect(const struct ctx *c, struct expect *e)
{
	const struct tcase *tc = c->tc;

	memset(e, 0, sizeof(*e));
	e->order = -1;
	if (tc->fn == case_uffd) {
		e->any = CBIT(unmap_nobatch_uffd_wp);
		e->none = true;
		e->what = "uffd-wp VMA: per PTE";
		return;
	}
	if (tc->want == W_MMAP && kernel_batches()) {
		e->any = CBIT(unmap_nobatch_small);
		e->none = true;
		e->what = "order-0 folios (Linux 7's mmap read-around): per PTE";
		return;
	}
	if (tc->kind == K_ANON && tc->fn != case_lazyfree) {
		/* Swapped out whole, or split to order 0 first. */
		e->any = CBIT(unmap_nobatch_swap) | CBIT(unmap_nobatch_small);
		e->none = true;
		e->what = "swap-backed anon: per PTE";
		return;
	}
	e->batch = true;
	e->what = "batched";
	if (tc->fn == case_mlock) {
		/* The straddling folio: its locked PTEs abort a reclaim walk,
		 * or are unmapped one by one by the split MADV_PAGEOUT makes. */
		e->any = CBIT(unmap_nobatch_mlock) | CBIT(unmap_aborts);
		e->what = "batched, and the mlocked PTEs per PTE or aborting";
	} else if (tc->fn == case_lazyfree && tc->arg && c->src == SRC_PAGEOUT) {
		/* Redirtied lazyfree folios are put back (MADV_PAGEOUT ignores
		 * the young bit the writes set; LRU reclaim keeps them). */
		e->any = CBIT(unmap_aborts);
		e->what = "batched, and the redirtied lazyfree folios kept";
	} else if (tc->fn == case_split) {
		e->any = CBIT(unmap_nobatch_small);
		if (c->split_order_ok)
			e->order = 2;
		e->what = "batched (order-2 pieces), order-0 pieces per PTE";
	}
	if (tc->flags & F_PTE2M)
		e->order = 9;
	else if (tc->want == W_EXACT)
		e->order = order_of_kb(tc->mthp_kb);
	else if ((tc->flags & F_THP) && tc->fn == case_basic &&
		 (tc->flags & (F_PRIVATE | F_DIRTY)) != (F_PRIVATE | F_DIRTY))
		e->order = 8;	/* VA 2 MiB + 64 KiB: 496 PTEs in the first table */
}

/* kB of the segments' VMAs mapped by PMDs (the PMD split zaps them: no PTE). */
static long pmd_mapped_kb(struct ctx *c)
{
	static const char *const fields[] = { "FilePmdMapped", "ShmemPmdMapped", "AnonHugePages" };
	long kb = 0, v;
	int i, j;

	for (i = 0; i < c->nseg; i++)
		for (j = 0; j < (int)FT_ARRAY_SIZE(fields); j++) {
			v = ft_smaps_kb(c->seg[i].addr, fields[j]);
			if (v > 0)
				kb += v;
		}
	return kb;
}

static long rss_kb(void)
{
	return ft_status_kb("RssFile") + ft_status_kb("RssShmem") + ft_status_kb("RssAnon");
}

long rss_tol_kb(void)
{
	long ncpu = ft_nproc(), batch = ncpu * 2 > 32 ? ncpu * 2 : 32;

	/*
	 * /proc/self/status reads the mm rss percpu counters approximately
	 * (percpu_counter_read_positive on 6.12): each CPU may hold up to
	 * `batch` (max(32, 2*nr_cpus)) pages not yet folded in.  Plus
	 * 128 kB for our own heap/stack moving.
	 */
	return ncpu * batch * 4 + 128;
}

/*
 * After reclaim: prove from counters that reclaim reached try_to_unmap_one
 * and took the path the case exists for, and check foliotune's count of
 * unmapped PTEs against the page tables (pagemap: present before minus
 * after, in this process's mappings) and RSS.
 */
static int premise_check(struct ctx *c, long before, long after, long pmd_kb, long rss_drop)
{
	bool exact = c->src == SRC_PAGEOUT && !c->nhelpers && !(c->tc->flags & F_SHARED_FOLIOS) &&
		     !pmd_kb && c->tc->fn != case_truncate;
	long long d[FT_NR_COUNTERS], ptes;
	char moved[512], want[256];
	struct ctrs c1;
	struct expect e;
	ctr_mask any;
	int i;

	tap_diag("reclaim: %ld PTEs cleared (pagemap), RSS %+ld kB, %ld kB PMD-mapped before [%s]",
		 before - after, -rss_drop, pmd_kb, src_name[c->src]);
	if (!counters_expected())
		return 0;
	if (ctrs_read(&c1) < 0)
		return fail(c, "premise: cannot read foliotune's counters: %s", ft_err);
	for (i = 0; i < FT_NR_COUNTERS; i++)
		d[i] = c1.v[i] - c->c0->v[i];
	ptes = d[FT_unmap_batched_ptes] + d[FT_unmap_single_ptes] +
	       d[FT_unmap_kernel_batched_ptes] + d[FT_unmap_kernel_single_ptes];
	fmt_moved(moved, sizeof(moved), d, (~(CBIT(loads) | CBIT(unmap_calls)) &
		  ((CBIT(unmap_restored_ptes) << 1) - 1)) | kernel_ctrs);
	tap_diag("foliotune counters (expecting unmap_batch %s): unmap_calls %+lld; %s", mode_name[opt.mode],
		 d[FT_unmap_calls], moved);

	if (d[FT_unmap_calls] <= 0)
		return fail(c, "premise: reclaim via %s never reached try_to_unmap_one "
			    "(unmap_calls +0): nothing was tested", src_name[c->src]);

	/* Every PTE reclaim cleared in this process was counted (PMD
	 * mappings are zapped whole, the truncate race reclaimed earlier). */
	if (!pmd_kb && c->tc->fn != case_truncate) {
		if (exact && ptes != before - after)
			return fail(c, "identity: foliotune counted %lld unmapped PTEs "
				    "(batched + single), pagemap shows %ld PTEs cleared",
				    ptes, before - after);
		if (ptes < before - after)
			return fail(c, "identity: foliotune counted %lld unmapped PTEs "
				    "(batched + single), fewer than the %ld pagemap shows cleared",
				    ptes, before - after);
		/* Three approximate RSS counters: three times one's tolerance. */
		if (exact && labs((long)ptes * 4 - rss_drop) > 3 * rss_tol_kb())
			return fail(c, "identity: foliotune counted %lld unmapped PTEs (%lld kB), "
				    "RSS fell by %ld kB (tolerance %ld kB)", ptes, ptes * 4,
				    rss_drop, 3 * rss_tol_kb());
	}
	if (opt.mode == M_FLIP)
		return 0;

	case_expect(c, &e);
	if (pmd_kb) {
		/* Only the PMD split ran: no PTE of ours to batch. */
		e.any = 0;
		e.batch = false;
		e.order = -1;
	}
	if (opt.mode == M_NOBATCH && kernel_batches()) {
		/* The kernel's own code unmapped them, in its own counters. */
		if (any_moved(d, batch_ctrs) || d[FT_unmap_single_ptes]) {
			fmt_moved(moved, sizeof(moved), d, batch_ctrs | CBIT(unmap_single_ptes));
			return fail(c, "premise: unmap_batch=0 but foliotune's own run counters moved: %s",
				    moved);
		}
		/* A PMD mapping is zapped whole: no PTE for it to count. */
		if (!pmd_kb && !d[FT_unmap_kernel_batched_ptes] && !d[FT_unmap_kernel_single_ptes] &&
		    !(e.any & CBIT(unmap_aborts) && d[FT_unmap_aborts]))
			return fail(c, "premise: unmap_batch=0 but the kernel's own code counted no "
				    "unmapped PTE (unmap_kernel_batched_ptes, _single_ptes +0)");
		if ((c->tc->flags & F_PTE2M) && !pmd_kb && !d[FT_unmap_kernel_batch_order9])
			return fail(c, "premise: unmap_batch=0 but the kernel unmapped no 512-PTE "
				    "run of the 2 MiB folios (unmap_kernel_batch_order9 +0)");
		return 0;
	}
	if (opt.mode == M_NOBATCH || opt.mode == M_PTE) {
		if (any_moved(d, batch_ctrs | kernel_ctrs)) {
			fmt_moved(moved, sizeof(moved), d, batch_ctrs | kernel_ctrs);
			return fail(c, "premise: unmap_batch=%s but batch counters moved: %s",
				    mode_name[opt.mode], moved);
		}
		any = e.batch ? CBIT(unmap_nobatch_off) :
		      e.any ? CBIT(unmap_nobatch_off) |
			      (e.any & (CBIT(unmap_nobatch_small) | CBIT(unmap_aborts))) : 0;
		if (any && !any_moved(d, any)) {
			fmt_names(want, sizeof(want), any);
			return fail(c, "premise: unmap_batch=%s but none of [%s] moved",
				    mode_name[opt.mode], want);
		}
		return 0;
	}
	if (e.none && any_moved(d, batch_ctrs)) {
		fmt_moved(moved, sizeof(moved), d, batch_ctrs);
		return fail(c, "premise: %s expected, but batch counters moved: %s", e.what, moved);
	}
	if (e.batch && d[FT_unmap_batches] <= 0)
		return fail(c, "premise: %s expected with unmap_batch=1, but unmap_batches +0", e.what);
	if (e.order >= 0 && d[FT_unmap_batch_order0 + e.order] <= 0) {
		fmt_moved(moved, sizeof(moved), d, batch_ctrs & ~(CBIT(unmap_batches) |
								  CBIT(unmap_batched_ptes)));
		return fail(c, "premise: no batch of order %d (unmap_batch_order%d +0; moved: %s)",
			    e.order, e.order, moved);
	}
	if (e.any && !any_moved(d, e.any)) {
		fmt_names(want, sizeof(want), e.any);
		return fail(c, "premise: %s expected, but none of [%s] moved", e.what, want);
	}
	return 0;
}

/* ---- the common tail of every case ------------------------------------ */

int verify_segs(struct ctx *c, const char *what)
{
	int i;

	for (i = 0; i < c->nseg; i++)
		if (ft_verify_mem(c->seg[i].addr, c->seg[i].len, c->seg[i].off, c->id, c->st,
				  &c->vr, what) < 0)
			return fail(c, "%s", ft_err);
	return 0;
}

int finish(struct ctx *c)
{
	long before, after, locked_missing = 0, pmd_kb, rss0;
	uint64_t first_missing = 0;

	step(c, "wait for helpers");
	if (helpers_ready(c) < 0)
		return -1;
	before = present_pages(c, NULL, NULL);
	if (before < 0)
		return -1;
	pmd_kb = pmd_mapped_kb(c);
	rss0 = rss_kb();
	if (premise_start(c) < 0)
		return -1;
	step(c, "reclaim");
	if (do_reclaim(c) < 0)
		return -1;
	step(c, "premise");
	after = present_pages(c, &locked_missing, &first_missing);
	if (after < 0)
		return -1;
	tap_diag("present pages: %ld before reclaim, %ld after (of %zu) [%s]", before, after,
		 seg_bytes(c) / FT_PAGE, src_name[c->src]);
	if (locked_missing)
		return fail(c, "reclaim unmapped %ld pages of the mlocked range (first at offset %#llx)",
			    locked_missing, (unsigned long long)first_missing);
	if (after >= before && !c->skip_unmap_check)
		return fail(c, "premise: reclaim via %s unmapped none of the %ld mapped pages "
			    "(pagemap): nothing was tested", src_name[c->src], before);
	if (premise_check(c, before, after, pmd_kb, rss0 - rss_kb()) < 0)
		return -1;
	if (opt.selftest) {
		/* -X: prove the checker fails: flip one word in the middle
		 * of the last segment. */
		struct seg *s = &c->seg[c->nseg - 1];
		volatile uint64_t *w = (volatile uint64_t *)(s->addr + FT_ALIGN_DOWN(s->len / 2, 8));

		if (mprotect(s->addr, s->len, PROT_READ | PROT_WRITE) == 0)
			*w ^= 0x100;
	}
	step(c, "verify mapping");
	if (verify_segs(c, "mapping after reclaim") < 0)
		return -1;
	if (c->post_verify && c->post_verify(c) < 0)
		return -1;
	step(c, "helpers verify");
	if (helpers_finish(c) < 0)
		return -1;
	step(c, "unmap");
	if (unmap_all(c) < 0)
		return -1;
	return verify_disk(c);
}
