// SPDX-License-Identifier: GPL-2.0
/*
 * ft_rel_mapload.c - ft_rel mapload: a verified reclaim load over a
 * shared file and anon memory (usage in ft_rel.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

#include "ft_rel.h"

int cmd_mapload(const char *dir, size_t mb, int secs)
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
