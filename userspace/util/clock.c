// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * clock.c - time for intervals and workload runs: the monotonic clock,
 * sleeping, and parsing the seconds the user gives (-i, -w, ...).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"

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
