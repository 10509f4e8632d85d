/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * record.h - the record command, and the workload runner and counter deltas
 * that ab shares with it (record.c).
 */
#ifndef FT_RECORD_H
#define FT_RECORD_H

#include <signal.h>
#include <stddef.h>

struct ft_record;
struct ft_snapshot;
struct rusage;

void ft_quote_command(char **argv, char *buf, size_t len);
int ft_cmd_record(int argc, char **argv);
/*
 * The workload of record and ab: SIGINT, SIGTERM and SIGHUP set
 * ft_stop_sig and are passed on to the running child
 * (ft_install_signals()).  ft_run_child() runs @cmd, its stdout on
 * @out_fd unless that is negative, and waits for it: 0 with its wait
 * status, wall time and (if @ru) resource usage, or the exit code of an
 * error it reported (pipe, fork, waitpid, exec).
 */
extern volatile sig_atomic_t ft_stop_sig;
void ft_install_signals(void);
int ft_run_child(char **cmd, int out_fd, int *status, double *wall,
		 struct rusage *ru);
/* Append after - before of every counter of after, as SOURCE counters. */
void ft_record_add_deltas(struct ft_record *r, const char *source,
			  const struct ft_snapshot *before,
			  const struct ft_snapshot *after);

#endif /* FT_RECORD_H */
