// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * util.c - output and error reporting, sysroot paths, small file helpers.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ft.h"

#define FT_READ_MAX	(64u << 20)

/* pseudo file systems where O_TRUNC/ftruncate make no sense */
#define FT_SYSFS_MAGIC		0x62656572
#define FT_DEBUGFS_MAGIC	0x64626720
#define FT_PROC_MAGIC		0x9fa0
#define FT_TRACEFS_MAGIC	0x74726163
#define FT_SECURITYFS_MAGIC	0x73636673

bool ft_json;
json_writer_t *ft_jw;
const char *ft_prog = FOLIOTUNE_NAME;
const char *ft_cmd_name;

void ft_set_json(bool on)
{
	if (on && !ft_jw) {
		ft_jw = jsonw_new(stdout);
		if (!ft_jw) {
			fprintf(stderr, "%s: out of memory\n", ft_prog);
			exit(FT_EXIT_RUNTIME);
		}
	}
	ft_json = on;
}

static int ft_vfail(int code, int err, void (*extra)(void *), void *arg,
		    const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

static int ft_vfail(int code, int err, void (*extra)(void *), void *arg,
		    const char *fmt, va_list ap)
{
	char msg[FT_MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (ft_json) {
		jsonw_close_all(ft_jw);
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "error", msg);
		jsonw_int_field(ft_jw, "errno", err);
		if (extra)
			extra(arg);
		jsonw_end_object(ft_jw);
		fflush(stdout);
	} else {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", ft_prog, msg);
		if (extra)
			extra(arg);
		if (code == FT_EXIT_USAGE)
			fprintf(stderr, "Try '%s%s%s --help' for more information.\n",
				ft_prog, ft_cmd_name ? " " : "",
				ft_cmd_name ? ft_cmd_name : "");
	}
	return code;
}

int ft_fail(int code, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ft_vfail(code, err, NULL, NULL, fmt, ap);
	va_end(ap);
	return ret;
}

int ft_fail_ex(int code, int err, void (*extra)(void *), void *arg,
	       const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ft_vfail(code, err, extra, arg, fmt, ap);
	va_end(ap);
	return ret;
}

void ft_msg(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void ft_info(const char *fmt, ...)
{
	va_list ap;

	if (ft_json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void ft_note(const char *fmt, ...)
{
	va_list ap;

	if (ft_json)
		return;
	fflush(stdout);
	fprintf(stderr, "%s: ", ft_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
}

void ft_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: warning: ", ft_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
}

const char *ft_sysroot(void)
{
	const char *s = getenv("FOLIOTUNE_SYSROOT");

	return s ? s : "";
}

int ft_path(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = ft_sysroot();
	size_t rl = strlen(root);
	va_list ap;
	int n;

	/* "/a/" + "/sys" -> "/a/sys" */
	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	if (rl >= len)
		return -ENAMETOOLONG;
	memcpy(buf, root, rl);
	va_start(ap, fmt);
	n = vsnprintf(buf + rl, len - rl, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - rl)
		return -ENAMETOOLONG;
	return 0;
}

int ft_debugfs_root(char *buf, size_t len)
{
	const char *d = getenv("FOLIOTUNE_DEBUGFS");
	int n;

	if (d && *d) {
		n = snprintf(buf, len, "%s", d);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		return 0;
	}
	return ft_path(buf, len, "/sys/kernel/debug");
}

int ft_join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int ft_read_file(const char *path, char **out, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	char *buf;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno ? -errno : -EIO;
	buf = ft_xrealloc(NULL, cap);
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			if (cap >= FT_READ_MAX) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			cap *= 2;
			buf = ft_xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			free(buf);
			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

void ft_rtrim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

int ft_read_line(const char *path, char *buf, size_t len)
{
	char *content = NULL, *nl;
	size_t n;
	int err;

	err = ft_read_file(path, &content, NULL);
	if (err || !content)
		return err ? err : -EIO;
	nl = strchr(content, '\n');
	if (nl)
		*nl = '\0';
	ft_rtrim(content);
	n = strlen(content);
	if (n >= len)
		n = len - 1;
	memcpy(buf, content, n);
	buf[n] = '\0';
	free(content);
	return 0;
}

int ft_read_int(const char *path, long long *out)
{
	char buf[64], *end;
	long long v;
	int err;

	err = ft_read_line(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (end == buf || *end || errno)
		return -EBADMSG;
	*out = v;
	return 0;
}

static bool ft_pseudo_fs(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs))
		return true;
	switch ((unsigned long)sfs.f_type) {
	case FT_SYSFS_MAGIC:
	case FT_DEBUGFS_MAGIC:
	case FT_PROC_MAGIC:
	case FT_TRACEFS_MAGIC:
	case FT_SECURITYFS_MAGIC:
		return true;
	}
	return false;
}

int ft_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = write(fd, s, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	/* a regular file in a fake sysroot: drop any old tail */
	if (!err && !ft_pseudo_fs(fd) && ftruncate(fd, (off_t)len))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

bool ft_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

bool ft_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void ft_oom(void) __attribute__((noreturn));

static void ft_oom(void)
{
	fprintf(stderr, "%s: out of memory\n", ft_prog);
	exit(FT_EXIT_RUNTIME);
}

char *ft_strdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		ft_oom();
	return d;
}

void *ft_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		ft_oom();
	return q;
}

void *ft_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		ft_oom();
	return p;
}

double ft_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ft_sleep(double seconds)
{
	struct timespec ts;

	if (seconds <= 0)
		return;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	nanosleep(&ts, NULL);	/* EINTR: callers re-check their state */
}

int ft_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;
	const char *p;

	if (!*s)
		return -EINVAL;
	for (p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end)
		return -EINVAL;
	if (errno || !isfinite(v) || v > 86400.0 * 365)
		return -ERANGE;
	*out = v;
	return 0;
}

int ft_kernel_release(char *buf, size_t len)
{
	char path[FT_PATH_MAX];
	struct utsname u;
	int n;

	if (!ft_path(path, sizeof(path), "/proc/sys/kernel/osrelease") &&
	    !ft_read_line(path, buf, len) && *buf)
		return 0;
	if (uname(&u))
		return -errno;
	n = snprintf(buf, len, "%s", u.release);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int ft_kernel_version(char *buf, size_t len)
{
	char path[FT_PATH_MAX];
	struct utsname u;
	int n;

	if (!ft_path(path, sizeof(path), "/proc/sys/kernel/version") &&
	    !ft_read_line(path, buf, len) && *buf)
		return 0;
	if (uname(&u))
		return -errno;
	n = snprintf(buf, len, "%s", u.version);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

/* "none [integrity] confidentiality" -> "integrity" */
int ft_parse_lockdown(const char *content, char *buf, size_t len)
{
	const char *open = strchr(content, '['), *close;
	size_t n;

	if (!open)
		return -EBADMSG;
	close = strchr(open, ']');
	if (!close)
		return -EBADMSG;
	n = (size_t)(close - open - 1);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, open + 1, n);
	buf[n] = '\0';
	return 0;
}

void ft_lockdown_mode(char *buf, size_t len)
{
	char path[FT_PATH_MAX], line[256];

	buf[0] = '\0';
	if (ft_path(path, sizeof(path), "/sys/kernel/security/lockdown") ||
	    ft_read_line(path, line, sizeof(line)) ||
	    ft_parse_lockdown(line, buf, len))
		buf[0] = '\0';
}

uid_t ft_euid(void)
{
	const char *s = getenv("FOLIOTUNE_ASSUME_UID");
	char *end;
	unsigned long v;

	if (s && *s) {
		errno = 0;
		v = strtoul(s, &end, 10);
		if (!errno && !*end && v <= UINT_MAX)
			return (uid_t)v;
	}
	return geteuid();
}

/* SUDO_UID or SUDO_GID as an id; false when unset or junk */
static bool ft_sudo_id(const char *name, unsigned long *id)
{
	const char *s = getenv(name);
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*id = strtoul(s, &end, 10);
	return !errno && !*end && *id < UINT_MAX;
}

void ft_give_to_sudo_user(int fd, const char *path)
{
	unsigned long uid, gid;

	/* geteuid(), not ft_euid(): only real root can chown; sudo by root: no-op */
	if (geteuid() != 0 || !ft_sudo_id("SUDO_UID", &uid) || !uid ||
	    !ft_sudo_id("SUDO_GID", &gid))
		return;
	if (fchown(fd, (uid_t)uid, (gid_t)gid))
		ft_warn("%s stays root's: cannot give it to uid %lu: %s", path, uid,
			strerror(errno));
}

int ft_require_root(const char *what)
{
	if (ft_euid() == 0)
		return 0;
	return ft_runtime_error(EPERM, "%s requires root privileges", what);
}
