// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_folios.c - what ft_common.h says about folios: the pagemap + kpageflags
 * scanner that counts the folio orders mapped in a range, and the mappings
 * and mounts the programs place their folios with (2 MiB-shifted mmap,
 * tmpfs mounts).
 */
#define _GNU_SOURCE
#include "ft_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

/* ---- pagemap / kpageflags -------------------------------------------- */

void ft_orders_init(struct ft_orders *o)
{
	memset(o, 0, sizeof(*o));
}

void ft_orders_free(struct ft_orders *o)
{
	free(o->heads);
	o->heads = NULL;
	o->nheads = o->cap = 0;
}

int ft_pagemap(const void *addr, size_t len, uint64_t *out)
{
	size_t n = len / FT_PAGE, done = 0;
	off_t off = (off_t)((uintptr_t)addr / FT_PAGE * 8);
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ft_seterr_errno("open /proc/self/pagemap");
		return -1;
	}
	while (done < n) {
		ssize_t r = pread(fd, out + done, (n - done) * 8, off + (off_t)(done * 8));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			ft_seterr_errno("pread /proc/self/pagemap");
			close(fd);
			return -1;
		}
		if (r == 0 || r % 8) {
			ft_seterr("short read of /proc/self/pagemap (%zd)", r);
			close(fd);
			return -1;
		}
		done += (size_t)r / 8;
	}
	close(fd);
	return 0;
}

uint64_t ft_pfn_of(const void *addr)
{
	static int fd = -1;
	uint64_t e;

	if (fd < 0)
		fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, &e, 8, (off_t)((uintptr_t)addr / FT_PAGE * 8)) != 8)
		return 0;
	if (!(e & FT_PM_PRESENT))
		return 0;
	return e & FT_PM_PFN;
}

uint64_t ft_kpageflags(uint64_t pfn)
{
	static int fd = -1;
	uint64_t f;

	if (fd < 0)
		fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !pfn || pread(fd, &f, 8, (off_t)(pfn * 8)) != 8)
		return 0;
	return f;
}

static int kpf_read(int fd, uint64_t pfn, size_t n, uint64_t *out)
{
	ssize_t r = pread(fd, out, n * 8, (off_t)(pfn * 8));

	if (r < 0) {
		ft_seterr_errno("pread /proc/kpageflags at pfn 0x%llx", (unsigned long long)pfn);
		return -1;
	}
	return (int)(r / 8);
}

#define KPF_BIT(f, b) (((f) >> (b)) & 1)

/* Finds the folio containing pfn: head pfn, order, thp flag. */
static int folio_of(int kfd, uint64_t pfn, uint64_t *head, int *order, bool *thp)
{
	uint64_t buf[1024], f;
	uint64_t h = pfn;
	int n, i, nr;

	if (kpf_read(kfd, pfn, 1, &f) != 1)
		return -1;
	if (!KPF_BIT(f, FT_KPF_COMPOUND_HEAD) && !KPF_BIT(f, FT_KPF_COMPOUND_TAIL)) {
		*head = pfn;
		*order = 0;
		*thp = false;
		return 0;
	}
	if (KPF_BIT(f, FT_KPF_COMPOUND_TAIL)) {
		uint64_t start = pfn >= 1023 ? pfn - 1023 : 0;

		n = kpf_read(kfd, start, (size_t)(pfn - start + 1), buf);
		if (n < 0)
			return -1;
		for (i = n - 1; i >= 0; i--)
			if (KPF_BIT(buf[i], FT_KPF_COMPOUND_HEAD))
				break;
		if (i < 0) {
			ft_seterr("no compound head within 1024 pages below pfn 0x%llx",
				  (unsigned long long)pfn);
			return -1;
		}
		h = start + (uint64_t)i;
		f = buf[i];
	}
	n = kpf_read(kfd, h + 1, FT_ARRAY_SIZE(buf), buf);
	if (n < 0)
		return -1;
	for (nr = 1, i = 0; i < n; i++, nr++)
		if (!KPF_BIT(buf[i], FT_KPF_COMPOUND_TAIL) || KPF_BIT(buf[i], FT_KPF_COMPOUND_HEAD))
			break;
	*head = h;
	*order = 0;
	while ((1 << (*order + 1)) <= nr)
		(*order)++;
	*thp = KPF_BIT(f, FT_KPF_THP);
	return 0;
}

/*
 * kpageflags describes a PFN now, the pagemap read before it described the
 * range a moment earlier: a folio that compaction or reclaim moved in
 * between leaves a stale PFN that may by then belong to anybody's folio.
 * So a pass counts only if a second pagemap read finds every entry as the
 * first one did; otherwise its additions are rolled back and it is redone.
 * And a pass waits while compaction has pages of the range unmapped
 * (migration entries, RSS kept): they would read as neither mapped nor
 * reclaimed, and under TCG a batch stays so for long enough to be read
 * twice alike.
 */
#define FT_PM_STABLE_MASK (FT_PM_PRESENT | FT_PM_SWAP | FT_PM_PFN)
#define FT_ORDERS_TRIES 8
#define FT_MIGRATION_WAIT_MS 5000

static int wait_migration(const void *addr, size_t len, uint64_t *pm)
{
	size_t n = len / FT_PAGE, i, moving;
	int ms;

	for (ms = 0;; ms += 10) {
		if (ft_pagemap(addr, len, pm) < 0)
			return -1;
		for (i = moving = 0; i < n; i++)
			moving += FT_PM_MIGRATING(pm[i]);
		if (!moving)
			return 0;
		if (ms >= FT_MIGRATION_WAIT_MS) {
			ft_seterr("%zu pages of %p+%zu stayed under migration for %d ms",
				  moving, addr, len, ms);
			return -1;
		}
		usleep(10000);
	}
}

static int orders_pass(struct ft_orders *o, int kfd, const uint64_t *pm, size_t n)
{
	uint64_t cur_head = 0, cur_end = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t e = pm[i], pfn = e & FT_PM_PFN, head;
		bool thp;
		int order;

		o->pages++;
		if (e & FT_PM_UFFD_WP)
			o->uffd_wp++;
		if (e & FT_PM_SWAP)
			o->swapped++;
		if (!(e & FT_PM_PRESENT))
			continue;
		o->present++;
		if (kfd < 0)
			continue;
		if (!pfn) {
			o->pfn_hidden = true;
			continue;
		}
		if (pfn >= cur_head && pfn < cur_end)
			continue;
		if (folio_of(kfd, pfn, &head, &order, &thp) < 0)
			return -1;
		cur_head = head;
		cur_end = head + (1ULL << order);
		if (o->nheads == o->cap) {
			size_t cap = o->cap ? o->cap * 2 : 256;
			uint64_t *h = realloc(o->heads, cap * sizeof(*h));

			if (!h) {
				ft_seterr("out of memory for folio heads");
				return -1;
			}
			o->heads = h;
			o->cap = cap;
		}
		o->heads[o->nheads++] = (head << 8) | ((uint64_t)thp << 7) | (uint64_t)order;
	}
	return 0;
}

int ft_orders_scan(struct ft_orders *o, const void *addr, size_t len, bool folios)
{
	size_t n = len / FT_PAGE, i;
	struct ft_orders before = *o;
	uint64_t *pm, *again = NULL;
	int kfd = -1, ret = -1, try;

	pm = malloc(n * 8 + 8);
	if (folios)
		again = malloc(n * 8 + 8);
	if (!pm || (folios && !again)) {
		ft_seterr("out of memory for %zu pagemap entries", n);
		goto out;
	}
	if (folios) {
		kfd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
		if (kfd < 0) {
			ft_seterr_errno("open /proc/kpageflags (needs root)");
			goto out;
		}
	}
	for (try = 0; try < FT_ORDERS_TRIES; try++) {
		if (wait_migration(addr, len, pm) < 0 || orders_pass(o, kfd, pm, n) < 0)
			goto out;
		if (!folios) {
			ret = 0;
			goto out;
		}
		if (ft_pagemap(addr, len, again) < 0)
			goto out;
		for (i = 0; i < n; i++)
			if ((pm[i] ^ again[i]) & FT_PM_STABLE_MASK)
				break;
		if (i == n) {
			ret = 0;
			goto out;
		}
		/* Roll back this pass; the heads array may have grown. */
		before.heads = o->heads;
		before.cap = o->cap;
		*o = before;
	}
	ft_seterr("pages of %p+%zu kept moving while their folios were read (%d tries)",
		  addr, len, FT_ORDERS_TRIES);
out:
	if (kfd >= 0)
		close(kfd);
	free(again);
	free(pm);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void ft_orders_done(struct ft_orders *o)
{
	size_t i;

	memset(o->hist, 0, sizeof(o->hist));
	o->nfolios = o->thp = 0;
	if (!o->nheads)
		return;
	qsort(o->heads, o->nheads, sizeof(*o->heads), cmp_u64);
	for (i = 0; i < o->nheads; i++) {
		if (i && (o->heads[i] >> 8) == (o->heads[i - 1] >> 8))
			continue;
		o->hist[o->heads[i] & 0x0f]++;
		o->nfolios++;
		if (o->heads[i] & 0x80)
			o->thp++;
	}
}

void ft_orders_fmt(const struct ft_orders *o, char *buf, size_t n)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 16 && len < n; i++)
		if (o->hist[i])
			len += (size_t)snprintf(buf + len, n - len, "%s%d:%lu", len ? " " : "", i,
						o->hist[i]);
	if (!len)
		snprintf(buf, n, "%s", o->pfn_hidden ? "(PFNs hidden: not root?)" : "(none mapped)");
}

int ft_orders_max(const struct ft_orders *o)
{
	int i;

	for (i = 15; i >= 0; i--)
		if (o->hist[i])
			return i;
	return -1;
}

/* ---- mappings and mounts --------------------------------------------- */

void *ft_map_shifted(size_t len, size_t shift, int prot, int flags, int fd, off_t off)
{
	size_t total = len + 2 * FT_PMD;
	uintptr_t res, base;
	void *r, *p;

	r = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED) {
		ft_seterr_errno("mmap reserve of %zu bytes", total);
		return MAP_FAILED;
	}
	res = (uintptr_t)r;
	base = FT_ALIGN_UP(res, FT_PMD) + (shift % FT_PMD);
	p = mmap((void *)base, len, prot, flags | MAP_FIXED, fd, off);
	if (p == MAP_FAILED) {
		ft_seterr_errno("mmap %zu bytes at %#lx (shift %#zx, offset %#llx)", len,
				(unsigned long)base, shift, (unsigned long long)off);
		munmap(r, total);
		return MAP_FAILED;
	}
	if (base > res)
		munmap(r, base - res);
	if (res + total > base + len)
		munmap((void *)(base + len), res + total - (base + len));
	return p;
}

int ft_mount_tmpfs(const char *base, const char *opts, char *out, size_t n)
{
	static int seq;

	snprintf(out, n, "%s/ft-tmpfs-%d-%d", base, (int)getpid(), seq++);
	if (mkdir(out, 0700) < 0) {
		ft_seterr_errno("mkdir %s", out);
		return -1;
	}
	if (ft_cl_push(FT_CL_RMDIR, out, NULL) < 0)
		return -1;
	if (mount("ft-tmpfs", out, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) {
		ft_seterr_errno("mount -t tmpfs -o %s %s", opts, out);
		return -1;
	}
	return ft_cl_push(FT_CL_UMOUNT, out, NULL) < 0 ? -1 : 0;
}

bool ft_is_debugfs(const char *path)
{
	struct statfs sfs;

	return statfs(path, &sfs) == 0 && (unsigned long)sfs.f_type == DEBUGFS_MAGIC;
}
