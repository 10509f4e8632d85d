// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_pageout_bench - the MADV_PAGEOUT micro-benchmark of Yin Fengwei's
 * "batched remove rmap in try_to_unmap_one()" series (March 2023):
 *
 *	char *c = mmap(NULL, FILESIZE, PROT_READ|PROT_WRITE, MAP_PRIVATE, fd, 0);
 *	while (1) {
 *		for (i = 0; i < FILESIZE; i += pgsize)
 *			cc = *(volatile char *)(c + i);
 *		madvise(c, FILESIZE, MADV_PAGEOUT);
 *		count++;
 *	}
 *
 * run as N instances (processes), each on its own 2 MiB file in DIR, for a
 * fixed time.  Every loop re-reads the file through readahead (the pageout
 * drops the clean page cache), so on 6.12 the folios are the page-cache
 * large folios readahead makes: orders 2..5 by default, order 9 with -H.
 *
 * Usage: ft_pageout_bench [-d DIR] [-n INSTANCES] [-t SECONDS] [-H] [-U KB] [-R]
 *   -d DIR        directory for the files (default $FT_XFS or /mnt/ft-xfs)
 *   -n N          instances (default: number of online CPUs)
 *   -t SECONDS    run time (default 5)
 *   -H            madvise(MADV_HUGEPAGE) the mapping
 *   -U KB         map at a 2 MiB-aligned address + KB (default: where mmap
 *                 puts it; with -H that is usually aligned = PMD mapping)
 *   -R            report the folio order mix (pagemap + kpageflags, sampled
 *                 once per instance after the first touch, before the first
 *                 pageout); needs root
 *
 * Output ends with two machine-readable lines:
 *   loops 12345
 *   loops_per_sec 2469.00
 */
#define _GNU_SOURCE
#include "ft_common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define FILESIZE (2UL << 20)

struct inst {
	long loops;
	double secs;
	int err;
	char why[256];
	unsigned long hist[16];
	unsigned long nfolios, pages;
	bool pfn_hidden;
};

static struct {
	const char *dir;
	int n;
	int secs;
	bool huge;
	long shift_kb;
	bool report;
} opt = { .secs = 5, .shift_kb = -1 };

static void inst_fail(struct inst *in, const char *what)
{
	in->err = errno ? errno : EIO;
	snprintf(in->why, sizeof(in->why), "%s: %s (errno %d)", what, strerror(in->err), in->err);
}

static void __attribute__((noreturn)) instance(int idx, const char *path, int start_fd,
					       struct inst *in)
{
	volatile char cc;
	uint64_t t0, end, now;
	char *c, ch;
	size_t i;
	int fd;

	(void)idx;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		inst_fail(in, "open");
		_exit(1);
	}
	if (opt.shift_kb >= 0)
		c = ft_map_shifted(FILESIZE, (size_t)opt.shift_kb * 1024, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE, fd, 0);
	else
		c = mmap(NULL, FILESIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (c == MAP_FAILED) {
		inst_fail(in, "mmap");
		_exit(1);
	}
	if (opt.huge && madvise(c, FILESIZE, MADV_HUGEPAGE) < 0) {
		inst_fail(in, "madvise(MADV_HUGEPAGE)");
		_exit(1);
	}
	/* Start barrier: the parent closes the write end. */
	if (read(start_fd, &ch, 1) < 0) {
		inst_fail(in, "start barrier");
		_exit(1);
	}
	t0 = ft_now_ns();
	end = t0 + (uint64_t)opt.secs * 1000000000ULL;
	do {
		for (i = 0; i < FILESIZE; i += FT_PAGE)
			cc = *(volatile char *)(c + i);
		if (opt.report && in->loops == 0) {
			struct ft_orders o;

			ft_orders_init(&o);
			if (ft_orders_scan(&o, c, FILESIZE, true) < 0) {
				snprintf(in->why, sizeof(in->why), "%.250s", ft_err);
				in->err = EIO;
				_exit(1);
			}
			ft_orders_done(&o);
			memcpy(in->hist, o.hist, sizeof(in->hist));
			in->nfolios = o.nfolios;
			in->pages = o.pages;
			in->pfn_hidden = o.pfn_hidden;
			ft_orders_free(&o);
		}
		if (madvise(c, FILESIZE, MADV_PAGEOUT) < 0) {
			inst_fail(in, "madvise(MADV_PAGEOUT)");
			_exit(1);
		}
		in->loops++;
		now = ft_now_ns();
	} while (now < end);
	(void)cc;
	in->secs = (double)(now - t0) / 1e9;
	munmap(c, FILESIZE);
	close(fd);
	_exit(0);
}

int main(int argc, char **argv)
{
	char path[600], hist[256];
	struct ft_orders sum;
	struct inst *res;
	pid_t *pids, pg = 0;
	long total = 0;
	double rate = 0;
	int start[2], ch, i, fd, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	opt.dir = getenv("FT_XFS") ? getenv("FT_XFS") : "/mnt/ft-xfs";
	opt.n = ft_nproc();
	while ((ch = getopt(argc, argv, "d:n:t:HU:Rh")) != -1) {
		switch (ch) {
		case 'd': opt.dir = optarg; break;
		case 'n': opt.n = atoi(optarg); break;
		case 't': opt.secs = atoi(optarg); break;
		case 'H': opt.huge = true; break;
		case 'U': opt.shift_kb = atol(optarg); break;
		case 'R': opt.report = true; break;
		default:
			fprintf(ch == 'h' ? stdout : stderr,
				"usage: ft_pageout_bench [-d DIR] [-n INSTANCES] [-t SECONDS] [-H] "
				"[-U KB] [-R]\n");
			return ch == 'h' ? 0 : 2;
		}
	}
	if (opt.n < 1 || opt.secs < 1 || opt.shift_kb >= 2048 || (opt.shift_kb > 0 && opt.shift_kb % 4)) {
		fprintf(stderr, "bad -n/-t/-U\n");
		return 2;
	}
	ft_cl_install();
	tap_diag("ft_pageout_bench: %d instances x 2 MiB files in %s, %d s, MADV_HUGEPAGE %s, "
		 "VA shift %s", opt.n, opt.dir, opt.secs, opt.huge ? "on" : "off",
		 opt.shift_kb >= 0 ? "set" : "mmap's choice");
	if (opt.shift_kb >= 0)
		tap_diag("VA = 2 MiB-aligned + %ld kB", opt.shift_kb);

	res = mmap(NULL, sizeof(*res) * (size_t)opt.n, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc((size_t)opt.n, sizeof(*pids));
	if (res == MAP_FAILED || !pids) {
		tap_not_ok("pageout_bench", "out of memory: %s", strerror(errno));
		return 1;
	}
	for (i = 0; i < opt.n; i++) {
		snprintf(path, sizeof(path), "%s/ft-pobench-%d-%d", opt.dir, (int)getpid(), i);
		if (ft_cl_push(FT_CL_UNLINK, path, NULL) < 0)
			goto setup_fail;
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			ft_seterr_errno("create %s", path);
			goto setup_fail;
		}
		if (ft_write_pattern_file(fd, FILESIZE, (uint64_t)i + 1, true) < 0) {
			close(fd);
			goto setup_fail;
		}
		close(fd);
	}
	if (pipe(start) < 0) {
		ft_seterr_errno("pipe");
		goto setup_fail;
	}
	fflush(stdout);
	for (i = 0; i < opt.n; i++) {
		snprintf(path, sizeof(path), "%s/ft-pobench-%d-%d", opt.dir, (int)getpid(), i);
		pids[i] = fork();
		if (pids[i] < 0) {
			ft_seterr_errno("fork");
			kill(-pg, SIGKILL);
			goto setup_fail;
		}
		if (pids[i] == 0) {
			ft_cl_child();
			close(start[1]);
			instance(i, path, start[0], &res[i]);
		}
		if (!pg)
			pg = pids[i];
		setpgid(pids[i], pg);
		ft_cl_set_victim(pg);
	}
	close(start[0]);
	close(start[1]);	/* go */
	for (i = 0; i < opt.n; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			failed++;
			tap_diag("instance %d failed: %s", i,
				 res[i].why[0] ? res[i].why :
				 WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exit status");
			continue;
		}
		tap_diag("instance %d: %ld loops in %.3f s", i, res[i].loops, res[i].secs);
		total += res[i].loops;
		if (res[i].secs > 0)
			rate += (double)res[i].loops / res[i].secs;
	}
	ft_cl_set_victim(0);
	if (opt.report) {
		ft_orders_init(&sum);
		for (i = 0; i < opt.n; i++) {
			int k;

			for (k = 0; k < 16; k++)
				sum.hist[k] += res[i].hist[k];
			sum.nfolios += res[i].nfolios;
			sum.pages += res[i].pages;
			sum.pfn_hidden |= res[i].pfn_hidden;
		}
		ft_orders_fmt(&sum, hist, sizeof(hist));
		tap_diag("orders: %s", hist);
		tap_diag("folio mix sampled before the first pageout: %lu folios over %lu pages",
			 sum.nfolios, sum.pages);
	}
	if (ft_cl_run_to(0))
		failed++;
	if (failed)
		tap_not_ok("pageout_bench", "%d of %d instances failed", failed, opt.n);
	else
		tap_ok("pageout_bench");
	printf("loops %ld\n", total);
	printf("loops_per_sec %.2f\n", rate);
	return failed ? 1 : 0;

setup_fail:
	tap_not_ok("pageout_bench", "setup: %s", ft_err);
	return 1;
}
