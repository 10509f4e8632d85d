/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * module_path.h - where the foliotune module is: its file on disk (found
 * the way modprobe finds it) and, once loaded, its sysfs and debugfs
 * directories.
 */
#ifndef FT_MODULE_PATH_H
#define FT_MODULE_PATH_H

#include <stdbool.h>
#include <stddef.h>

bool ft_module_loaded(void);
int ft_livepatch_path(char *buf, size_t len, const char *file);
/* Locate <debugfs>/foliotune; 0, or -errno with a message. */
int ft_find_debugfs_dir(char *dir, size_t len, char *msg, size_t msglen);
/* Same, reporting the error; returns 0 or an exit code. */
int ft_open_debugfs_dir(char *dir, size_t len);
/* Explain a failed debugfs access (lockdown, permissions). */
void ft_explain_debugfs_errno(int err, const char *path, char *msg, size_t len);
struct ft_knob;
/*
 * Report a failed access (VERB "read", "write") to knob k's file in dir:
 * not provided by this module, lockdown, permission, the errno by name.
 * Returns the exit code.
 */
int ft_knob_fail(const char *dir, const struct ft_knob *k, int err, const char *verb);

/*
 * The module file to load for kernel release rel: the one modprobe would
 * load (its modules.dep entry), else an installed one depmod has not
 * indexed yet (updates/), else the build tree's.  0, or -errno with msg.
 */
int ft_find_module_file(const char *rel, char *path, size_t len,
			char *msg, size_t msglen);

#endif /* FT_MODULE_PATH_H */
