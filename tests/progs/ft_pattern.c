// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_pattern.c - the data pattern of ft_common.h: fill memory or a file with
 * it and verify memory or a file against it, page by page, so that a wrong
 * page is reported by its offset.
 */
#define _GNU_SOURCE
#include "ft_common.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

void ft_fill(void *p, size_t len, uint64_t id, unsigned int gen, uint64_t off0)
{
	volatile uint64_t *w = p;
	size_t i, n = len / 8;

	for (i = 0; i < n; i++)
		w[i] = ft_pat(id, gen, off0 + i * 8);
}

static int verify_page(const uint64_t *w, uint64_t off, uint64_t id, uint8_t st,
		       struct ft_vres *vr, const char *what, uint64_t base)
{
	unsigned int gen = st & FT_ST_GEN;
	size_t i, n = FT_PAGE / 8;

	if (st & FT_ST_ZERO_OK) {
		for (i = 0; i < n; i++)
			if (w[i])
				break;
		if (i == n) {
			if (vr)
				vr->zero_pages++;
			return 0;
		}
	}
	for (i = 0; i < n; i++) {
		uint64_t want = ft_pat(id, gen, off + i * 8);

		if (w[i] != want) {
			ft_seterr("%s: first mismatch at offset 0x%llx (+0x%llx from start): "
				  "got 0x%016llx expected 0x%016llx (gen %u%s)",
				  what, (unsigned long long)(off + i * 8),
				  (unsigned long long)(off + i * 8 - base),
				  (unsigned long long)w[i], (unsigned long long)want, gen,
				  (st & FT_ST_ZERO_OK) ? " or zero page" : "");
			return -1;
		}
	}
	return 0;
}

int ft_verify_mem(const void *p, size_t len, uint64_t off0, uint64_t id,
		  const uint8_t *st, struct ft_vres *vr, const char *what)
{
	size_t pg;

	for (pg = 0; pg < len / FT_PAGE; pg++) {
		uint64_t off = off0 + pg * FT_PAGE;

		if (verify_page((const uint64_t *)((const char *)p + pg * FT_PAGE), off, id,
				st[off / FT_PAGE], vr, what, off0) < 0)
			return -1;
		if (vr)
			vr->pages++;
	}
	return 0;
}

int ft_verify_fd(int fd, size_t len, uint64_t off0, uint64_t id,
		 const uint8_t *st, struct ft_vres *vr, const char *what)
{
	static uint64_t buf[(256 * 1024) / 8];
	size_t done = 0;

	while (done < len) {
		size_t chunk = len - done < sizeof(buf) ? len - done : sizeof(buf);
		ssize_t r = pread(fd, buf, chunk, (off_t)(off0 + done));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			ft_seterr_errno("%s: pread at 0x%llx", what,
					(unsigned long long)(off0 + done));
			return -1;
		}
		if ((size_t)r != chunk) {
			ft_seterr("%s: short read at 0x%llx (%zd of %zu): file shorter than expected",
				  what, (unsigned long long)(off0 + done), r, chunk);
			return -1;
		}
		if (ft_verify_mem(buf, chunk, off0 + done, id, st, vr, what) < 0)
			return -1;
		done += chunk;
	}
	return 0;
}

int ft_write_pattern_file(int fd, size_t len, uint64_t id, bool drop)
{
	static uint64_t buf[(1024 * 1024) / 8];
	size_t done = 0;

	while (done < len) {
		size_t chunk = len - done < sizeof(buf) ? len - done : sizeof(buf);
		ssize_t r;

		ft_fill(buf, chunk, id, 1, done);
		r = pwrite(fd, buf, chunk, (off_t)done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ft_seterr_errno("pwrite at 0x%zx", done);
			return -1;
		}
		if ((size_t)r != chunk) {
			ft_seterr("short pwrite at 0x%zx (%zd of %zu): disk full?", done, r, chunk);
			return -1;
		}
		done += chunk;
	}
	if (!drop)
		return 0;
	if (fsync(fd) < 0) {
		ft_seterr_errno("fsync");
		return -1;
	}
	errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (errno) {
		ft_seterr_errno("posix_fadvise(DONTNEED)");
		return -1;
	}
	return 0;
}
