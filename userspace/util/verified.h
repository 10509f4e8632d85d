/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * verified.h - the support check: a module/verified/ build, or one
 * verified on this machine (verified.c).
 */
#ifndef FT_VERIFIED_H
#define FT_VERIFIED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Release and version of a verified build?  If not, why, and what to do. */
bool ft_support_check(const char *rel, const char *ver, char *why, size_t len);
bool ft_running_supported(char *why, size_t len);
/*
 * Where a supported build was verified: "in the tree (module/verified/REL.h)"
 * or "locally on HOST (...) at TIME (/var/lib/foliotune/verified/REL.h)";
 * "" if it is not.
 */
void ft_support_where(const char *rel, const char *ver, char *buf, size_t len);
/* The verified builds to boot, one per line (JSON: strings of an array). */
void ft_verified_list(FILE *f);

#endif /* FT_VERIFIED_H */
