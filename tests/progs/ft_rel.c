// SPDX-License-Identifier: GPL-2.0
/*
 * ft_rel - workloads for foliotune's reliability suites
 * (the suites in tests/guest/reliability/).  Built on the host (make
 * progs), run as root in the test box.
 *
 *   ft_rel mapload DIR MB SECONDS
 *	Reclaim-heavy and verified: a MAP_SHARED xfs file (MADV_HUGEPAGE, so
 *	readahead makes large folios, mapped at 2M+64K so they are PTE-mapped)
 *	and an anon THP/mTHP region, touched, partly rewritten and
 *	MADV_PAGEOUTed in a loop; every page carries a generation stamp that
 *	must read back.  SIGTERM ends the loop early (the final check on
 *	disk still runs).  Exit 0 iff no mismatch.
 *
 *   ft_rel poison KIND DIR
 *	madvise(MADV_HWPOISON) one tail page of a large folio (file: xfs large
 *	folio; anon: THP/mTHP; hugetlb: MAP_HUGETLB or a hugetlbfs memfd),
 *	then check the kernel's answer: a clean file page is dropped and
 *	re-read from disk intact; an anon or hugetlb page raises SIGBUS on
 *	access; every other page keeps its contents.  KIND file-dirty (under
 *	writeback), file-pinned and anon-pinned (a vmsplice reference held)
 *	usually leave the folio unsplit (EHWPOISON, PG_has_hwpoisoned): it is
 *	then paged out, so that reclaim unmaps a large folio with a poisoned
 *	page.  Exit 0 iff all that holds.
 *
 *   ft_rel pin hugetlb|file|anon DIR SECONDS
 *	Pin pages of a compound folio while reclaim and poison run around
 *	them: O_DIRECT reads into and writes out of the buffer (short-term
 *	FOLL_PIN), vmsplice() into a pipe held across munmap and hole punch
 *	(FOLL_GET references outliving the mapping), io_uring fixed buffers
 *	(FOLL_LONGTERM) with READ_FIXED, a second mapping mapped and unmapped
 *	in a loop (mapcount churn), MADV_PAGEOUT of the buffer, and one
 *	MADV_HWPOISON of a page nobody pins.  Everything is released before
 *	exit; the caller then shrinks pools and compares counters.
 *
 *   ft_rel flip DIR [SECONDS [KNOB...]]
 *	Write a random valid value to every known knob in DIR (the debugfs
 *	directory; only the KNOBs named, if any), then sleep a random 10-100
 *	ms; repeat until SIGTERM or SECONDS (0: no limit).  Prints "flips N refused M rounds R mean_period_ms P" at the
 *	end; a refused valid write is a failure (exit 1).
 *
 *   ft_rel knobcheck FILE
 *	Every malformed, out-of-range, oversized, offset, continued and
 *	bad-pointer write to a knob, in one process: each must fail with
 *	EINVAL or ERANGE (EFAULT for the bad pointer) and leave the value
 *	unchanged.  One line per case that did not, then "knobcheck: N cases,
 *	A accepted, W wrong errno, C changed the value".  Exit 1 if any.
 *
 *   ft_rel hammer FILE SECONDS VALUE...
 *	Three processes write the valid VALUEs, three write malformed ones,
 *	two read, all at once for SECONDS.  A refused valid write, an accepted
 *	bad one, or a read that is not one of the VALUEs (or the value found
 *	at the start) is an error.  Prints "good E/N bad E/N read E/N"
 *	(errors/attempts); exit 1 if any error.
 *
 *   ft_rel rawio FILE
 *	Odd but legal I/O on a (debugfs) file, one result line each:
 *	"efault-write ERR" (write from an unmapped address), "efault-read ERR",
 *	"bytewise same|differs" (1-byte reads reassemble the same text as one
 *	big read), "eof-read N" (pread far past the end), "seek-read same|differs"
 *	(lseek back to 0 and re-read), "big-read N" (1 MiB buffer).
 *
 *   ft_rel hold FILE MS COUNT
 *	Open FILE, print "open", then pread() it every MS ms, COUNT times or
 *	until SIGTERM, printing "read N" or "read ERRNAME" per attempt; "close"
 *	at the end.
 *	Used to hold debugfs files open across disable + rmmod.
 *
 * One program, one file a group of subcommands: ft_rel_mapload.c,
 * ft_rel_poison.c, ft_rel_pin.c, ft_rel_knobs.c (flip, knobcheck, hammer,
 * rawio, hold).  This file holds main() and what they share (ft_rel.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ft_rel.h"

int failures;
volatile sig_atomic_t stop;	/* SIGTERM/SIGINT: finish and verify */

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

void die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* ---- SIGBUS: action-optional ones are counted, action-required ones
 * jump back to the probe that touched the page. */

static sigjmp_buf probe_env;
static volatile sig_atomic_t probing;
/* Set around madvise(MADV_HWPOISON): the kernel kills (SIGBUS, BUS_MCEERR_AR
 * for MF_ACTION_REQUIRED) the process that maps a poisoned dirty or anon
 * page on its way out of the system call; that signal is expected. */
volatile sig_atomic_t expect_mce;
atomic_int sigbus_ao, sigbus_ar, sigbus_inject;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig; (void)uc;
	if (expect_mce) {
		atomic_fetch_add(&sigbus_inject, 1);
		return;
	}
	if (si->si_code == BUS_MCEERR_AO) {
		atomic_fetch_add(&sigbus_ao, 1);
		return;
	}
	atomic_fetch_add(&sigbus_ar, 1);
	if (probing)
		siglongjmp(probe_env, 1);
	static const char m[] = "FAIL: unexpected SIGBUS\n";
	(void)!write(1, m, sizeof(m) - 1);
	_exit(3);
}

static void sigbus_install(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };

	sigaction(SIGBUS, &sa, NULL);
}

/* Read one word at p; returns 0 and *v, or -1 if the access raised SIGBUS. */
int probe_read(volatile uint64_t *p, uint64_t *v)
{
	if (sigsetjmp(probe_env, 1)) {
		probing = 0;
		return -1;
	}
	probing = 1;
	*v = *p;
	probing = 0;
	return 0;
}

/* ---- pagemap / kpageflags ---------------------------------------------- */

/* Order of the folio mapped at addr (0 if small or unmapped), found by
 * walking back to the head and forward over tails (within the mapping). */
int folio_order_at(char *base, size_t len, char *addr)
{
	uint64_t pfn = ft_pfn_of(addr), f = ft_kpageflags(pfn), n = 1;
	char *p;

	if (!(f & (1ULL << FT_KPF_COMPOUND_HEAD | 1ULL << FT_KPF_COMPOUND_TAIL)))
		return 0;
	while (f & (1ULL << FT_KPF_COMPOUND_TAIL) && addr > base) {
		addr -= FT_PAGE;
		if (ft_pfn_of(addr) != pfn - 1)
			break;
		pfn--;
		f = ft_kpageflags(pfn);
	}
	for (p = addr + FT_PAGE; p < base + len; p += FT_PAGE, n++)
		if (ft_pfn_of(p) != pfn + n ||
		    !(ft_kpageflags(pfn + n) & (1ULL << FT_KPF_COMPOUND_TAIL)))
			break;
	return __builtin_ctzll(n) == 63 ? 0 : 63 - __builtin_clzll(n);
}

/* Find a mapped tail page of a large folio in [p, p+len); NULL if none. */
char *find_tail(char *p, size_t len, size_t skip_from, size_t skip_len)
{
	for (size_t o = FT_PAGE; o < len; o += FT_PAGE) {
		if (o >= skip_from && o < skip_from + skip_len)
			continue;
		if (ft_kpageflags(ft_pfn_of(p + o)) & (1ULL << FT_KPF_COMPOUND_TAIL))
			return p + o;
	}
	return NULL;
}

/* ---- data --------------------------------------------------------------- */

static inline uint64_t stamp(uint64_t off, uint64_t gen)
{
	return (off * 0x9E3779B97F4A7C15ULL) ^ (gen << 48) ^ 0x5a5aULL;
}

void fill(char *buf, size_t len, uint64_t off0, uint64_t gen)
{
	for (size_t o = 0; o < len; o += FT_PAGE) {
		uint64_t *w = (uint64_t *)(buf + o);

		w[0] = stamp(off0 + o, gen);
		w[FT_PAGE / 8 - 1] = ~stamp(off0 + o, gen);
	}
}

int check_page(const char *p, uint64_t off, uint64_t gen)
{
	const uint64_t *w = (const uint64_t *)p;

	return w[0] == stamp(off, gen) && w[FT_PAGE / 8 - 1] == ~stamp(off, gen);
}

int make_file(const char *path, size_t len, uint64_t gen)
{
	char *buf = aligned_alloc(FT_PMD, FT_PMD);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || !buf)
		die(path);
	for (size_t o = 0; o < len; o += FT_PMD) {
		size_t n = len - o < FT_PMD ? len - o : FT_PMD;

		fill(buf, n, o, gen);
		if (pwrite(fd, buf, n, o) != (ssize_t)n)
			die("pwrite");
	}
	if (fsync(fd))
		die("fsync");
	posix_fadvise(fd, 0, len, POSIX_FADV_DONTNEED);
	free(buf);
	return fd;
}

/* A mapping of len bytes at 2M + skew (64K: large folios PTE-mapped). */
char *map_at_offset(size_t len, int prot, int flags, int fd, off_t off, size_t skew)
{
	char *p = ft_map_shifted(len, skew, prot, flags, fd, off);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigbus_install();
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	if (argc == 5 && !strcmp(argv[1], "mapload"))
		return cmd_mapload(argv[2], strtoul(argv[3], NULL, 0), atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "poison")) {
		if (!strncmp(argv[2], "file", 4))
			return poison_file(argv[3], argv[2]);
		if (!strncmp(argv[2], "anon", 4))
			return poison_anon(argv[2]);
		if (!strcmp(argv[2], "hugetlb"))
			return poison_hugetlb(false);
		if (!strcmp(argv[2], "hugetlb-shared"))
			return poison_hugetlb(true);
	}
	if (argc == 5 && !strcmp(argv[1], "pin") &&
	    (!strcmp(argv[2], "hugetlb") || !strcmp(argv[2], "file") || !strcmp(argv[2], "anon")))
		return cmd_pin(argv[2], argv[3], atoi(argv[4]));
	if (argc >= 3 && !strcmp(argv[1], "flip"))
		return cmd_flip(argv[2], argc >= 4 ? atoi(argv[3]) : 0,
				argc > 4 ? argc - 4 : 0, argv + 4);
	if (argc == 3 && !strcmp(argv[1], "knobcheck"))
		return cmd_knobcheck(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "hammer"))
		return cmd_hammer(argv[2], atoi(argv[3]), argc - 4, argv + 4);
	if (argc == 3 && !strcmp(argv[1], "rawio"))
		return cmd_rawio(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "hold"))
		return cmd_hold(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr,
		"usage: ft_rel mapload DIR MB SECONDS\n"
		"       ft_rel poison file|file-dirty|file-pinned|anon|anon-pinned|hugetlb|hugetlb-shared DIR\n"
		"       ft_rel pin hugetlb|file|anon DIR SECONDS\n"
		"       ft_rel flip DIR [SECONDS [KNOB...]]\n"
		"       ft_rel knobcheck FILE\n"
		"       ft_rel hammer FILE SECONDS VALUE...\n"
		"       ft_rel rawio FILE\n"
		"       ft_rel hold FILE MS COUNT\n");
	return 1;
}
