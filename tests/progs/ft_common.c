// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_common.c - helpers shared by the foliotune test programs.
 * See ft_common.h for the interface.
 */
#define _GNU_SOURCE
#include "ft_common.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

/* ---- error buffer --------------------------------------------------- */

char ft_err[FT_ERRLEN];

void ft_seterr(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ft_err, sizeof(ft_err), fmt, ap);
	va_end(ap);
}

void ft_seterr_errno(const char *fmt, ...)
{
	int e = errno;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ft_err, sizeof(ft_err), fmt, ap);
	va_end(ap);
	len = strlen(ft_err);
	snprintf(ft_err + len, sizeof(ft_err) - len, ": %s (errno %d)", strerror(e), e);
	errno = e;
}

/* ---- TAP ------------------------------------------------------------ */

static int tap_n, tap_pass, tap_fail, tap_skipped, tap_planned = -1;

void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

void tap_ok(const char *name)
{
	tap_n++;
	tap_pass++;
	printf("ok - %s\n", name);
	fflush(stdout);
}

static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

void tap_not_ok(const char *name, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	one_line(buf);
	tap_n++;
	tap_fail++;
	printf("not ok - %s # %s\n", name, buf);
	fflush(stdout);
}

void tap_skip(const char *name, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	one_line(buf);
	tap_n++;
	tap_skipped++;
	printf("ok - %s # SKIP %s\n", name, buf);
	fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	one_line(buf);
	printf("# %s\n", buf);
	fflush(stdout);
}

int tap_failed(void)
{
	return tap_fail;
}

int tap_finish(const char *prog)
{
	bool off_plan = tap_planned >= 0 && tap_n != tap_planned;

	if (tap_planned < 0)
		printf("1..%d\n", tap_n);
	else if (off_plan)
		printf("# %s: printed %d results, planned %d\n", prog, tap_n, tap_planned);
	printf("%s: %d passed, %d failed, %d skipped\n", prog, tap_pass, tap_fail,
	       tap_skipped);
	fflush(stdout);
	return tap_fail || off_plan ? 1 : 0;
}

/* ---- cleanup registry ----------------------------------------------- */

struct ft_cl {
	int kind;
	int active;
	char path[512];
	char val[256];
};

#define FT_CL_MAX 256
static struct ft_cl ft_cl_tab[FT_CL_MAX];
static volatile sig_atomic_t ft_cl_n;
static pid_t ft_cl_owner;
static volatile pid_t ft_cl_victim;

int ft_cl_push(int kind, const char *path, const char *val)
{
	struct ft_cl *c;

	if (ft_cl_n >= FT_CL_MAX) {
		ft_seterr("cleanup registry full");
		return -1;
	}
	c = &ft_cl_tab[ft_cl_n];
	c->kind = kind;
	snprintf(c->path, sizeof(c->path), "%s", path ? path : "");
	snprintf(c->val, sizeof(c->val), "%s", val ? val : "");
	c->active = 1;
	ft_cl_n++;
	return ft_cl_n - 1;
}

int ft_cl_mark(void)
{
	return ft_cl_n;
}

static void cl_msg(const char *what, const struct ft_cl *c, int e)
{
	char buf[1200];
	int len;

	len = snprintf(buf, sizeof(buf), "# cleanup: %s %s%s%s: %s (errno %d)\n", what,
		       c->path, c->val[0] ? " -> " : "", c->val, strerror(e), e);
	if (len > 0) {
		fflush(stdout);
		if (write(STDOUT_FILENO, buf, (size_t)len) < 0) {
			/* nothing better to do */
		}
	}
}

static int cl_write(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t r;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = write(fd, val, len);
	if (r < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

static void cl_sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int cl_one(struct ft_cl *c)
{
	char buf[600];
	int i;

	switch (c->kind) {
	case FT_CL_KNOB:
		if (cl_write(c->path, c->val) < 0) {
			cl_msg("failed to restore", c, errno);
			return -1;
		}
		return 0;
	case FT_CL_UMOUNT:
		if (umount2(c->path, 0) < 0 && errno != EINVAL && errno != ENOENT) {
			if (errno == EBUSY && umount2(c->path, MNT_DETACH) == 0)
				return 0;
			cl_msg("failed to unmount", c, errno);
			return -1;
		}
		return 0;
	case FT_CL_RMDIR:
		if (rmdir(c->path) < 0 && errno != ENOENT) {
			cl_msg("failed to rmdir", c, errno);
			return -1;
		}
		return 0;
	case FT_CL_UNLINK:
		if (unlink(c->path) < 0 && errno != ENOENT) {
			cl_msg("failed to unlink", c, errno);
			return -1;
		}
		return 0;
	case FT_CL_CGROUP:
		for (i = 0; i < 250; i++) {
			if (rmdir(c->path) == 0 || errno == ENOENT)
				return 0;
			if (errno != EBUSY)
				break;
			if (i == 0) {
				snprintf(buf, sizeof(buf), "%s/cgroup.kill", c->path);
				cl_write(buf, "1");
			}
			cl_sleep_ms(20);
		}
		cl_msg("failed to remove cgroup", c, errno);
		return -1;
	case FT_CL_CGMOVE:
		snprintf(buf, sizeof(buf), "%d", (int)getpid());
		if (cl_write(c->path, buf) < 0) {
			cl_msg("failed to move back to", c, errno);
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

int ft_cl_run_to(int mark)
{
	int fails = 0;

	if (ft_cl_owner && getpid() != ft_cl_owner)
		return 0;
	while (ft_cl_n > mark) {
		struct ft_cl *c = &ft_cl_tab[ft_cl_n - 1];

		if (c->active) {
			c->active = 0;
			if (cl_one(c) < 0)
				fails++;
		}
		ft_cl_n--;
	}
	return fails;
}

static void ft_cl_atexit(void)
{
	ft_cl_run_to(0);
}

static void ft_cl_signal(int sig)
{
	if (getpid() == ft_cl_owner) {
		if (ft_cl_victim > 0)
			kill(-ft_cl_victim, SIGKILL);
		ft_cl_run_to(0);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int ft_fatal_sigs[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT, SIGALRM, SIGPIPE,
};

void ft_cl_install(void)
{
	struct sigaction sa;
	size_t i;

	ft_cl_owner = getpid();
	atexit(ft_cl_atexit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ft_cl_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < FT_ARRAY_SIZE(ft_fatal_sigs); i++)
		sigaction(ft_fatal_sigs[i], &sa, NULL);
}

void ft_cl_set_victim(pid_t pgid)
{
	ft_cl_victim = pgid;
}

void ft_cl_child(void)
{
	size_t i;

	/* ft_cl_owner stays the parent's pid: the child never undoes. */
	ft_cl_victim = 0;
	for (i = 0; i < FT_ARRAY_SIZE(ft_fatal_sigs); i++)
		signal(ft_fatal_sigs[i], SIG_DFL);
}

/* ---- files and knobs ------------------------------------------------- */

bool ft_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

bool ft_linux7(void)
{
	struct utsname u;

	return !uname(&u) && atoi(u.release) >= 7;
}

int ft_read_file(const char *path, char *buf, size_t n)
{
	ssize_t r;
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ft_seterr_errno("open %s", path);
		return -1;
	}
	while (got + 1 < n) {
		r = read(fd, buf + got, n - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ft_seterr_errno("read %s", path);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	close(fd);
	return (int)got;
}

int ft_write_file(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t r;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		ft_seterr_errno("open %s for writing", path);
		return -1;
	}
	r = write(fd, val, len);
	if (r < 0) {
		ft_seterr_errno("write '%s' to %s", val, path);
		close(fd);
		return -1;
	}
	if ((size_t)r != len) {
		ft_seterr("short write '%s' to %s (%zd of %zu)", val, path, r, len);
		close(fd);
		return -1;
	}
	if (close(fd) < 0) {
		ft_seterr_errno("close %s after writing '%s'", path, val);
		return -1;
	}
	return 0;
}

static void trim(char *s)
{
	size_t len = strlen(s);
	char *p = s;

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	while (*p && isspace((unsigned char)*p))
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
}

int ft_knob_get(const char *path, char *val, size_t n)
{
	char buf[512];
	char *l, *r;

	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		snprintf(val, n, "%s", l + 1);
	} else {
		trim(buf);
		snprintf(val, n, "%s", buf);
	}
	return 0;
}

int ft_knob_set(const char *path, const char *val)
{
	char old[256], now[256];
	int i;
	bool saved = false;

	for (i = 0; i < ft_cl_n; i++)
		if (ft_cl_tab[i].active && ft_cl_tab[i].kind == FT_CL_KNOB &&
		    !strcmp(ft_cl_tab[i].path, path))
			saved = true;
	if (!saved) {
		if (ft_knob_get(path, old, sizeof(old)) < 0)
			return -1;
		if (ft_cl_push(FT_CL_KNOB, path, old) < 0)
			return -1;
	}
	if (ft_write_file(path, val) < 0)
		return -1;
	if (ft_knob_get(path, now, sizeof(now)) < 0)
		return -1;
	if (strcmp(now, val)) {
		ft_seterr("%s reads '%s' after writing '%s'", path, now, val);
		return -1;
	}
	return 0;
}

/* ---- cgroup v2 ------------------------------------------------------ */

static bool word_in(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || isspace((unsigned char)p[-1])) &&
		    (p[wl] == '\0' || isspace((unsigned char)p[wl])))
			return true;
		p += wl;
	}
	return false;
}

int ft_cg_prepare_root(const char *root)
{
	char path[600], buf[512];
	struct statfs sfs;

	if (statfs(root, &sfs) < 0) {
		ft_seterr_errno("statfs %s", root);
		return -1;
	}
	if ((unsigned long)sfs.f_type != CGROUP2_SUPER_MAGIC) {
		ft_seterr("%s is not a cgroup2 mount (f_type 0x%lx)", root,
			  (unsigned long)sfs.f_type);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", root);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!word_in(buf, "memory")) {
		ft_seterr("memory controller not available in %s (cgroup.controllers: '%s')",
			  root, buf);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", root);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (word_in(buf, "memory"))
		return 0;
	if (ft_write_file(path, "+memory") < 0)
		return -1;
	/* Undo after our cgroups are gone (registered before them). */
	return ft_cl_push(FT_CL_KNOB, path, "-memory") < 0 ? -1 : 0;
}

int ft_cg_create(const char *root, const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", root, name);
	if (mkdir(out, 0755) < 0) {
		ft_seterr_errno("mkdir %s", out);
		return -1;
	}
	return ft_cl_push(FT_CL_CGROUP, out, NULL) < 0 ? -1 : 0;
}

int ft_cg_enter(const char *cg)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	return ft_write_file(path, "0");
}

int ft_cg_register_return(const char *root)
{
	char buf[1024], path[1200];
	char *p;

	if (ft_read_file("/proc/self/cgroup", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "0::");
	if (!p) {
		ft_seterr("no cgroup2 entry in /proc/self/cgroup: '%s'", buf);
		return -1;
	}
	p += 3;
	p[strcspn(p, "\n")] = '\0';
	if (!strcmp(p, "/"))
		p = "";
	snprintf(path, sizeof(path), "%s%s/cgroup.procs", root, p);
	return ft_cl_push(FT_CL_CGMOVE, path, NULL) < 0 ? -1 : 0;
}

int ft_cg_write(const char *cg, const char *file, const char *val)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	return ft_write_file(path, val);
}

long long ft_cg_read(const char *cg, const char *file)
{
	char path[700], buf[128];

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!strncmp(buf, "max", 3))
		return INT64_MAX;
	return strtoll(buf, NULL, 10);
}

static long long key_in(const char *buf, const char *key)
{
	size_t kl = strlen(key);
	const char *p = buf;

	while (p && *p) {
		if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t' || p[kl] == ':')) {
			p += kl;
			while (*p == ' ' || *p == '\t' || *p == ':')
				p++;
			return strtoll(p, NULL, 10);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

long long ft_cg_key(const char *cg, const char *file, const char *key)
{
	char path[700], buf[8192];
	long long v;

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	v = key_in(buf, key);
	if (v < 0)
		ft_seterr("no key %s in %s", key, path);
	return v;
}

/* ---- /proc readers --------------------------------------------------- */

long ft_status_kb(const char *key)
{
	char buf[8192];

	if (ft_read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return -1;
	return (long)key_in(buf, key);
}

long ft_vmstat(const char *key)
{
	static char buf[65536];

	if (ft_read_file("/proc/vmstat", buf, sizeof(buf)) < 0)
		return -1;
	return (long)key_in(buf, key);
}

void ft_vmstat_refresh(void)
{
	/* Folds the per-cpu vmstat diffs; may complain about negative
	 * transient counters, which does not matter here. */
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "1", 1) < 0) {
			/* EINVAL: some counter transiently negative */
		}
		close(fd);
	}
}

long ft_swap_total_kb(void)
{
	char buf[4096], *p;
	long total = 0;

	if (ft_read_file("/proc/swaps", buf, sizeof(buf)) < 0)
		return -1;
	p = strchr(buf, '\n');		/* header line */
	while (p && *++p) {
		char name[256], type[32];
		long size, used;

		if (sscanf(p, "%255s %31s %ld %ld", name, type, &size, &used) == 4)
			total += size;
		p = strchr(p, '\n');
	}
	return total;
}

long ft_smaps_kb(const void *addr, const char *field)
{
	uintptr_t a = (uintptr_t)addr;
	char line[512];
	bool in = false;
	long v = -1;
	FILE *f;

	f = fopen("/proc/self/smaps", "re");
	if (!f) {
		ft_seterr_errno("open /proc/self/smaps");
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, e;
		char perms[8];

		/* VMA header: "start-end perms ..."; field lines: "Name:  N kB". */
		if (sscanf(line, "%lx-%lx %7s", &s, &e, perms) == 3) {
			in = a >= s && a < e;
			continue;
		}
		if (in && !strncmp(line, field, strlen(field)) && line[strlen(field)] == ':') {
			v = strtol(line + strlen(field) + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	if (v < 0)
		ft_seterr("no %s for the VMA at %p in /proc/self/smaps", field, addr);
	return v;
}

int ft_drop_caches(void)
{
	sync();
	return ft_write_file("/proc/sys/vm/drop_caches", "3");
}

uint64_t ft_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

double ft_now(void)
{
	return (double)ft_now_ns() / 1e9;
}

int ft_nproc(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* ---- data pattern --------------------------------------------------- */

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
