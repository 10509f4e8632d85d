/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * privilege.h - root checks and files written under sudo (privilege.c).
 */
#ifndef FT_PRIVILEGE_H
#define FT_PRIVILEGE_H

#include <sys/types.h>

uid_t ft_euid(void);			/* honours FOLIOTUNE_ASSUME_UID */
/*
 * A file foliotune created under sudo(8) goes to the user who ran sudo
 * (SUDO_UID, SUDO_GID), mode unchanged, so that their next command
 * (compare, plot) can read it; a warning if it cannot.
 */
void ft_give_to_sudo_user(int fd, const char *path);
/*
 * A new file for a record or an ab file, mode 0600, never one that exists:
 * GIVEN, else ./foliotune-KIND-<UTC time>[-N].txt; given to the sudo user.
 * The fd, or -errno (path names the file tried).
 */
int ft_create_new_file(const char *given, const char *kind, char *path, size_t len);
/* Its failure reported (WHAT: "records", "ab files"); the exit code. */
int ft_new_file_error(int err, const char *path, const char *what);
/* Returns 0 if root, else reports "must be root" and returns 2. */
int ft_require_root(const char *what);

#endif /* FT_PRIVILEGE_H */
