/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * child.h - the workload of record and ab (child.c).
 */
#ifndef FT_CHILD_H
#define FT_CHILD_H

#include <signal.h>
#include <stddef.h>

struct rusage;

/* Shell-style quoting of argv on one line ($'...' for control characters). */
void ft_quote_command(char **argv, char *buf, size_t len);
/*
 * SIGINT, SIGTERM and SIGHUP set ft_stop_sig and are passed on to the
 * running child (ft_install_signals()).  ft_run_child() runs @cmd, its
 * stdout on @out_fd unless that is negative, and waits for it: 0 with its
 * wait status, wall time and (if @ru) resource usage, or the exit code of
 * an error it reported (pipe, fork, waitpid, exec).
 */
extern volatile sig_atomic_t ft_stop_sig;
void ft_install_signals(void);
int ft_run_child(char **cmd, int out_fd, int *status, double *wall,
		 struct rusage *ru);

#endif /* FT_CHILD_H */
