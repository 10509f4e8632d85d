// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fileio.c - whole-file reads and writes of small text files (debugfs
 * knobs, sysfs and proc files, fake ones in the host tests): EINTR
 * retried, errors as -errno.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fileio.h"
#include "xalloc.h"

#define FT_READ_MAX	(64u << 20)

/* pseudo file systems where O_TRUNC/ftruncate make no sense */
#define FT_SYSFS_MAGIC		0x62656572
#define FT_DEBUGFS_MAGIC	0x64626720
#define FT_PROC_MAGIC		0x9fa0
#define FT_TRACEFS_MAGIC	0x74726163
#define FT_SECURITYFS_MAGIC	0x73636673

int ft_read_fd(int fd, char **out, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	char *buf;

	*out = NULL;
	buf = ft_xrealloc(NULL, cap);
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			if (cap >= FT_READ_MAX) {
				free(buf);
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
			return -err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

int ft_read_file(const char *path, char **out, size_t *lenp)
{
	int fd, err;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno ? -errno : -EIO;
	err = ft_read_fd(fd, out, lenp);
	close(fd);
	return err;
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
