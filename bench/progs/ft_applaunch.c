// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_applaunch - the "app launch" cycle of Vinayak Menon's 2016 fault-around
 * report (linux-mm, "mm: make fault_around_bytes configurable"): launch N
 * apps one by one, use each for a moment, then the whole sequence again,
 * under memory pressure, and time every launch.
 *
 * An "app" is a child process.  It maps the shared "framework" files and
 * its own two files (code and resources) read-only, MAP_PRIVATE as ld.so
 * maps libraries, PROT_EXEC for the code-like ones, and reads one byte of
 * each page of a sparse, repeatable subset of them: runs of 1..R pages with
 * gaps of G/8..G pages between them, drawn from a seeded generator, as code
 * is touched.  Every app touches the common part of the framework files
 * plus runs of its own there, and its own files.  It also allocates and
 * fills ANON MB of heap (half of each page pseudo-random, half zero: zram
 * compresses it about 2:1).  That is the launch; the parent times it from
 * fork() to the child's "ready".  Then the app is "used" (not timed): it
 * touches its working set again (-u passes) and goes idle, sleeping in the
 * background with its memory, as a cached Android app does.
 *
 * Rounds after the first bring the apps back in the same order: an app
 * still alive is resumed (a warm launch: it touches its file working set
 * and half of its heap again, timed from the request to the "ready"), one
 * that is not is launched cold again.  At most -k apps stay alive (the
 * least recently used is killed first); -x makes every app exit after use.
 *
 * The run happens in a fresh memory cgroup with memory.max = -m MB (created
 * and removed by the program; -m 0: no cgroup), sized so that the second
 * round has to reclaim: reclaim then chooses between the apps' mapped file
 * pages, other file pages and (with swap) their heaps, and that choice is
 * what fault-around's young pre-mapped PTEs change.
 *
 * Usage:
 *   ft_applaunch setup -d DIR [-n APPS] [-f MB] [-F MB] [-s SEED]
 *       Create DIR/fw0..fw3 (the framework, -F MB in all) and
 *       DIR/appNN.code and DIR/appNN.res (-f MB per app), filled with
 *       non-zero data, fsync'ed and dropped from the page cache.  Files
 *       that exist with the right size are kept (-w rewrites them).
 *   ft_applaunch run -d DIR [options]      (see usage())
 *
 * Output of run (stdout, one line each, "key=value" fields):
 *   config apps=.. rounds=.. ...
 *   launch round=R app=A kind=cold|warm ms=X minflt=N majflt=N
 *   round round=R launches=N avg_ms=X max_ms=X min_ms=X sum_ms=X
 *         minflt=N majflt=N cg_pgscan=N cg_pgsteal=N ... (memory.stat deltas)
 *   summary launches=N avg_ms=X max_ms=X ... oom_kill=N peak_kb=N
 * Exit status 0, 1 on a failed run (an app died, a file is missing), 2 on
 * a usage error.
 */
#define _GNU_SOURCE
#include "ft_common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define NFW		4	/* framework files: fw0, fw2 PROT_EXEC */
#define MAX_APPS	64
#define MAX_ROUNDS	16

static struct {
	const char *dir;
	int apps;
	int rounds;
	long anon_mb;
	long app_mb;		/* per app, code + res */
	long fw_mb;		/* all framework files together */
	long limit_mb;
	int keep;
	bool exit_after;
	int use_passes;
	int run_max;
	int gap_max;
	uint64_t seed;
	const char *cgroot;
	bool no_drop;
	bool rewrite;
	bool quiet;
	int anon_resume_pct;
} opt = {
	.apps = 10,
	.rounds = 2,
	.anon_mb = 3,
	.app_mb = 6,
	.fw_mb = 24,
	.limit_mb = 48,
	.keep = -1,
	.use_passes = 2,
	.run_max = 4,
	.gap_max = 48,
	.seed = 1,
	.cgroot = "/sys/fs/cgroup",
	.anon_resume_pct = 50,
};

/* ---- the files and what each app touches ------------------------------- */

struct mfile {
	char path[512];
	size_t size;
	bool exec;
};

/* One mapping of one app: which file, and the pages it touches. */
struct touch {
	int file;		/* index into files[] */
	uint32_t *pages;
	size_t n;
};

#define TOUCH_PER_APP	(NFW + 2)

static struct mfile files[NFW + 2 * MAX_APPS];
static int nfiles;

struct app {
	int idx;
	pid_t pid;
	int ctl_w;		/* parent -> child commands */
	int msg_r;		/* child -> parent messages */
	bool live;
	unsigned long last_use;
	struct touch t[TOUCH_PER_APP];
	size_t wset_pages;	/* file pages touched */
};

static struct app apps[MAX_APPS];

/* Child -> parent message: one write, far below PIPE_BUF. */
struct msg {
	int type;		/* 'R' ready (launch/resume done), 'I' idle */
	int pad;
	long minflt, majflt;
};

static uint64_t rng_next(uint64_t *s)
{
	*s += 1;
	return ft_mix64(*s * 0xd1342543de82ef95ULL);
}

static int add_page(struct touch *t, size_t *cap, uint32_t pg)
{
	uint32_t *np;

	if (t->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		np = realloc(t->pages, *cap * sizeof(*np));
		if (!np) {
			ft_seterr("out of memory");
			return -1;
		}
		t->pages = np;
	}
	t->pages[t->n++] = pg;
	return 0;
}

/*
 * Runs of 1..run_max pages separated by gaps of gap_max/8..gap_max pages,
 * over [0, npages), from generator state s; stride > 1 makes the gaps
 * stride times longer (an app's own runs in the shared files).
 */
static int gen_runs(struct touch *t, size_t *cap, size_t npages, uint64_t s, int stride)
{
	size_t pos, len, gap, gmin = opt.gap_max / 8 ? opt.gap_max / 8 : 1, i;

	pos = rng_next(&s) % (size_t)(opt.gap_max * stride);
	while (pos < npages) {
		len = 1 + rng_next(&s) % (size_t)opt.run_max;
		for (i = 0; i < len && pos + i < npages; i++)
			if (add_page(t, cap, (uint32_t)(pos + i)) < 0)
				return -1;
		gap = gmin + rng_next(&s) % (size_t)(opt.gap_max - gmin + 1);
		pos += len + gap * (size_t)stride;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and deduplicate (common and own runs may overlap). */
static void uniq(struct touch *t)
{
	size_t i, j = 0;

	qsort(t->pages, t->n, sizeof(*t->pages), cmp_u32);
	for (i = 0; i < t->n; i++)
		if (j == 0 || t->pages[i] != t->pages[j - 1])
			t->pages[j++] = t->pages[i];
	t->n = j;
}

static void define_files(void)
{
	int i;
	size_t fw = (size_t)opt.fw_mb * FT_MB / NFW, half = (size_t)opt.app_mb * FT_MB / 2;

	fw = FT_ALIGN_UP(fw, FT_PAGE);
	half = FT_ALIGN_UP(half, FT_PAGE);
	nfiles = 0;
	for (i = 0; i < NFW; i++) {
		snprintf(files[nfiles].path, sizeof(files[0].path), "%s/fw%d", opt.dir, i);
		files[nfiles].size = fw;
		files[nfiles].exec = !(i % 2);
		nfiles++;
	}
	for (i = 0; i < opt.apps; i++) {
		snprintf(files[nfiles].path, sizeof(files[0].path), "%s/app%02d.code", opt.dir, i);
		files[nfiles].size = half;
		files[nfiles].exec = true;
		nfiles++;
		snprintf(files[nfiles].path, sizeof(files[0].path), "%s/app%02d.res", opt.dir, i);
		files[nfiles].size = half;
		files[nfiles].exec = false;
		nfiles++;
	}
}

static int build_working_sets(void)
{
	int a, f;
	size_t cap;
	uint64_t s;

	for (a = 0; a < opt.apps; a++) {
		struct app *ap = &apps[a];

		ap->idx = a;
		ap->wset_pages = 0;
		for (f = 0; f < TOUCH_PER_APP; f++) {
			struct touch *t = &ap->t[f];
			int file = f < NFW ? f : NFW + 2 * a + (f - NFW);
			size_t np = files[file].size / FT_PAGE;

			t->file = file;
			t->n = 0;
			cap = 0;
			if (f < NFW) {
				/* common framework runs, then this app's own */
				s = ft_mix64(opt.seed * 1000003ULL + 7919ULL * (uint64_t)f);
				if (gen_runs(t, &cap, np, s, 1) < 0)
					return -1;
				s = ft_mix64(opt.seed * 1000003ULL + 104729ULL * (uint64_t)(a + 1) + f);
				if (gen_runs(t, &cap, np, s, 4) < 0)
					return -1;
			} else {
				s = ft_mix64(opt.seed * 1000003ULL + 15485863ULL * (uint64_t)(a + 1) + f);
				if (gen_runs(t, &cap, np, s, 1) < 0)
					return -1;
			}
			uniq(t);
			ap->wset_pages += t->n;
		}
	}
	return 0;
}

/* ---- setup ------------------------------------------------------------- */

static int write_file(const struct mfile *mf, uint64_t id)
{
	int fd = open(mf->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc;

	if (fd < 0) {
		ft_seterr_errno("create %s", mf->path);
		return -1;
	}
	rc = ft_write_pattern_file(fd, mf->size, id, true);
	close(fd);
	return rc;
}

static int do_setup(void)
{
	struct stat st;
	int i, made = 0;

	if (mkdir(opt.dir, 0755) < 0 && errno != EEXIST) {
		ft_seterr_errno("mkdir %s", opt.dir);
		return -1;
	}
	for (i = 0; i < nfiles; i++) {
		if (!opt.rewrite && stat(files[i].path, &st) == 0 &&
		    (size_t)st.st_size == files[i].size)
			continue;
		if (write_file(&files[i], 1000 + (uint64_t)i) < 0)
			return -1;
		made++;
	}
	sync();
	printf("setup dir=%s files=%d written=%d fw_mb=%ld app_mb=%ld apps=%d\n",
	       opt.dir, nfiles, made, opt.fw_mb, opt.app_mb, opt.apps);
	return 0;
}

/* ---- the app (child) --------------------------------------------------- */

struct child_maps {
	char *map[TOUCH_PER_APP];
	char *anon;
	size_t anon_len;
};

static volatile uint64_t sink;

static void touch_files(const struct app *ap, struct child_maps *cm)
{
	uint64_t sum = 0;
	size_t i;
	int f;

	for (f = 0; f < TOUCH_PER_APP; f++) {
		const struct touch *t = &ap->t[f];
		const volatile char *p = cm->map[f];

		for (i = 0; i < t->n; i++)
			sum += p[(size_t)t->pages[i] * FT_PAGE + (t->pages[i] % 64) * 64];
	}
	sink += sum;
}

/* Heap: the first half of each page pseudo-random, the rest zero. */
static void fill_anon(const struct app *ap, struct child_maps *cm)
{
	size_t pg, w, np = cm->anon_len / FT_PAGE;

	for (pg = 0; pg < np; pg++) {
		uint64_t *q = (uint64_t *)(cm->anon + pg * FT_PAGE);

		for (w = 0; w < FT_PAGE / 16; w++)
			q[w] = ft_mix64(((uint64_t)ap->idx << 40) ^ (pg << 9) ^ w);
	}
}

/* Touch pct% of the heap pages (a fixed, per-app subset): read + write. */
static void touch_anon(const struct app *ap, struct child_maps *cm, int pct)
{
	size_t pg, np = cm->anon_len / FT_PAGE;
	uint64_t sum = 0;

	for (pg = 0; pg < np; pg++) {
		volatile uint64_t *q = (uint64_t *)(cm->anon + pg * FT_PAGE);

		if (ft_mix64(((uint64_t)ap->idx << 32) ^ pg) % 100 >= (uint64_t)pct)
			continue;
		sum += q[1];
		q[0] = q[0] + 1;
	}
	sink += sum;
}

static void rusage_now(long *minflt, long *majflt)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*minflt = ru.ru_minflt;
	*majflt = ru.ru_majflt;
}

static void child_send(int fd, int type, long min0, long maj0)
{
	struct msg m = { .type = type };
	long mi, ma;

	rusage_now(&mi, &ma);
	m.minflt = mi - min0;
	m.majflt = ma - maj0;
	if (write(fd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		_exit(3);
}

static void use_app(const struct app *ap, struct child_maps *cm)
{
	int i;

	for (i = 0; i < opt.use_passes; i++) {
		touch_files(ap, cm);
		touch_anon(ap, cm, opt.anon_resume_pct);
	}
}

static void __attribute__((noreturn)) child_main(struct app *ap, int ctl_r, int msg_w)
{
	struct child_maps cm = { 0 };
	long min0, maj0;
	int f, fd;
	char c;

	rusage_now(&min0, &maj0);
	for (f = 0; f < TOUCH_PER_APP; f++) {
		const struct mfile *mf = &files[ap->t[f].file];

		fd = open(mf->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			_exit(4);
		cm.map[f] = mmap(NULL, mf->size, PROT_READ | (mf->exec ? PROT_EXEC : 0),
				 MAP_PRIVATE, fd, 0);
		close(fd);
		if (cm.map[f] == MAP_FAILED)
			_exit(5);
	}
	cm.anon_len = (size_t)opt.anon_mb * FT_MB;
	if (cm.anon_len) {
		cm.anon = mmap(NULL, cm.anon_len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (cm.anon == MAP_FAILED)
			_exit(6);
		/* an app heap is small objects, not huge pages */
		madvise(cm.anon, cm.anon_len, MADV_NOHUGEPAGE);
	}
	touch_files(ap, &cm);
	fill_anon(ap, &cm);
	child_send(msg_w, 'R', min0, maj0);
	use_app(ap, &cm);
	child_send(msg_w, 'I', min0, maj0);

	for (;;) {
		ssize_t r = read(ctl_r, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1 || c == 'q')
			_exit(0);
		/* 'r': resume */
		rusage_now(&min0, &maj0);
		touch_files(ap, &cm);
		touch_anon(ap, &cm, opt.anon_resume_pct);
		child_send(msg_w, 'R', min0, maj0);
		use_app(ap, &cm);
		child_send(msg_w, 'I', min0, maj0);
	}
}

/* ---- the launcher (parent) --------------------------------------------- */

static char cgpath[600];
static unsigned long use_clock;

static const char * const cg_keys[] = {
	"pgscan", "pgsteal", "pgscan_kswapd", "pgscan_direct", "pgrefill",
	"pgactivate", "pgdeactivate", "pgfault", "pgmajfault",
	"workingset_refault_anon", "workingset_refault_file",
	"workingset_activate_anon", "workingset_activate_file",
	"workingset_restore_file", "pswpin", "pswpout",
};
#define NCGK FT_ARRAY_SIZE(cg_keys)

static void cg_snapshot(long long *v)
{
	size_t i;

	for (i = 0; i < NCGK; i++)
		v[i] = cgpath[0] ? ft_cg_key(cgpath, "memory.stat", cg_keys[i]) : -1;
}

static int read_msg(struct app *ap, struct msg *m)
{
	ssize_t r;

	do
		r = read(ap->msg_r, m, sizeof(*m));
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof(*m)) {
		int st = 0;
		pid_t w = waitpid(ap->pid, &st, 0);

		ap->live = false;
		if (w == ap->pid && WIFSIGNALED(st))
			ft_seterr("app %d (pid %d) killed by signal %d%s", ap->idx, (int)ap->pid,
				  WTERMSIG(st), WTERMSIG(st) == SIGKILL ? " (OOM kill?)" : "");
		else if (w == ap->pid && WIFEXITED(st))
			ft_seterr("app %d (pid %d) exited with status %d", ap->idx, (int)ap->pid,
				  WEXITSTATUS(st));
		else
			ft_seterr("app %d (pid %d): lost", ap->idx, (int)ap->pid);
		return -1;
	}
	return 0;
}

static void stop_app(struct app *ap)
{
	char c = 'q';

	if (!ap->live)
		return;
	if (write(ap->ctl_w, &c, 1) != 1)
		kill(ap->pid, SIGKILL);
	close(ap->ctl_w);
	close(ap->msg_r);
	waitpid(ap->pid, NULL, 0);
	ap->live = false;
}

static int nlive(void)
{
	int i, n = 0;

	for (i = 0; i < opt.apps; i++)
		n += apps[i].live;
	return n;
}

/* Kill least recently used apps until fewer than keep are alive. */
static void make_room(void)
{
	while (nlive() >= opt.keep && nlive() > 0) {
		struct app *lru = NULL;
		int i;

		for (i = 0; i < opt.apps; i++)
			if (apps[i].live && (!lru || apps[i].last_use < lru->last_use))
				lru = &apps[i];
		stop_app(lru);
	}
}

static int launch_cold(struct app *ap, double *ms, struct msg *m)
{
	int ctl[2], msg[2], i;
	uint64_t t0, t1;
	pid_t pid;

	if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(msg, O_CLOEXEC) < 0) {
		ft_seterr_errno("pipe");
		return -1;
	}
	fflush(stdout);
	t0 = ft_now_ns();
	pid = fork();
	if (pid < 0) {
		ft_seterr_errno("fork");
		return -1;
	}
	if (pid == 0) {
		ft_cl_child();
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(7);
		close(ctl[1]);
		close(msg[0]);
		for (i = 0; i < opt.apps; i++)
			if (apps[i].live) {
				close(apps[i].ctl_w);
				close(apps[i].msg_r);
			}
		child_main(ap, ctl[0], msg[1]);
	}
	close(ctl[0]);
	close(msg[1]);
	ap->pid = pid;
	ap->ctl_w = ctl[1];
	ap->msg_r = msg[0];
	ap->live = true;
	if (read_msg(ap, m) < 0)
		return -1;
	t1 = ft_now_ns();
	*ms = (double)(t1 - t0) / 1e6;
	return 0;
}

static int resume(struct app *ap, double *ms, struct msg *m)
{
	uint64_t t0, t1;
	char c = 'r';

	t0 = ft_now_ns();
	if (write(ap->ctl_w, &c, 1) != 1) {
		ft_seterr_errno("app %d: resume", ap->idx);
		return -1;
	}
	if (read_msg(ap, m) < 0)
		return -1;
	t1 = ft_now_ns();
	*ms = (double)(t1 - t0) / 1e6;
	return 0;
}

static int fail(const char *what)
{
	printf("error %s: %s\n", what, ft_err);
	fflush(stdout);
	fprintf(stderr, "ft_applaunch: %s: %s\n", what, ft_err);
	return 1;
}

static int do_run(void)
{
	long long cg0[NCGK], cg1[NCGK], oom0 = 0, oom1 = 0;
	double all_sum = 0, all_max = 0, all_min = 1e30;
	long all_min_flt = 0, all_maj_flt = 0;
	int r, a, fd, i, nall = 0;
	char name[64];
	struct stat st;
	size_t wset = 0;

	for (i = 0; i < nfiles; i++) {
		if (stat(files[i].path, &st) < 0 || (size_t)st.st_size != files[i].size) {
			ft_seterr("%s missing or not %zu bytes: run 'ft_applaunch setup' with the same -d -n -f -F",
				  files[i].path, files[i].size);
			return fail("files");
		}
		/* start cold: nothing of ours in the page cache */
		if (!opt.no_drop) {
			fd = open(files[i].path, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
				close(fd);
			}
		}
	}
	if (build_working_sets() < 0)
		return fail("working sets");
	for (a = 0; a < opt.apps; a++)
		wset += apps[a].wset_pages;

	ft_cl_install();
	if (opt.limit_mb > 0) {
		char val[32];

		snprintf(name, sizeof(name), "ft-applaunch-%d", (int)getpid());
		if (ft_cg_prepare_root(opt.cgroot) < 0 ||
		    ft_cg_create(opt.cgroot, name, cgpath, sizeof(cgpath)) < 0 ||
		    ft_cg_register_return(opt.cgroot) < 0)
			return fail("memcg");
		snprintf(val, sizeof(val), "%lld", (long long)opt.limit_mb * (long long)FT_MB);
		if (ft_cg_write(cgpath, "memory.max", val) < 0 || ft_cg_enter(cgpath) < 0)
			return fail("memcg");
		oom0 = ft_cg_key(cgpath, "memory.events", "oom_kill");
	}

	printf("config apps=%d rounds=%d anon_mb=%ld app_file_mb=%ld fw_mb=%ld limit_mb=%ld keep=%d "
	       "exit_after=%d use_passes=%d run_max=%d gap_max=%d seed=%llu anon_resume_pct=%d "
	       "wset_file_pages=%zu wset_file_mb=%.1f swap_kb=%ld cgroup=%s\n",
	       opt.apps, opt.rounds, opt.anon_mb, opt.app_mb, opt.fw_mb, opt.limit_mb, opt.keep,
	       opt.exit_after, opt.use_passes, opt.run_max, opt.gap_max,
	       (unsigned long long)opt.seed, opt.anon_resume_pct, wset,
	       (double)wset * FT_PAGE / FT_MB, ft_swap_total_kb(), cgpath[0] ? cgpath : "-");
	fflush(stdout);

	for (r = 1; r <= opt.rounds; r++) {
		double sum = 0, max = 0, min = 1e30;
		long mnf = 0, mjf = 0;
		int cold = 0, warm = 0;

		cg_snapshot(cg0);
		for (a = 0; a < opt.apps; a++) {
			struct app *ap = &apps[a];
			struct msg m;
			double ms;
			bool was_live = ap->live;

			if (was_live) {
				if (resume(ap, &ms, &m) < 0)
					return fail("resume");
				warm++;
			} else {
				if (opt.keep > 0)
					make_room();
				if (launch_cold(ap, &ms, &m) < 0)
					return fail("launch");
				cold++;
			}
			ap->last_use = ++use_clock;
			if (!opt.quiet)
				printf("launch round=%d app=%d kind=%s ms=%.3f minflt=%ld majflt=%ld\n",
				       r, a, was_live ? "warm" : "cold", ms, m.minflt, m.majflt);
			fflush(stdout);
			sum += ms;
			if (ms > max)
				max = ms;
			if (ms < min)
				min = ms;
			mnf += m.minflt;
			mjf += m.majflt;
			/* the use phase, untimed */
			if (read_msg(ap, &m) < 0)
				return fail("use");
			if (opt.exit_after || opt.keep == 0)
				stop_app(ap);
		}
		cg_snapshot(cg1);
		printf("round round=%d launches=%d cold=%d warm=%d avg_ms=%.3f max_ms=%.3f min_ms=%.3f "
		       "sum_ms=%.3f minflt=%ld majflt=%ld",
		       r, opt.apps, cold, warm, sum / opt.apps, max, min, sum, mnf, mjf);
		for (i = 0; i < (int)NCGK; i++)
			if (cg0[i] >= 0 && cg1[i] >= 0)
				printf(" cg_%s=%lld", cg_keys[i], cg1[i] - cg0[i]);
		if (cgpath[0])
			printf(" cg_current_kb=%lld", ft_cg_read(cgpath, "memory.current") / 1024);
		printf("\n");
		fflush(stdout);
		all_sum += sum;
		nall += opt.apps;
		if (max > all_max)
			all_max = max;
		if (min < all_min)
			all_min = min;
		all_min_flt += mnf;
		all_maj_flt += mjf;
	}

	printf("summary launches=%d avg_ms=%.3f max_ms=%.3f min_ms=%.3f sum_ms=%.3f minflt=%ld majflt=%ld",
	       nall, all_sum / nall, all_max, all_min, all_sum, all_min_flt, all_maj_flt);
	if (cgpath[0]) {
		oom1 = ft_cg_key(cgpath, "memory.events", "oom_kill");
		printf(" oom_kill=%lld peak_kb=%lld max_events=%lld", oom1 - oom0,
		       ft_cg_read(cgpath, "memory.peak") / 1024,
		       ft_cg_key(cgpath, "memory.events", "max"));
	}
	printf("\n");
	fflush(stdout);
	for (a = 0; a < opt.apps; a++)
		stop_app(&apps[a]);
	if (ft_cl_run_to(0))
		return fail("cleanup");
	return (oom1 - oom0) > 0 ? 1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ft_applaunch setup|run -d DIR [options]\n"
		"  -d DIR      directory of the app files (on the xfs under test)\n"
		"  -n APPS     number of apps (default 10, at most %d)\n"
		"  -f MB       file size per app, code + resources (default 6)\n"
		"  -F MB       framework files, all four together (default 24)\n"
		"  -w          setup: rewrite existing files\n"
		"run only:\n"
		"  -r ROUNDS   launch sequences (default 2)\n"
		"  -a MB       heap per app (default 3)\n"
		"  -m MB       memory.max of the memcg created for the run (default 48; 0 = no memcg)\n"
		"  -C DIR      cgroup2 root (default /sys/fs/cgroup)\n"
		"  -k N        at most N apps alive; the least recently used is killed (default APPS)\n"
		"  -x          every app exits after its use phase (all launches cold)\n"
		"  -u N        untimed use passes over the working set after each launch (default 2)\n"
		"  -p PCT      heap pages touched on resume and per use pass (default 50)\n"
		"  -R N        touched runs are 1..N pages (default 4)\n"
		"  -G N        gaps between runs are N/8..N pages (default 48)\n"
		"  -s SEED     working-set seed (default 1)\n"
		"  -D          do not drop the files from the page cache first\n"
		"  -q          no per-launch lines\n", MAX_APPS);
}

int main(int argc, char **argv)
{
	const char *cmd;
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "setup") && strcmp(cmd, "run")) {
		usage(stderr);
		return 2;
	}
	optind = 2;
	while ((c = getopt(argc, argv, "d:n:f:F:wr:a:m:C:k:xu:p:R:G:s:Dqh")) != -1) {
		switch (c) {
		case 'd': opt.dir = optarg; break;
		case 'n': opt.apps = atoi(optarg); break;
		case 'f': opt.app_mb = atol(optarg); break;
		case 'F': opt.fw_mb = atol(optarg); break;
		case 'w': opt.rewrite = true; break;
		case 'r': opt.rounds = atoi(optarg); break;
		case 'a': opt.anon_mb = atol(optarg); break;
		case 'm': opt.limit_mb = atol(optarg); break;
		case 'C': opt.cgroot = optarg; break;
		case 'k': opt.keep = atoi(optarg); break;
		case 'x': opt.exit_after = true; break;
		case 'u': opt.use_passes = atoi(optarg); break;
		case 'p': opt.anon_resume_pct = atoi(optarg); break;
		case 'R': opt.run_max = atoi(optarg); break;
		case 'G': opt.gap_max = atoi(optarg); break;
		case 's': opt.seed = strtoull(optarg, NULL, 0); break;
		case 'D': opt.no_drop = true; break;
		case 'q': opt.quiet = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || !opt.dir || opt.apps < 1 || opt.apps > MAX_APPS ||
	    opt.rounds < 1 || opt.rounds > MAX_ROUNDS || opt.app_mb < 1 || opt.fw_mb < NFW ||
	    opt.anon_mb < 0 || opt.limit_mb < 0 || opt.use_passes < 0 || opt.run_max < 1 ||
	    opt.gap_max < 1 || opt.anon_resume_pct < 0 || opt.anon_resume_pct > 100) {
		usage(stderr);
		return 2;
	}
	if (opt.keep < 0 || opt.keep > opt.apps)
		opt.keep = opt.apps;
	if (opt.exit_after)
		opt.keep = 0;
	define_files();
	if (!strcmp(cmd, "setup"))
		return do_setup() < 0 ? fail("setup") : 0;
	return do_run();
}
