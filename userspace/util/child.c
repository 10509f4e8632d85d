// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * child.c - the workload of record and ab: its command line quoted for the
 * files, run as a child with its wall time and resources, and the signals
 * (SIGINT, SIGTERM, SIGHUP) that stop foliotune passed on to it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "clock.h"
#include "output.h"

static void ft_buf_putc(char *buf, size_t len, size_t *pos, char c)
{
	if (*pos + 1 < len)
		buf[(*pos)++] = c;
	buf[*pos < len ? *pos : len - 1] = '\0';
}

static void ft_buf_puts(char *buf, size_t len, size_t *pos, const char *s)
{
	while (*s)
		ft_buf_putc(buf, len, pos, *s++);
}

/* Shell-style quoting of argv on one line ($'...' for control chars). */
void ft_quote_command(char **argv, char *buf, size_t len)
{
	static const char safe[] = "@%+=:,./-_";
	size_t pos = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; argv[i]; i++) {
		const unsigned char *s = (const unsigned char *)argv[i];
		bool plain = *s != '\0', ctrl = false;

		for (; *s; s++) {
			if (!isalnum(*s) && !strchr(safe, *s))
				plain = false;
			if (*s < 0x20 || *s == 0x7f)
				ctrl = true;
		}
		if (i)
			ft_buf_putc(buf, len, &pos, ' ');
		if (plain) {
			ft_buf_puts(buf, len, &pos, argv[i]);
		} else if (!ctrl) {
			ft_buf_putc(buf, len, &pos, '\'');
			for (s = (const unsigned char *)argv[i]; *s; s++) {
				if (*s == '\'')
					ft_buf_puts(buf, len, &pos, "'\\''");
				else
					ft_buf_putc(buf, len, &pos, (char)*s);
			}
			ft_buf_putc(buf, len, &pos, '\'');
		} else {
			ft_buf_puts(buf, len, &pos, "$'");
			for (s = (const unsigned char *)argv[i]; *s; s++) {
				char hex[8];

				switch (*s) {
				case '\n': ft_buf_puts(buf, len, &pos, "\\n"); break;
				case '\t': ft_buf_puts(buf, len, &pos, "\\t"); break;
				case '\r': ft_buf_puts(buf, len, &pos, "\\r"); break;
				case '\\': ft_buf_puts(buf, len, &pos, "\\\\"); break;
				case '\'': ft_buf_puts(buf, len, &pos, "\\'"); break;
				default:
					if (*s < 0x20 || *s == 0x7f) {
						snprintf(hex, sizeof(hex), "\\x%02x", *s);
						ft_buf_puts(buf, len, &pos, hex);
					} else {
						ft_buf_putc(buf, len, &pos, (char)*s);
					}
				}
			}
			ft_buf_putc(buf, len, &pos, '\'');
		}
	}
}

volatile sig_atomic_t ft_stop_sig;
static volatile pid_t ft_child_pid;

static void ft_on_signal(int sig, siginfo_t *si, void *uctx)
{
	(void)uctx;
	ft_stop_sig = sig;
	/* forward signals sent with kill(); tty signals reach the child anyway */
	if (ft_child_pid > 0 && si && si->si_code <= 0)
		kill(ft_child_pid, sig);
}

void ft_install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ft_on_signal;
	sa.sa_flags = SA_SIGINFO;	/* no SA_RESTART: waitpid sees EINTR */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int ft_run_child(char **cmd, int out_fd, int *status, double *wall,
		 struct rusage *ru)
{
	int pipefd[2], child_err = 0, ret;
	double t0;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return ft_runtime_error(errno, "pipe: %s", strerror(errno));
	fflush(NULL);
	t0 = ft_now();
	pid = fork();
	if (pid < 0) {
		ret = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return ft_runtime_error(ret, "fork: %s", strerror(ret));
	}
	if (pid == 0) {
		int e;

		close(pipefd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (out_fd >= 0)
			dup2(out_fd, STDOUT_FILENO);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(pipefd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	ft_child_pid = pid;
	if (ft_stop_sig)
		kill(pid, ft_stop_sig);
	close(pipefd[1]);
	do {
		n = read(pipefd[0], &child_err, sizeof(child_err));
	} while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	while (wait4(pid, status, 0, ru) < 0) {
		if (errno != EINTR) {
			ret = errno;
			ft_child_pid = 0;
			return ft_runtime_error(ret, "waitpid: %s", strerror(ret));
		}
	}
	*wall = ft_now() - t0;
	ft_child_pid = 0;
	if (n == (ssize_t)sizeof(child_err))
		return ft_runtime_error(child_err, "cannot run %s: %s", cmd[0],
					strerror(child_err));
	return 0;
}
