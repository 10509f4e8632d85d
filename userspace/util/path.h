/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * path.h - system paths under FOLIOTUNE_SYSROOT, debugfs (path.c).
 */
#ifndef FT_PATH_H
#define FT_PATH_H

#include <stddef.h>

#define FT_PATH_MAX	4096

const char *ft_sysroot(void);
/* snprintf of FOLIOTUNE_SYSROOT + formatted path; -ENAMETOOLONG on overflow */
int ft_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ft_debugfs_root(char *buf, size_t len);
int ft_join(char *buf, size_t len, const char *dir, const char *name);

#endif /* FT_PATH_H */
