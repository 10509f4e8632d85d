/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * clock.h - monotonic time, sleeping, seconds from the command line
 * (clock.c).
 */
#ifndef FT_CLOCK_H
#define FT_CLOCK_H

double ft_now(void);			/* CLOCK_MONOTONIC seconds */
void ft_sleep(double seconds);
/* Non-negative seconds ("1", "0.5"); 0 or -EINVAL/-ERANGE */
int ft_parse_seconds(const char *s, double *out);

#endif /* FT_CLOCK_H */
