/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * xalloc.h - allocation that exits on OOM (xalloc.c).
 */
#ifndef FT_XALLOC_H
#define FT_XALLOC_H

#include <stddef.h>

char *ft_strdup(const char *s);		/* aborts on OOM */
void *ft_xrealloc(void *p, size_t n);	/* exits on OOM */
void *ft_xcalloc(size_t n, size_t size);	/* exits on OOM; n may be 0 */

#endif /* FT_XALLOC_H */
