// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_spawn - process creation in the unixbench pattern, the cost side of
 * old pre-mapped PTEs (the 2016 revert of "make faultaround produce old
 * ptes" was for about 6% of unixbench's execl and shell scripts on x86).
 *
 *   ft_spawn [-t SECONDS] [-m execl|shell|both]
 *
 * Until SECONDS pass (default 10), fork and exec small dynamically linked
 * programs, one at a time, and wait for each: "execl" runs /bin/true,
 * "shell" runs /bin/sh -c with a short script of three commands (two of
 * them external), "both" alternates.  No memory pressure.  Prints
 * "spawns N seconds S ns_per_spawn X" (X: wall time per completed
 * fork+exec+exit+wait) and "failed N" for children that did not exit 0;
 * exit status 1 if any did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One fork+exec+wait; 0 if the child exited 0. */
static int spawn(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static char *const execl_argv[] = { "/bin/true", NULL };
	static char *const shell_argv[] = {
		"/bin/sh", "-c", "x=$(/bin/echo a); /bin/true; [ \"$x\" = a ]", NULL
	};
	const char *mode = "both";
	double secs = 10, t0, t;
	unsigned long n = 0, failed = 0;
	int opt;

	while ((opt = getopt(argc, argv, "t:m:")) != -1) {
		switch (opt) {
		case 't': secs = atof(optarg); break;
		case 'm': mode = optarg; break;
		default:
			fprintf(stderr, "usage: ft_spawn [-t SECONDS] [-m execl|shell|both]\n");
			return 2;
		}
	}
	if (strcmp(mode, "execl") && strcmp(mode, "shell") && strcmp(mode, "both")) {
		fprintf(stderr, "ft_spawn: unknown mode '%s'\n", mode);
		return 2;
	}
	t0 = now();
	do {
		int shell = !strcmp(mode, "shell") || (!strcmp(mode, "both") && (n & 1));

		if (spawn(shell ? shell_argv : execl_argv))
			failed++;
		n++;
		t = now();
	} while (t - t0 < secs);
	printf("spawns %lu seconds %.3f ns_per_spawn %.0f\n", n, t - t0, (t - t0) * 1e9 / n);
	printf("failed %lu\n", failed);
	return failed ? 1 : 0;
}
