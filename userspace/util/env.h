/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* env.h - the machine a measurement ran on (env.c). */
#ifndef FT_ENV_H
#define FT_ENV_H

#include <stddef.h>
#include <stdio.h>

void ft_env_write(FILE *f, const char *dir);
void ft_env_write_after(FILE *f);	/* env loadavg_after */
void ft_env_warn_busy(void);
/* "KEY VALUE\n" with control characters of VALUE (NULL: empty) blanked */
void ft_env_put(FILE *f, const char *key, const char *value);
void ft_env_loadavg(char *buf, size_t len);
/* busy CPU seconds of the whole machine so far (/proc/stat), or -1 */
double ft_env_busy(void);

#endif /* FT_ENV_H */
