// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_reclaim_bench - time memcg reclaim (memory.reclaim) of mapped large
 * folios, after the benchmarks used for the upstream batched-unmap work:
 *
 *  file (default)  Baolin Wang, "mm: rmap: support batched unmapping for file
 *                  large folios" (2026): a clean file of S MB is mmap'ed and
 *                  touched inside a fresh memcg, then S*X MB are reclaimed
 *                  with memory.reclaim.  -H adds MADV_HUGEPAGE (order-9 page
 *                  cache folios); -b/-B raise read_ahead_kb instead (orders up
 *                  to 9).  The file is mapped at a 2 MiB-aligned address + 64
 *                  KiB by default so that no folio can be PMD-mapped: every
 *                  large folio goes through the PTE unmap path (-U 0 allows
 *                  PMD mappings; the -R report shows FilePmdMapped).
 *  -L (lazyfree)   Barry Song, "mm: support batched unmap for lazyfree large
 *                  folios during reclamation" (2025): S MB of anonymous 64 KiB
 *                  mTHP (hugepages-64kB/enabled=always, other sizes never),
 *                  filled, MADV_FREE'd, then reclaimed the same way.
 *  -M shmem|memfd  shared memory with one exact mTHP size (-z KB: 16, 64, 128,
 *                  2048) via hugepages-<KB>kB/shmem_enabled=always, on
 *                  MAP_SHARED|MAP_ANONYMOUS ("shmem") or a memfd.  6.12 applies
 *                  the per-size knobs to anonymous shmem, which includes files
 *                  unlinked when mmap()ed (memfd); a linked tmpfs file gets PMD
 *                  size or nothing.  Reclaiming shmem needs swap.
 *                  -P (with -M shmem): after populating, zap the mappings
 *                  (MADV_DONTNEED keeps shmem data), set PR_SET_THP_DISABLE
 *                  and touch again: do_set_pmd() now refuses, so finish_fault()
 *                  maps each 2 MiB folio with 512 PTEs in one page table,
 *                  which reclaim unmaps through try_to_unmap_one().
 *
 * Every sysfs knob touched is restored, the memcg removed and the file
 * deleted on every exit path.
 *
 * Usage: ft_reclaim_bench [-d DIR] [-s MB] [-x FRACTION] [-H] [-U KB]
 *                         [-b RA_SYSFS -B KB] [-C CGROOT] [-R]
 *                         [-L] [-M shmem|memfd] [-z KB] [-P]
 *
 * Output ends with machine-readable lines, e.g.:
 *   reclaim_request_kb 209715
 *   reclaimed_kb 209716
 *   rss_before_kb 262144
 *   rss_after_kb 52428
 *   reclaim_seconds 0.412345
 */
#define _GNU_SOURCE
#include "ft_common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#define THP_SYSFS "/sys/kernel/mm/transparent_hugepage"

enum mode { M_FILE, M_LAZYFREE, M_SHMEM, M_MEMFD };

static struct {
	const char *dir;
	size_t size;
	double frac;
	bool huge;
	long shift_kb;
	const char *ra_path;
	const char *ra_kb;
	const char *cgroot;
	bool report;
	bool pte_map;
	enum mode mode;
	int mthp_kb;
} opt = {
	.size = 256 * FT_MB,
	.frac = 0.8,
	.shift_kb = -1,
	.cgroot = "/sys/fs/cgroup",
	.ra_kb = "2048",
};

static int die(const char *what)
{
	tap_not_ok("reclaim_bench", "%s: %s", what, ft_err);
	return 1;
}

static int set_sizes(const char *file, int want_kb)
{
	char path[256];
	int kb, found = 0;
	static const int sizes[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 2048 };
	size_t i;

	for (i = 0; i < FT_ARRAY_SIZE(sizes); i++) {
		kb = sizes[i];
		snprintf(path, sizeof(path), THP_SYSFS "/hugepages-%dkB/%s", kb, file);
		if (!ft_exists(path))
			continue;
		if (kb == want_kb)
			found = 1;
		if (ft_knob_set(path, kb == want_kb ? "always" : "never") < 0)
			return -1;
	}
	if (!found) {
		ft_seterr("no " THP_SYSFS "/hugepages-%dkB/%s: kernel without that mTHP size",
			  want_kb, file);
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ft_reclaim_bench [options]\n"
		"  -d DIR        directory for the file (default $FT_XFS or /mnt/ft-xfs)\n"
		"  -s MB         object size S (default 256)\n"
		"  -x FRACTION   reclaim S*FRACTION with memory.reclaim (default 0.8)\n"
		"  -H            MADV_HUGEPAGE (order-9 folios, PTE-mapped at the default VA)\n"
		"  -U KB         VA shift from 2 MiB alignment (default 64 in file mode, else 0)\n"
		"  -b PATH       read_ahead_kb sysfs file to raise (restored afterwards)\n"
		"  -B KB         value for -b (default 2048)\n"
		"  -C DIR        cgroup2 root (default /sys/fs/cgroup)\n"
		"  -R            report the folio order mix before reclaim\n"
		"  -L            lazyfree mode: anon 64 KiB mTHP + MADV_FREE\n"
		"  -M shmem|memfd  shared memory mode with -z KB mTHP (needs swap)\n"
		"  -z KB         mTHP size for -M (16, 64, 128, 2048; default 64)\n"
		"  -P            with -M shmem: re-map the populated folios by PTEs\n");
}

int main(int argc, char **argv)
{
	const char *rss_key;
	char path[600], cg[600], name[64], val[64], hist[256];
	long long cur0, cur1, req;
	long rss0, rss1;
	uint64_t t0, t1;
	size_t shift = 0;
	char *p;
	int ch, fd = -1, rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	opt.dir = getenv("FT_XFS") ? getenv("FT_XFS") : "/mnt/ft-xfs";
	opt.mthp_kb = 64;
	while ((ch = getopt(argc, argv, "d:s:x:HU:b:B:C:RLM:z:Ph")) != -1) {
		switch (ch) {
		case 'd': opt.dir = optarg; break;
		case 's': opt.size = (size_t)strtoul(optarg, NULL, 0) * FT_MB; break;
		case 'x': opt.frac = atof(optarg); break;
		case 'H': opt.huge = true; break;
		case 'U': opt.shift_kb = atol(optarg); break;
		case 'b': opt.ra_path = optarg; break;
		case 'B': opt.ra_kb = optarg; break;
		case 'C': opt.cgroot = optarg; break;
		case 'R': opt.report = true; break;
		case 'L': opt.mode = M_LAZYFREE; break;
		case 'M':
			if (!strcmp(optarg, "shmem"))
				opt.mode = M_SHMEM;
			else if (!strcmp(optarg, "memfd"))
				opt.mode = M_MEMFD;
			else {
				usage(stderr);
				return 2;
			}
			break;
		case 'z': opt.mthp_kb = atoi(optarg); break;
		case 'P': opt.pte_map = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!opt.size || opt.frac <= 0 || opt.frac > 1 || opt.shift_kb >= 2048 ||
	    (opt.pte_map && opt.mode != M_SHMEM) ||
	    (opt.shift_kb > 0 && opt.shift_kb % 4)) {
		usage(stderr);
		return 2;
	}
	if (opt.shift_kb >= 0)
		shift = (size_t)opt.shift_kb * 1024;
	else if (opt.mode == M_FILE)
		shift = 64 * 1024;	/* no PMD mapping of order-9 folios */
	ft_cl_install();

	/* Knobs first (restored last). */
	switch (opt.mode) {
	case M_FILE:
		if (opt.ra_path && ft_knob_set(opt.ra_path, opt.ra_kb) < 0)
			return die("read_ahead_kb");
		break;
	case M_LAZYFREE:
		if (set_sizes("enabled", 64) < 0)
			return die("anon mTHP knobs");
		break;
	case M_SHMEM:
	case M_MEMFD:
		if (ft_swap_total_kb() <= 0) {
			ft_seterr("no swap active (shmem can only be reclaimed to swap)");
			return die("swap");
		}
		if (set_sizes("shmem_enabled", opt.mthp_kb) < 0)
			return die("shmem mTHP knobs");
		/* Per-size knobs decide for anonymous shmem (memfd too). */
		if (ft_knob_set(THP_SYSFS "/shmem_enabled", "never") < 0)
			return die("shmem_enabled");
		break;
	}

	/* The file is created outside the memcg and its page cache dropped. */
	if (opt.mode == M_FILE) {
		snprintf(path, sizeof(path), "%s/ft-rbench-%d.dat", opt.dir, (int)getpid());
		if (ft_cl_push(FT_CL_UNLINK, path, NULL) < 0)
			return die("cleanup");
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			ft_seterr_errno("create %s", path);
			return die("file");
		}
		if (ft_write_pattern_file(fd, opt.size, 1, true) < 0)
			return die("write file");
		close(fd);
		fd = open(path, O_RDONLY | O_CLOEXEC);	/* fresh ra state */
		if (fd < 0) {
			ft_seterr_errno("reopen %s", path);
			return die("file");
		}
	}

	/* memcg: create, remember where we were, move in. */
	snprintf(name, sizeof(name), "ft-%d", (int)getpid());
	if (ft_cg_prepare_root(opt.cgroot) < 0 || ft_cg_create(opt.cgroot, name, cg, sizeof(cg)) < 0 ||
	    ft_cg_register_return(opt.cgroot) < 0 || ft_cg_enter(cg) < 0)
		return die("memcg");

	switch (opt.mode) {
	case M_FILE:
		p = ft_map_shifted(opt.size, shift, PROT_READ, MAP_SHARED, fd, 0);
		rss_key = "RssFile";
		break;
	case M_LAZYFREE:
		p = ft_map_shifted(opt.size, shift, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		rss_key = "RssAnon";
		break;
	case M_SHMEM:
		p = ft_map_shifted(opt.size, shift, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		rss_key = "RssShmem";
		break;
	default:
		fd = memfd_create("ft_reclaim_bench", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)opt.size) < 0) {
			ft_seterr_errno("memfd_create/ftruncate");
			return die("memfd");
		}
		p = ft_map_shifted(opt.size, shift, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		rss_key = "RssShmem";
		break;
	}
	if (p == MAP_FAILED)
		return die("mmap");
	if (opt.huge && madvise(p, opt.size, MADV_HUGEPAGE) < 0) {
		ft_seterr_errno("madvise(MADV_HUGEPAGE)");
		return die("madvise");
	}
	if (opt.mode == M_FILE) {
		size_t i;

		for (i = 0; i < opt.size; i += FT_PAGE)
			(void)*(volatile char *)(p + i);
	} else {
		memset(p, 0x5a, opt.size);
	}
	if (opt.pte_map) {
		size_t i;

		/* Shared: the zap keeps the data in shmem, only PTEs/PMDs go. */
		if (madvise(p, opt.size, MADV_DONTNEED) < 0) {
			ft_seterr_errno("madvise(MADV_DONTNEED)");
			return die("madvise");
		}
		if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) < 0) {
			ft_seterr_errno("prctl(PR_SET_THP_DISABLE)");
			return die("prctl");
		}
		for (i = 0; i < opt.size; i += FT_PAGE)
			(void)*(volatile char *)(p + i);
	}
	if (opt.report) {
		struct ft_orders o;

		ft_orders_init(&o);
		if (ft_orders_scan(&o, p, opt.size, true) < 0)
			return die("order scan");
		ft_orders_done(&o);
		ft_orders_fmt(&o, hist, sizeof(hist));
		tap_diag("orders: %s", hist);
		tap_diag("%lu folios (%lu KPF_THP), %lu of %lu pages present", o.nfolios, o.thp,
			 o.present, o.pages);
		if (opt.mode == M_FILE) {
			long pmd = ft_smaps_kb(p, "FilePmdMapped");

			tap_diag("FilePmdMapped %ld kB", pmd);
		} else if (opt.mode != M_LAZYFREE) {
			long pmd = ft_smaps_kb(p, "ShmemPmdMapped");

			tap_diag("ShmemPmdMapped %ld kB", pmd);
		}
		ft_orders_free(&o);
	}
	if (opt.mode == M_LAZYFREE && madvise(p, opt.size, MADV_FREE) < 0) {
		ft_seterr_errno("madvise(MADV_FREE)");
		return die("madvise");
	}

	rss0 = ft_status_kb(rss_key);
	cur0 = ft_cg_read(cg, "memory.current");
	req = (long long)((double)opt.size * opt.frac);
	req = (long long)FT_ALIGN_UP((uint64_t)req, FT_PAGE);
	snprintf(val, sizeof(val), "%lld", req);
	t0 = ft_now_ns();
	rc = ft_cg_write(cg, "memory.reclaim", val);
	t1 = ft_now_ns();
	if (rc < 0 && errno != EAGAIN)
		return die("memory.reclaim");
	if (rc < 0)
		tap_diag("memory.reclaim returned EAGAIN: less than requested was reclaimed");
	cur1 = ft_cg_read(cg, "memory.current");
	rss1 = ft_status_kb(rss_key);

	tap_diag("mode %s, %zu MB, memory.current %lld -> %lld kB, %s %ld -> %ld kB",
		 opt.mode == M_FILE ? "file" : opt.mode == M_LAZYFREE ? "lazyfree" :
		 opt.mode == M_SHMEM ? "shmem" : "memfd", opt.size / FT_MB, cur0 >> 10, cur1 >> 10,
		 rss_key, rss0, rss1);
	munmap(p, opt.size);
	if (fd >= 0)
		close(fd);
	rc = ft_cl_run_to(0);
	if (rc)
		tap_not_ok("reclaim_bench", "cleanup: %d undo actions failed", rc);
	else
		tap_ok("reclaim_bench");
	printf("reclaim_request_kb %lld\n", req >> 10);
	printf("reclaimed_kb %lld\n", (cur0 - cur1) >> 10);
	printf("rss_before_kb %ld\n", rss0);
	printf("rss_after_kb %ld\n", rss1);
	printf("reclaim_seconds %.6f\n", (double)(t1 - t0) / 1e9);
	return rc ? 1 : 0;
}
