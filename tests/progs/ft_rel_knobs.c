// SPDX-License-Identifier: GPL-2.0
/*
 * ft_rel_knobs.c - the ft_rel subcommands that work a knob file rather
 * than memory: flip, knobcheck, hammer, rawio, hold (usage in ft_rel.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ft_rel.h"

/* ---- flip ------------------------------------------------------------------ */

int cmd_flip(const char *dir, int secs, int nonly, char **only)
{
	static const struct { const char *name; unsigned int kind; } knobs[] = {
		{ "unmap_batch", 3 }, { "fault_around_auto", 2 }, { "fault_around_mkold", 3 },
		{ "fault_around_bytes", 0 }, { "fault_around_auto_max_bytes", 0 },
		{ "reclaim_probes", 2 }, { "fault_around_auto_age", 2 },
		{ "referenced_batch", 3 },
	};
	unsigned long flips = 0, refused = 0, rounds = 0;
	double t0 = ft_now(), end = secs > 0 ? t0 + secs : 1e300;
	unsigned int seed = getpid() ^ (unsigned int)t0;

	while (!stop && ft_now() < end) {
		for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
			char path[4096], val[32];
			unsigned long v;
			int fd, n;

			if (nonly) {
				int found = 0;

				for (int j = 0; j < nonly; j++)
					found |= !strcmp(only[j], knobs[i].name);
				if (!found)
					continue;
			}
			snprintf(path, sizeof(path), "%s/%s", dir, knobs[i].name);
			fd = open(path, O_WRONLY);
			if (fd < 0)
				continue;	/* knob not provided by this module */
			v = knobs[i].kind ? (unsigned long)rand_r(&seed) % knobs[i].kind
					  : 4096UL << (rand_r(&seed) % 10);
			n = snprintf(val, sizeof(val), "%lu\n", v);
			if (write(fd, val, n) == n)
				flips++;
			else {
				refused++;
				printf("refused: %s <- %lu: %s\n", knobs[i].name, v, strerror(errno));
			}
			close(fd);
		}
		rounds++;
		usleep((10 + rand_r(&seed) % 91) * 1000);
	}
	printf("flips %lu refused %lu rounds %lu mean_period_ms %.1f\n", flips, refused, rounds,
	       rounds ? (ft_now() - t0) * 1000 / rounds : 0.0);
	return refused ? 1 : 0;
}

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

/* ---- knobcheck --------------------------------------------------------------- */

int cmd_knobcheck(const char *path)
{
	static const struct { const char *v; size_t len; } bad[] = {
#define B(s) { s, sizeof(s) - 1 }
		B(""), B(" "), B("\t"), B("\n"), B("\n\n"), B("\r\n"), B(" \n"), B("1\r"),
		B("1\r\n"), B("\t1"), B("1\t"), B("1 "), B(" 1"), B("1\n1"), B("-0"), B("+0"),
		B("-1"), B("--1"), B("+1"), B("0x0"), B("0X1"), B("0b1"), B("0o1"), B("01x"),
		B("1e0"), B("1."), B(".1"), B("1,0"), B("1_0"), B("\xd9\xa1"), B("\xef\xbc\x91"),
		B("1\0"), B("\0" "1"), B("\0"), B("\xff"), B("true"), B("yes"), B("on"), B("nan"),
		B("inf"), B("18446744073709551615"), B("18446744073709551616"),
		B("99999999999999999999"), B("999999999999999999999"), B("4294967296"),
		B("2147483648"), B("000000000000000000001\n"), B("1\n\0"),
#undef B
	};
	static char big[1 << 20];
	char v0[64], v[64], label[64];
	int cases = 0, accepted = 0, wrong = 0, changed = 0;
	size_t sizes[] = { 22, 4096, 65536, 1 << 20 };

	if (ft_read_file(path, v0, sizeof(v0)) < 0)
		die(path);
	/* One write at offset OFF; check errno and the value after it. */
#define TRY(name, buf, len, off, ok1, ok2) do {					\
		int fd_ = open(path, O_WRONLY), e_ = 0;				\
		ssize_t n_;							\
		if (fd_ < 0)							\
			die(path);						\
		if ((off) && lseek(fd_, (off), SEEK_SET) < 0)			\
			die("lseek");						\
		n_ = write(fd_, (buf), (len));					\
		e_ = errno;							\
		close(fd_);							\
		cases++;							\
		if (n_ >= 0) {							\
			accepted++;						\
			printf("accepted: %s (%zd bytes written)\n", (name), n_); \
		} else if (e_ != (ok1) && e_ != (ok2)) {			\
			wrong++;						\
			printf("wrong errno: %s: %s\n", (name), ename(e_));	\
		}								\
		if (ft_read_file(path, v, sizeof(v)) < 0 || strcmp(v, v0)) {	\
			changed++;						\
			printf("changed: %s: %s -> %s", (name), v0, v);		\
			(void)ft_write_file(path, v0);				\
		}								\
	} while (0)

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(label, sizeof(label), "value #%zu", i);
		TRY(label, bad[i].v, bad[i].len, 0, EINVAL, ERANGE);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(big, '0', sizes[i]);
		big[sizes[i] - 1] = '1';
		snprintf(label, sizeof(label), "%zu-byte number", sizes[i]);
		TRY(label, big, sizes[i], 0, EINVAL, ERANGE);
	}
	memset(big, ' ', 4096);
	memcpy(big, "1\n", 2);
	TRY("value + 4 KiB of spaces", big, 4096, 0, EINVAL, ERANGE);
	TRY("own value at offset 1", v0, strlen(v0), 1, EINVAL, EINVAL);
	TRY("own value at offset 4096", v0, strlen(v0), 4096, EINVAL, EINVAL);
	{
		char *unmapped = mmap(NULL, FT_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		TRY("write from an unmapped buffer", unmapped, 2, 0, EFAULT, EFAULT);
	}
	/* A continued write on one open file. */
	{
		int fd = open(path, O_WRONLY), e;
		ssize_t n1, n2;

		n1 = write(fd, v0, strlen(v0) - 1);	/* without the newline */
		n2 = write(fd, "0", 1);
		e = errno;
		close(fd);
		cases++;
		if (n1 < 0 || n2 >= 0 || e != EINVAL) {
			wrong++;
			printf("continued write: first %zd, second %zd (%s)\n", n1, n2, ename(e));
		}
		if (ft_read_file(path, v, sizeof(v)) < 0 || strcmp(v, v0)) {
			changed++;
			printf("changed: continued write: %s -> %s", v0, v);
			(void)ft_write_file(path, v0);
		}
	}
#undef TRY
	printf("knobcheck: %d cases, %d accepted, %d wrong errno, %d changed the value\n",
	       cases, accepted, wrong, changed);
	return accepted || wrong || changed;
}

/* ---- hammer ------------------------------------------------------------------ */

int cmd_hammer(const char *path, int secs, int nvals, char **vals)
{
	static const char *const bad[] = { "", "2x", "-1", " 1", "0x1", "1 1", "99999999999999999999999",
					   "\n\n", "abc", "1\t" };
	struct { long n, e; } *res;
	char v0[64];
	double end = ft_now() + secs;
	pid_t pids[8];
	long tot[3][2] = { { 0 } };

	if (ft_read_file(path, v0, sizeof(v0)) < 0)
		die(path);
	res = mmap(NULL, FT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	for (int w = 0; w < 8; w++) {
		pids[w] = fork();
		if (pids[w])
			continue;
		unsigned int seed = getpid();
		long n = 0, e = 0;

		while (ft_now() < end) {
			char buf[64];
			int fd;
			ssize_t r;

			if (w < 3) {		/* good writer */
				const char *v = vals[rand_r(&seed) % nvals];

				fd = open(path, O_WRONLY);
				r = write(fd, v, strlen(v));
				e += r != (ssize_t)strlen(v);
			} else if (w < 6) {	/* bad writer */
				const char *v = bad[rand_r(&seed) % (sizeof(bad) / sizeof(bad[0]))];

				fd = open(path, O_WRONLY);
				r = write(fd, v, strlen(v));
				e += !(r < 0 && (errno == EINVAL || errno == ERANGE));
			} else {		/* reader: "<one of the values>\n" */
				char *endp;
				unsigned long long got;
				int good;

				fd = open(path, O_RDONLY);
				r = read(fd, buf, sizeof(buf) - 1);
				buf[r > 0 ? r : 0] = '\0';
				errno = 0;
				got = strtoull(buf, &endp, 10);
				good = r > 1 && buf[0] >= '0' && buf[0] <= '9' && !errno &&
				       !strcmp(endp, "\n");
				if (good) {
					good = got == strtoull(v0, NULL, 10);
					for (int i = 0; i < nvals && !good; i++)
						good = got == strtoull(vals[i], NULL, 10);
				}
				e += !good;
			}
			close(fd);
			n++;
		}
		res[w].n = n;
		res[w].e = e;
		_exit(0);
	}
	for (int w = 0; w < 8; w++) {
		waitpid(pids[w], NULL, 0);
		tot[w < 3 ? 0 : w < 6 ? 1 : 2][0] += res[w].e;
		tot[w < 3 ? 0 : w < 6 ? 1 : 2][1] += res[w].n;
	}
	printf("good %ld/%ld bad %ld/%ld read %ld/%ld\n", tot[0][0], tot[0][1], tot[1][0], tot[1][1],
	       tot[2][0], tot[2][1]);
	return tot[0][0] || tot[1][0] || tot[2][0];
}

/* ---- rawio ----------------------------------------------------------------- */

int cmd_rawio(const char *path)
{
	char *bad = mmap(NULL, FT_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static char a[1 << 20], b[1 << 20];
	ssize_t na, nb, n;
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0)
		fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	n = write(fd, bad, 2);
	printf("efault-write %s\n", n < 0 ? ename(errno) : "OK");
	n = pread(fd, bad, 16, 0);
	printf("efault-read %s\n", n < 0 ? ename(errno) : "OK");
	na = pread(fd, a, sizeof(a), 0);
	nb = 0;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, b + nb, 1)) == 1 && nb < (ssize_t)sizeof(b) - 1)
		nb++;
	printf("bytewise %s\n", na >= 0 && na == nb && !memcmp(a, b, na) ? "same" : "differs");
	n = pread(fd, b, 16, 1LL << 40);
	printf("eof-read %zd\n", n);
	lseek(fd, 0, SEEK_SET);
	nb = read(fd, b, sizeof(b));
	printf("seek-read %s\n", nb == na && !memcmp(a, b, na) ? "same" : "differs");
	printf("big-read %zd\n", na);
	close(fd);
	return 0;
}

/* ---- hold ------------------------------------------------------------------ */

int cmd_hold(const char *path, int ms, int count)
{
	char buf[8192];
	int fd = open(path, O_RDONLY);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fd < 0) {
		printf("open %s\n", ename(errno));
		return 1;
	}
	printf("open\n");
	for (int i = 0; i < count && !stop; i++) {
		ssize_t n = pread(fd, buf, sizeof(buf), 0);

		if (n < 0)
			printf("read %s\n", ename(errno));
		else
			printf("read %zd\n", n);
		usleep(ms * 1000);
	}
	close(fd);
	printf("close\n");
	return 0;
}
