// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_common.c - the basics every test program uses: the error buffer, TAP
 * output, the cleanup registry, files and knobs, /proc readers and time.
 * The rest of ft_common.h lives in ft_cgroup.c, ft_pattern.c and
 * ft_folios.c.
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
#include <sys/mount.h>
#include <sys/utsname.h>

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

/* ---- /proc readers --------------------------------------------------- */

/* Not static: ft_cg_key() (ft_cgroup.c) parses memory.stat with it. */
long long ft_key_in(const char *buf, const char *key)
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

long ft_status_kb(const char *key)
{
	char buf[8192];

	if (ft_read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return -1;
	return (long)ft_key_in(buf, key);
}

long ft_vmstat(const char *key)
{
	static char buf[65536];

	if (ft_read_file("/proc/vmstat", buf, sizeof(buf)) < 0)
		return -1;
	return (long)ft_key_in(buf, key);
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
