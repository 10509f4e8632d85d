/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * support.h - the support check: a module/verified/ build (support.c).
 */
#ifndef FT_SUPPORT_H
#define FT_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

/* Release and version of a verified build?  If not, why, and what to do. */
bool ft_support_check(const char *rel, const char *ver, char *why, size_t len);
bool ft_running_supported(char *why, size_t len);

#endif /* FT_SUPPORT_H */
