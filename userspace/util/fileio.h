/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * fileio.h - small text files read and written whole (fileio.c).
 */
#ifndef FT_FILEIO_H
#define FT_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* Whole file, NUL terminated (max 64 MiB); 0 or -errno. */
int ft_read_file(const char *path, char **out, size_t *len);
/* The same from an open descriptor (standard input: 0), up to its end. */
int ft_read_fd(int fd, char **out, size_t *len);
/* First line, trimmed of trailing whitespace; 0 or -errno. */
int ft_read_line(const char *path, char *buf, size_t len);
int ft_read_int(const char *path, long long *out);
/* Write a string (no O_TRUNC on pseudo file systems); 0 or -errno. */
int ft_write_file(const char *path, const char *s);
bool ft_exists(const char *path);
bool ft_is_dir(const char *path);
void ft_rtrim(char *s);

#endif /* FT_FILEIO_H */
