/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * sysinfo.h - the running kernel's release, version and lockdown mode
 * (sysinfo.c).
 */
#ifndef FT_SYSINFO_H
#define FT_SYSINFO_H

#include <stddef.h>

int ft_kernel_release(char *buf, size_t len);
int ft_kernel_version(char *buf, size_t len);
/* Current lockdown mode ("none", "integrity", ...) or "" if unknown. */
void ft_lockdown_mode(char *buf, size_t len);
int ft_parse_lockdown(const char *content, char *buf, size_t len);

#endif /* FT_SYSINFO_H */
