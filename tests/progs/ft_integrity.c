// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_integrity - data-integrity case table for batched try_to_unmap_one.
 *
 * Every case fills memory (a file, tmpfs, shmem or anon) with a known
 * pattern (64-bit words = hash(object id, generation, offset)), maps it in
 * a way that produces large folios (checked through /proc/self/pagemap +
 * /proc/kpageflags), forces unmap/reclaim through one reclaim source, then
 * reads everything back (and, for files, re-reads the file from disk after
 * fsync + drop_caches) and reports the first mismatching offset.  After
 * each case RssAnon/RssFile/RssShmem and nr_mapped must be back where they
 * were.
 *
 * Each case runs in its own process (the "case process"), so a crash, a
 * SIGBUS or a memcg OOM kill is reported as a failure of that case while
 * the driver restores every sysfs knob, mount, cgroup and file.
 *
 * Usage: ft_integrity [-l] [-c GLOB]... [-r pageout|memcg|reclaim|all[,..]]
 *                     [-s MB] [-d DIR] [-t TMPFS_BASE] [-b RA_SYSFS|none]
 *                     [-B RA_KB] [-C CGROUP_ROOT] [-T SECONDS] [-A] [-N] [-X]
 *                     [-U 1|0|flip|stock] [-M NOTIFIER] [-P] [-v]
 *
 * Reclaim sources: pageout = madvise(MADV_PAGEOUT) per mapped segment
 * (then memory.reclaim for cases whose folios two processes map: 6.12's
 * MADV_PAGEOUT skips those); memcg = lower memory.high of the case's memcg
 * (<root>/ft-<pid>) to reclaim about 3/4 of the reclaimable part, then back
 * to max; reclaim = write memory.reclaim.  Every case runs in that memcg
 * when cgroup2 offers one (its memory.stat file_mapped backs the
 * accounting check).
 *
 * Premise (-U, docs/test-premises.md): around each reclaim, foliotune's
 * counters must show that reclaim reached try_to_unmap_one and took the
 * path the case exists for (batches of the expected order, or the named
 * unmap_nobatch_* reason; none with unmap_batch=0), and the PTEs they count
 * as unmapped must match what the case's page tables lost (pagemap).
 * Without the module (-U stock) the page tables alone must show it.
 *
 * Output (one line per case and reclaim source):
 *   # orders: 2:8 4:2 5:14
 *   # present pages: 2048 before reclaim, 0 after (of 2048)
 *   # foliotune counters (expecting unmap_batch 1): unmap_calls +4; unmap_batches +4, ...
 *   # accounting: RssAnon +0 kB, RssFile +0 kB, RssShmem +0 kB, nr_mapped +3 pages ...
 *   ok - file-ra-shared-dirty/pageout
 *   not ok - file-thp-shared-dirty/memcg # mapping after reclaim: first mismatch at offset 0x...
 *   ft_integrity: 40 passed, 1 failed, 0 skipped
 *
 * -M NOTIFIER (tests/modules/ft_mn_test.ko's file): a thread of each case
 * process opens and closes NOTIFIER in a loop while the case runs, so an
 * MMU notifier comes and goes on the case's mm under its reclaim; the
 * case fails unless it registered at least once.
 *
 * Needs root (pagemap PFNs, kpageflags, sysfs knobs, mounts, cgroups).
 */
#define _GNU_SOURCE
#include "ft_integrity.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define THP_SYSFS "/sys/kernel/mm/transparent_hugepage"

const char *const src_name[NR_SRC] = { "pageout", "memcg", "reclaim" };
const char *const mode_name[] = { "auto", "1", "0", "flip", "stock", "2" };

struct options opt = {
	.ra_path = "/sys/block/vda/queue/read_ahead_kb",
	.ra_kb = "2048",
	.cgroot = "/sys/fs/cgroup",
	.size = 8 * FT_MB,
	.timeout = 120,
};

/* ---- case process ------------------------------------------------------ */

static long memcg_tol_kb(void)
{
	/* memory.stat is flushed once more than 64 (MEMCG_CHARGE_BATCH)
	 * updates per CPU are pending. */
	return ft_nproc() * 64 * 4 + 64;
}

/* nr_mapped after folding the per-cpu diffs; with noise != NULL, three
 * samples and their spread. */
static long mapped_sample(long *noise)
{
	long v, lo = 0, hi = 0;
	int i, n = noise ? 3 : 1;

	for (i = 0; i < n; i++) {
		if (i)
			usleep(20 * 1000);
		ft_vmstat_refresh();
		v = ft_vmstat("nr_mapped");
		if (!i || v < lo)
			lo = v;
		if (!i || v > hi)
			hi = v;
	}
	if (noise)
		*noise = hi - lo;
	return v;
}

/*
 * -M: register and unregister an MMU notifier on this mm (one open and
 * close of the test module's file each) until told to stop.  The pauses
 * leave reclaim's rmap walk, which only tries the locks a registration
 * takes (mm_take_all_locks()), room to run.
 */
static struct {
	pthread_t th;
	volatile int stop;
	long regs;
	int err;
} churn;

static void *churn_fn(void *arg)
{
	struct timespec ts = { 0, 500 * 1000 };
	int fd;

	(void)arg;
	while (!churn.stop) {
		fd = open(opt.notifier, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			churn.err = errno;
			break;
		}
		churn.regs++;
		nanosleep(&ts, NULL);
		close(fd);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void __attribute__((noreturn)) case_process(struct ctx *c)
{
	long a0, f0, s0, m0, a1, f1, s1, m1 = 0, tol_kb, tol_mapped, noise = 0;
	long long fm0, fm1;
	char fmbuf[96];
	int rc, i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* Pin our own text/libc/stack so reclaim of the case range does not
	 * move our RSS baseline (only what the case maps is unlocked). */
	if (mlockall(MCL_CURRENT) < 0)
		tap_diag("mlockall(MCL_CURRENT): %s (RSS accounting may drift)", strerror(errno));
	if (c->cg[0] && ft_cg_enter(c->cg) < 0) {
		fail(c, "%s", ft_err);
		c->res->status = ST_FAIL;
		_exit(1);
	}
	c->npages = c->size / FT_PAGE;
	c->st = calloc(c->npages, 1);
	c->disk = calloc(c->npages, 1);
	if (!c->st || !c->disk) {
		fail(c, "out of memory");
		c->res->status = ST_FAIL;
		_exit(1);
	}
	fm0 = c->cg[0] ? ft_cg_key(c->cg, "memory.stat", "file_mapped") : -1;
	m0 = mapped_sample(&noise);
	if (opt.notifier) {
		rc = pthread_create(&churn.th, NULL, churn_fn, NULL);
		if (rc) {
			fail(c, "pthread_create: %s", strerror(rc));
			c->res->status = ST_FAIL;
			_exit(1);
		}
	}
	a0 = ft_status_kb("RssAnon");
	f0 = ft_status_kb("RssFile");
	s0 = ft_status_kb("RssShmem");

	rc = c->tc->fn(c);
	if (opt.notifier) {
		churn.stop = 1;
		pthread_join(churn.th, NULL);
		tap_diag("notifier: %ld registrations on the case's mm", churn.regs);
		if (!rc && (churn.err || !churn.regs))
			rc = fail(c, "premise: no notifier registered (%s: %s)", opt.notifier,
				  churn.err ? strerror(churn.err) : "no open");
	}

	/* Whatever the outcome: helpers gone, mappings gone, fd closed. */
	if (c->nhelpers) {
		int i;

		for (i = 0; i < c->nhelpers; i++)
			if (c->helpers[i].pid) {
				kill(c->helpers[i].pid, SIGKILL);
				waitpid(c->helpers[i].pid, NULL, 0);
			}
	}
	unmap_all(c);
	if (c->uffd >= 0)
		close(c->uffd);
	if (c->fd >= 0)
		close(c->fd);

	if (rc == 0) {
		step(c, "accounting");
		a1 = ft_status_kb("RssAnon");
		f1 = ft_status_kb("RssFile");
		s1 = ft_status_kb("RssShmem");
		tol_kb = rss_tol_kb();
		/*
		 * nr_mapped is global: allow 1 MiB of other activity plus
		 * 1/16 of the case size plus twice the spread seen in three
		 * samples before the case, and re-sample a few times when
		 * it is off (background noise is transient in the guest).
		 * The memcg's file_mapped is re-sampled too: a killed
		 * helper's mappings outlive its waitpid() while anybody else
		 * (khugepaged's scan, a /proc reader) still holds its mm.
		 * A leak of the case's own mapped pages is at least a folio
		 * and usually the whole range, and stays.  The wait is 5 s:
		 * with a second test box on the other host core, a memcg's
		 * file_mapped once stayed a whole range (8 MiB) high for the
		 * 1 s waited before, though nr_mapped was back; the memcg's
		 * periodic stats flush runs every 2 s.
		 */
		tol_mapped = (long)((FT_MB + c->size / 16) / FT_PAGE) + 2 * noise;
		for (i = 0; i < 50; i++) {
			m1 = mapped_sample(NULL);
			fm1 = c->cg[0] ? ft_cg_key(c->cg, "memory.stat", "file_mapped") : -1;
			if (labs(m1 - m0) <= tol_mapped &&
			    (fm0 < 0 || fm1 < 0 || llabs(fm1 - fm0) / 1024 <= memcg_tol_kb()))
				break;
			usleep(100 * 1000);
		}
		if (fm0 >= 0 && fm1 >= 0)
			snprintf(fmbuf, sizeof(fmbuf), "%+lld kB (tolerance %ld kB)",
				 (fm1 - fm0) / 1024, memcg_tol_kb());
		else
			snprintf(fmbuf, sizeof(fmbuf), "n/a (no memcg)");
		tap_diag("accounting: RssAnon %+ld kB, RssFile %+ld kB, RssShmem %+ld kB "
			 "(tolerance %ld kB); memcg file_mapped %s; "
			 "nr_mapped %+ld pages (tolerance %ld, noise %ld)", a1 - a0, f1 - f0,
			 s1 - s0, tol_kb, fmbuf, m1 - m0, tol_mapped, noise);
		if (labs(a1 - a0) > tol_kb || labs(f1 - f0) > tol_kb || labs(s1 - s0) > tol_kb)
			rc = fail(c, "accounting: RSS not back after the case: RssAnon %+ld kB, "
				  "RssFile %+ld kB, RssShmem %+ld kB (tolerance %ld kB)",
				  a1 - a0, f1 - f0, s1 - s0, tol_kb);
		else if (fm0 >= 0 && fm1 >= 0 && llabs(fm1 - fm0) / 1024 > memcg_tol_kb())
			rc = fail(c, "accounting: memcg file_mapped %+lld kB after the case "
				  "(tolerance %ld kB)", (fm1 - fm0) / 1024, memcg_tol_kb());
		else if (labs(m1 - m0) > tol_mapped && !opt.mapped_report_only)
			rc = fail(c, "accounting: nr_mapped %+ld pages after the case (tolerance %ld, "
				  "noise %ld; -N to only report)", m1 - m0, tol_mapped, noise);
	}
	munlockall();
	if (c->res->status != ST_SKIP)
		c->res->status = rc == 0 ? ST_PASS : ST_FAIL;
	fflush(stdout);
	_exit(rc < 0 ? 1 : 0);
}

/* ---- driver ------------------------------------------------------------- */

static int cg_state;	/* 1 ready, -1 unusable */
static char cg_why[FT_ERRLEN];
static int case_seq;

static int thp_sizes(int *kb, int max)
{
	struct dirent *de;
	DIR *d = opendir(THP_SYSFS);
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max)
		if (sscanf(de->d_name, "hugepages-%dkB", &kb[n]) == 1)
			n++;
	closedir(d);
	return n;
}

/* Sets file ("enabled" or "shmem_enabled") of every mTHP size to never,
 * want_kb's to always.  Returns 1 (ft_err = reason) if unsupported. */
static int set_mthp(const char *file, int want_kb)
{
	char path[256];
	int kb[32], n, i;
	bool found = false;

	n = thp_sizes(kb, 32);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), THP_SYSFS "/hugepages-%dkB/%s", kb[i], file);
		if (!ft_exists(path)) {
			if (kb[i] == want_kb) {
				ft_seterr("%s absent (kernel without per-size %s)", path, file);
				return 1;
			}
			continue;
		}
		if (kb[i] == want_kb)
			found = true;
		if (ft_knob_set(path, kb[i] == want_kb ? "always" : "never") < 0)
			return -1;
	}
	if (!found) {
		ft_seterr("no %s/hugepages-%dkB: kernel does not offer %d kB mTHP", THP_SYSFS,
			  want_kb, want_kb);
		return 1;
	}
	return 0;
}

/*
 * 6.12's __thp_vma_allowable_orders() answers khugepaged for an anonymous
 * shmem VMA with every order shmem allows there, unmasked: with one mTHP
 * size of shmem_enabled on, the VMA counts as PMD-collapsible although
 * hugepages-2048kB/shmem_enabled is never.  A memfd's VMA is one too
 * (shmem_mmap() gives an unlinked file shmem_anon_vm_ops).  Where a 16K
 * allocation fell back to order 0, khugepaged then collapses the whole
 * 2 MiB into an order-9 folio and retracts the case's page tables (seen
 * in the box: thp_collapse_alloc +4 and RSS 0 for 8 MiB of order-0 pages).
 * Its thread runs only while anonymous PMD THP is on: off for the case,
 * restored after it.  The file cases on Linux 7 too (prepare()).
 */
static int stop_khugepaged(void)
{
	if (ft_knob_set(THP_SYSFS "/enabled", "never") < 0)
		return -1;
	if (ft_exists(THP_SYSFS "/hugepages-2048kB/enabled") &&
	    ft_knob_set(THP_SYSFS "/hugepages-2048kB/enabled", "never") < 0)
		return -1;
	return 0;
}

/* Driver-side setup.  Returns 0, -1 (fail, ft_err) or 1 (skip, ft_err). */
static int prepare(struct ctx *c)
{
	const struct tcase *tc = c->tc;
	char val[64], mnt[600], opts[128];
	int r;

	if ((tc->flags & F_NEEDSWAP) && !c->swap) {
		ft_seterr("no swap active: this case reclaims anon/shmem memory "
			  "(the runner must set up zram swap)");
		return -1;
	}
	switch (tc->kind) {
	case K_FILE:
		if (!opt.dir) {
			ft_seterr("no directory for file cases: give -d DIR or set FT_XFS");
			return -1;
		}
		snprintf(c->path, sizeof(c->path), "%s/ft-integ-%d-%d.dat", opt.dir, (int)getpid(),
			 case_seq);
		if (ft_cl_push(FT_CL_UNLINK, c->path, NULL) < 0)
			return -1;
		if ((tc->flags & F_RA) && strcmp(opt.ra_path, "none") &&
		    ft_knob_set(opt.ra_path, opt.ra_kb) < 0)
			return -1;
		/*
		 * Linux 7's khugepaged collapses the 2 MiB ranges of any
		 * regular file whose mapping takes PMD-sized folios (xfs),
		 * open for write or not (file_thp_enabled(); 6.12 needed
		 * READ_ONLY_THP_FOR_FS and a file nobody writes), under THP
		 * "always": collapse_file() unmaps the case's small folios
		 * before its reclaim (seen on 7.3.4: file-ra-private-dirty's
		 * first 4 MiB, its order 0 to 6 folios, unmapped before the
		 * reclaim, which found nothing mapped to unmap).  Off for a
		 * file case that does not ask for PMD-sized folios.
		 */
		if (ft_linux7() && !(tc->flags & (F_THP | F_PTE2M | F_ALIGNED)) &&
		    stop_khugepaged() < 0)
			return -1;
		break;
	case K_TMPFS:
		if (ft_knob_get(THP_SYSFS "/shmem_enabled", val, sizeof(val)) == 0 &&
		    (!strcmp(val, "deny") || !strcmp(val, "force")) &&
		    ft_knob_set(THP_SYSFS "/shmem_enabled", "never") < 0)
			return -1;
		snprintf(opts, sizeof(opts), "huge=always,size=%zum,mode=0700",
			 c->size / FT_MB * 2 + 16);
		if (ft_mount_tmpfs(opt.tmpbase, opts, mnt, sizeof(mnt)) < 0)
			return -1;
		snprintf(c->path, sizeof(c->path), "%s/f.dat", mnt);
		break;
	case K_SHMEM:
	case K_MEMFD:
		if (ft_knob_set(THP_SYSFS "/shmem_enabled", "never") < 0)
			return -1;
		r = set_mthp("shmem_enabled", tc->mthp_kb);
		if (r)
			return r;
		if (tc->mthp_kb < 2048 && stop_khugepaged() < 0)
			return -1;
		break;
	case K_ANON:
		r = set_mthp("enabled", tc->mthp_kb);
		if (r)
			return r;
		break;
	}
	/* Every case runs in its own memcg when cgroup2 offers one: the
	 * memcg sources need it, and its memory.stat file_mapped counts the
	 * case's own mapped pages for the accounting check. */
	if (cg_state < 0 && c->src != SRC_PAGEOUT) {
		ft_seterr("memcg unusable: %s", cg_why);
		return -1;
	}
	if (cg_state > 0) {
		char name[64];

		snprintf(name, sizeof(name), "ft-%d", (int)getpid());
		if (ft_cg_create(opt.cgroot, name, c->cg, sizeof(c->cg)) < 0)
			return -1;
	}
	return 0;
}

static struct result *g_res;

static void run_one(const struct tcase *tc, enum src src)
{
	struct ctx c;
	char name[192];
	int mark, status = 0, r, fails;
	bool timed_out = false;
	uint64_t t0;
	pid_t pid;

	snprintf(name, sizeof(name), "%s/%s", tc->name, src_name[src]);
	memset(&c, 0, sizeof(c));
	c.tc = tc;
	c.src = src;
	c.size = opt.size;
	c.fd = -1;
	c.uffd = -1;
	c.helper_idx = -1;
	c.swap = ft_swap_total_kb() > 0;
	c.res = g_res;
	c.id = ft_mix64(((uint64_t)getpid() << 20) ^ (uint64_t)case_seq);
	snprintf(c.name, sizeof(c.name), "%s", name);
	memset(g_res, 0, sizeof(*g_res));
	case_seq++;

	mark = ft_cl_mark();
	r = prepare(&c);
	if (r) {
		if (r > 0)
			tap_skip(name, "%s", ft_err);
		else
			tap_not_ok(name, "setup: %s", ft_err);
		goto cleanup;
	}
	fflush(stdout);
	t0 = ft_now_ns();
	pid = fork();
	if (pid < 0) {
		tap_not_ok(name, "fork: %s (errno %d)", strerror(errno), errno);
		goto cleanup;
	}
	if (pid == 0) {
		setpgid(0, 0);
		ft_cl_child();
		case_process(&c);
	}
	setpgid(pid, pid);
	ft_cl_set_victim(pid);
	for (;;) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			tap_not_ok(name, "waitpid: %s", strerror(errno));
			goto cleanup;
		}
		if (ft_now_ns() - t0 > (uint64_t)opt.timeout * 1000000000ULL) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			timed_out = true;
			break;
		}
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);	/* stray helpers, if any */
	ft_cl_set_victim(0);
	if (opt.verbose)
		tap_diag("%s took %.2f s", name, (double)(ft_now_ns() - t0) / 1e9);

	if (timed_out)
		tap_not_ok(name, "timed out after %d s in step '%s'%s%s", opt.timeout, g_res->step,
			   g_res->reason[0] ? ": " : "", g_res->reason);
	else if (WIFSIGNALED(status))
		tap_not_ok(name, "case process killed by signal %d (%s) in step '%s'%s%s%s",
			   WTERMSIG(status), strsignal(WTERMSIG(status)), g_res->step,
			   WTERMSIG(status) == SIGKILL && c.cg[0] ? " (memcg OOM kill?)" : "",
			   g_res->reason[0] ? ": " : "", g_res->reason);
	else if (g_res->status == ST_SKIP)
		tap_skip(name, "%s", g_res->reason);
	else if (g_res->status == ST_PASS && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		tap_ok(name);
	else
		tap_not_ok(name, "%s", g_res->reason[0] ? g_res->reason : "failed without a reason");
cleanup:
	fails = ft_cl_run_to(mark);
	if (fails)
		tap_not_ok(name, "cleanup: %d undo actions failed (see '# cleanup:' lines)", fails);
}

static bool selected(const char *name)
{
	int i;

	if (!opt.npats)
		return true;
	for (i = 0; i < opt.npats; i++)
		if (!fnmatch(opt.pats[i], name, 0))
			return true;
	return false;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ft_integrity [options]\n"
		"  -l            list the cases and exit\n"
		"  -c GLOB       run the cases matching GLOB (repeatable; default all)\n"
		"  -r SRC[,SRC]  reclaim sources: pageout, memcg, reclaim, all (default all)\n"
		"  -s MB         size of each case's object (default 8)\n"
		"  -d DIR        directory for file cases (default $FT_XFS or /mnt/ft-xfs)\n"
		"  -t DIR        where to mount the per-case tmpfs (default: the -d DIR)\n"
		"  -b PATH       read_ahead_kb sysfs file of DIR's device, or 'none'\n"
		"                (default /sys/block/vda/queue/read_ahead_kb)\n"
		"  -B KB         read_ahead_kb for the file-ra-* cases (default 2048)\n"
		"  -C DIR        cgroup2 root (default /sys/fs/cgroup)\n"
		"  -T SECONDS    per-case timeout (default 120)\n"
		"  -A            only report folio orders, do not require large folios\n"
		"  -N            only report the global nr_mapped check (noisy hosts)\n"
		"  -X            self-test: corrupt one word after reclaim (every case must fail)\n"
		"  -U MODE       what foliotune's counters must show around each reclaim:\n"
		"                1 (batching), 0 (unmap_batch=0: the kernel's own code), 2\n"
		"                (one PTE at a time), flip (the knob flips\n"
		"                during the run: reclaim reached the code), stock (no\n"
		"                module: page tables only); default: the knob's value,\n"
		"                or stock when foliotune is not loaded\n"
		"  -M NOTIFIER   register and unregister an MMU notifier on each case's mm\n"
		"                in a loop (open and close NOTIFIER, tests/modules/ft_mn_test)\n"
		"  -P            print the number of result lines the run will print, exit\n"
		"  -v            verbose (steps, timings)\n");
}

int main(int argc, char **argv)
{
	size_t i;
	int ch, s;

	setvbuf(stdout, NULL, _IOLBF, 0);
	opt.dir = getenv("FT_XFS") ? getenv("FT_XFS") : "/mnt/ft-xfs";
	opt.src_mask = (1u << NR_SRC) - 1;
	while ((ch = getopt(argc, argv, "lc:r:s:d:t:b:B:C:T:ANXU:M:Pvh")) != -1) {
		switch (ch) {
		case 'l':
			for (i = 0; i < nr_cases; i++)
				printf("%-26s %s\n", cases[i].name, cases[i].desc);
			return 0;
		case 'c':
			if (opt.npats < (int)FT_ARRAY_SIZE(opt.pats))
				opt.pats[opt.npats++] = optarg;
			break;
		case 'r': {
			char *dup = strdup(optarg), *tok, *save = NULL;

			opt.src_mask = 0;
			for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (!strcmp(tok, "all")) {
					opt.src_mask = (1u << NR_SRC) - 1;
					continue;
				}
				for (s = 0; s < NR_SRC; s++)
					if (!strcmp(tok, src_name[s]))
						break;
				if (s == NR_SRC) {
					fprintf(stderr, "unknown reclaim source '%s'\n", tok);
					return 2;
				}
				opt.src_mask |= 1u << s;
			}
			free(dup);
			break;
		}
		case 's':
			opt.size = (size_t)strtoul(optarg, NULL, 0) * FT_MB;
			if (opt.size < 2 * FT_MB) {
				fprintf(stderr, "-s: at least 2 MB\n");
				return 2;
			}
			break;
		case 'd':
			opt.dir = optarg;
			break;
		case 't':
			opt.tmpbase = optarg;
			break;
		case 'b':
			opt.ra_path = optarg;
			break;
		case 'B':
			opt.ra_kb = optarg;
			break;
		case 'C':
			opt.cgroot = optarg;
			break;
		case 'T':
			opt.timeout = atoi(optarg);
			break;
		case 'A':
			opt.allow_small = true;
			break;
		case 'N':
			opt.mapped_report_only = true;
			break;
		case 'X':
			opt.selftest = true;
			break;
		case 'U':
			for (s = M_BATCH; s <= M_PTE; s++)
				if (!strcmp(optarg, mode_name[s]))
					break;
			if (s > M_PTE) {
				fprintf(stderr, "-U: 1, 0, 2, flip or stock\n");
				return 2;
			}
			opt.mode = (enum mode)s;
			break;
		case 'M':
			opt.notifier = optarg;
			break;
		case 'P':
			opt.plan_only = true;
			break;
		case 'v':
			opt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (!opt.tmpbase)
		opt.tmpbase = opt.dir;

	/* One result line per selected case and source (cleanup failures
	 * add lines: they fail the plan as well as the run). */
	for (i = 0, ch = 0; i < nr_cases; i++)
		if (selected(cases[i].name))
			ch += __builtin_popcount(opt.src_mask);
	if (opt.plan_only) {
		printf("%d\n", ch);
		return 0;
	}
	tap_plan(ch);
	if (opt.mode == M_AUTO) {
		char val[16];

		if (ft_knob_get("/sys/kernel/debug/" FOLIOTUNE_DEBUGFS_DIR "/unmap_batch", val,
				sizeof(val)) < 0)
			opt.mode = M_STOCK;
		else
			opt.mode = !strcmp(val, "0") ? M_NOBATCH :
				   !strcmp(val, "2") ? M_PTE : M_BATCH;
	}

	ft_cl_install();
	g_res = mmap(NULL, sizeof(struct result), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g_res == MAP_FAILED) {
		tap_not_ok("setup", "mmap result page: %s", strerror(errno));
		return tap_finish("ft_integrity");
	}
	tap_diag("ft_integrity: size %zu MB, dir %s, tmpfs base %s, read_ahead_kb %s=%s, "
		 "cgroup root %s, swap %ld kB, uid %d, expecting unmap_batch %s", opt.size / FT_MB,
		 opt.dir, opt.tmpbase, opt.ra_path, opt.ra_kb, opt.cgroot, ft_swap_total_kb(),
		 (int)geteuid(), mode_name[opt.mode]);
	if (geteuid() != 0)
		tap_diag("not root: PFNs, knobs, mounts and cgroups will fail");

	/* Once, outside every case's cleanup scope: the root's +memory stays
	 * enabled until exit. */
	cg_state = ft_cg_prepare_root(opt.cgroot) < 0 ? -1 : 1;
	if (cg_state < 0) {
		snprintf(cg_why, sizeof(cg_why), "%s", ft_err);
		tap_diag("no memcg: %s (pageout cases run without one)", cg_why);
	}

	for (i = 0; i < nr_cases; i++) {
		if (!selected(cases[i].name))
			continue;
		for (s = 0; s < NR_SRC; s++)
			if (opt.src_mask & (1u << s))
				run_one(&cases[i], (enum src)s);
	}
	s = ft_cl_run_to(0);
	if (s)
		tap_not_ok("cleanup", "%d undo actions failed at exit", s);
	return tap_finish("ft_integrity");
}
