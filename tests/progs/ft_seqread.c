// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_seqread - the workload fault-around is for: reads through a large
 * mapped file whose pages are all in the page cache (no memory pressure),
 * sequentially and with strides, so that every page fault-around maps is
 * one the reader is about to touch.  Counts the minor faults (getrusage)
 * and the time of each pass.
 *
 *   ft_seqread -d DIR [-s MB] [-p PATTERNS] [-n PASSES] [-t SECONDS] [-c] [-S]
 *
 * The file DIR/ft-seqread.dat (MB MiB, non-zero data) is created if it is
 * missing or has another size, then read once with read(2) so that it is
 * all cached (readahead's large folios) before anything is timed; -S stops
 * there (setup only).  Each pattern, PASSES times: mmap the whole file
 * MAP_PRIVATE, PROT_READ, read one byte of each selected page, munmap.
 * Patterns (comma separated, default "seq,stride2,stride4,stride16,rand"):
 *   seq        every page, in order
 *   strideN    every Nth page, in order (N = 2..512)
 *   rev        every page, last to first
 *   rand       npages/16 pages picked at random (seeded; fault-around's
 *              worst case here: its extra pages are mostly wasted)
 * -t SECONDS: repeat each pattern's passes until it has run SECONDS (at
 * least PASSES passes): long enough for a feedback tuner with a period of
 * about a second to act, so that its steady state, and not only its first
 * period, is measured; compare ns_per_page then, not ms.
 * -c (cold): drop the file from the page cache (POSIX_FADV_DONTNEED)
 * before every pass, so the pass includes readahead I/O and major faults.
 *
 * Output, one line per pass and a total:
 *   read pattern=seq pass=1 pages=N touched=N minflt=N majflt=N ms=X ns_per_page=X
 *   total passes=N touched=N minflt=N majflt=N ms=X
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
#include <sys/resource.h>
#include <sys/stat.h>

static struct {
	const char *dir;
	long mb;
	const char *patterns;
	int passes;
	double seconds;
	bool cold;
	bool setup_only;
} opt = {
	.mb = 128,
	.patterns = "seq,stride2,stride4,stride16,rand",
	.passes = 1,
};

static volatile uint64_t sink;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ft_seqread -d DIR [options]\n"
		"  -d DIR       directory of the file (on the fs under test)\n"
		"  -s MB        file size (default 128)\n"
		"  -p LIST      patterns: seq,strideN,rev,rand (default %s)\n"
		"  -n PASSES    passes per pattern (default 1)\n"
		"  -t SECONDS   repeat each pattern until it ran SECONDS (at least PASSES)\n"
		"  -c           drop the file from the page cache before each pass\n"
		"  -S           setup only: create and cache the file\n", opt.patterns);
}

static int die(const char *what)
{
	printf("error %s: %s\n", what, ft_err);
	fprintf(stderr, "ft_seqread: %s: %s\n", what, ft_err);
	return 1;
}

static void faults(long *mi, long *ma)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*mi = ru.ru_minflt;
	*ma = ru.ru_majflt;
}

/* Read the whole file so every page is cached; returns 0 or -1. */
static int warm(int fd, size_t size)
{
	static char buf[1 << 20];
	size_t off = 0;
	ssize_t r;

	while (off < size) {
		r = pread(fd, buf, sizeof(buf), (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ft_seterr_errno("read at %zu", off);
			return -1;
		}
		off += (size_t)r;
	}
	return 0;
}

/* One pass; returns pages touched, or 0 on a bad pattern. */
static size_t pass(const char *pat, const volatile char *p, size_t np)
{
	uint64_t sum = 0, s;
	size_t i, n = 0, stride;
	char *end;

	if (!strcmp(pat, "seq")) {
		for (i = 0; i < np; i++, n++)
			sum += p[i * FT_PAGE];
	} else if (!strcmp(pat, "rev")) {
		for (i = np; i-- > 0; n++)
			sum += p[i * FT_PAGE];
	} else if (!strcmp(pat, "rand")) {
		s = 12345;
		for (n = 0; n < np / 16; n++) {
			s = ft_mix64(s);
			sum += p[(s % np) * FT_PAGE];
		}
	} else if (!strncmp(pat, "stride", 6)) {
		stride = strtoul(pat + 6, &end, 10);
		if (*end || stride < 2 || stride > 512)
			return 0;
		for (i = 0; i < np; i += stride, n++)
			sum += p[i * FT_PAGE];
	}
	sink += sum;
	return n;
}

int main(int argc, char **argv)
{
	long mi0, ma0, mi1, ma1, tmi = 0, tma = 0;
	char path[600], *list, *pat, *save;
	size_t size, np, n, ttouched = 0;
	double ms, tms = 0;
	struct stat st;
	int c, fd, k, npass = 0;
	uint64_t t0;
	void *p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "d:s:p:n:t:cSh")) != -1) {
		switch (c) {
		case 'd': opt.dir = optarg; break;
		case 's': opt.mb = atol(optarg); break;
		case 'p': opt.patterns = optarg; break;
		case 'n': opt.passes = atoi(optarg); break;
		case 't': opt.seconds = atof(optarg); break;
		case 'c': opt.cold = true; break;
		case 'S': opt.setup_only = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || !opt.dir || opt.mb < 1 || opt.passes < 1 || opt.seconds < 0) {
		usage(stderr);
		return 2;
	}
	size = (size_t)opt.mb * FT_MB;
	np = size / FT_PAGE;
	snprintf(path, sizeof(path), "%s/ft-seqread.dat", opt.dir);
	if (stat(path, &st) < 0 || (size_t)st.st_size != size) {
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			ft_seterr_errno("create %s", path);
			return die("file");
		}
		if (ft_write_pattern_file(fd, size, 77, true) < 0)
			return die("write");
		close(fd);
		printf("setup file=%s mb=%ld\n", path, opt.mb);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ft_seterr_errno("open %s", path);
		return die("file");
	}
	if (warm(fd, size) < 0)
		return die("warm");
	if (opt.setup_only) {
		printf("cached file=%s mb=%ld\n", path, opt.mb);
		return 0;
	}
	printf("config file=%s mb=%ld pages=%zu patterns=%s passes=%d seconds=%g cold=%d\n",
	       path, opt.mb, np, opt.patterns, opt.passes, opt.seconds, opt.cold);

	list = strdup(opt.patterns);
	if (!list)
		return 1;
	for (pat = strtok_r(list, ",", &save); pat; pat = strtok_r(NULL, ",", &save)) {
		uint64_t pat_end = ft_now_ns() + (uint64_t)(opt.seconds * 1e9);

		for (k = 1; k <= opt.passes || ft_now_ns() < pat_end; k++) {
			if (opt.cold)
				posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
			if (p == MAP_FAILED) {
				ft_seterr_errno("mmap");
				return die("mmap");
			}
			faults(&mi0, &ma0);
			t0 = ft_now_ns();
			n = pass(pat, p, np);
			ms = (double)(ft_now_ns() - t0) / 1e6;
			faults(&mi1, &ma1);
			munmap(p, size);
			if (!n) {
				ft_seterr("unknown pattern '%s'", pat);
				return die("pattern");
			}
			printf("read pattern=%s pass=%d pages=%zu touched=%zu minflt=%ld majflt=%ld "
			       "ms=%.3f ns_per_page=%.1f\n", pat, k, np, n, mi1 - mi0, ma1 - ma0,
			       ms, ms * 1e6 / (double)n);
			tmi += mi1 - mi0;
			tma += ma1 - ma0;
			tms += ms;
			ttouched += n;
			npass++;
		}
	}
	printf("total passes=%d touched=%zu minflt=%ld majflt=%ld ms=%.3f\n",
	       npass, ttouched, tmi, tma, tms);
	free(list);
	close(fd);
	return 0;
}
