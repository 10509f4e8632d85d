// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * xalloc.c - allocation that cannot fail: a short-lived CLI has nothing
 * better to do on OOM than say so and exit, so callers need no checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foliotune.h"
#include "xalloc.h"

static void ft_oom(void) __attribute__((noreturn));

static void ft_oom(void)
{
	/* (exit status 2, FT_EXIT_RUNTIME: a leaf, this file includes no output.h) */
	fprintf(stderr, "%s: out of memory\n", FOLIOTUNE_NAME);
	exit(2);
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
