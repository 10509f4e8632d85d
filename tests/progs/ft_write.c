// SPDX-License-Identifier: GPL-2.0
/*
 * ft_write FILE VALUE [OFFSET] - one write(2) of VALUE to FILE, at OFFSET
 * (default 0), after expanding C escapes (\n, \t, \\, \xHH, \0).  Prints
 * "OK" or the errno's name (EINVAL, ERANGE, ...), so knob tests can assert
 * exactly what the kernel answered.  Exit 0 unless FILE cannot be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	default: return strerror(e);
	}
}

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	while (*s) {
		if (*s != '\\' || !s[1]) {
			out[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': out[n++] = '\n'; s++; break;
		case 't': out[n++] = '\t'; s++; break;
		case '0': out[n++] = '\0'; s++; break;
		case 'x': {
			char hex[3] = { s[1], s[1] ? s[2] : 0, 0 };

			out[n++] = (char)strtoul(hex, NULL, 16);
			s += 1 + strlen(hex);
			break;
		}
		default: out[n++] = *s++; break;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	char *buf;
	size_t len;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: ft_write FILE VALUE [OFFSET]\n");
		return 2;
	}
	buf = malloc(strlen(argv[2]) + 1);
	if (!buf)
		return 2;
	len = unescape(argv[2], buf);
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		free(buf);
		return 1;
	}
	if (argc == 4 && lseek(fd, atol(argv[3]), SEEK_SET) < 0) {
		printf("lseek: %s\n", errname(errno));
	} else if (write(fd, buf, len) < 0) {
		printf("%s\n", errname(errno));
	} else {
		printf("OK\n");
	}
	close(fd);
	free(buf);
	return 0;
}
