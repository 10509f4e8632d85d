/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * transition.h - what load and unload share (transition.c).
 */
#ifndef FT_TRANSITION_H
#define FT_TRANSITION_H

#include <stdbool.h>

#define FT_POLL_SECONDS		0.05

/* finit_module(2), delete_module(2); FOLIOTUNE_FAKE_MODULE_SYSCALLS=ERRNO fakes both */
int ft_finit_module(int fd, int flags);
int ft_delete_module(const char *name);
/*
 * 0 once the livepatch's transition file reads 0 (saying every few seconds
 * which tasks it waits for); -ENOENT if the patch is gone; -ETIMEDOUT.
 * @target: the patch_state tasks switch to (1 patching, 0 unpatching).
 */
int ft_wait_transition(double deadline, int target);
/* The timeout's error report, with the tasks not yet switched. */
int ft_transition_timeout(int target, double timeout);
/* 0 once path exists (present) or is gone (!present); -ETIMEDOUT. */
int ft_wait_path(const char *path, bool present, double deadline);
/* load/unload [-t SECONDS]: -1 to go on, else the exit code. */
int ft_timeout_args(int argc, char **argv, const char *cmd, double *timeout);

#endif /* FT_TRANSITION_H */
