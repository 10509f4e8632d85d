/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_rel.h - what the files of ft_rel share: the failure count and stop
 * flag, the SIGBUS bookkeeping around poison, the page stamps, the folio
 * and mapping helpers (all in ft_rel.c), and the subcommands main() calls.
 *
 * The stamps are ft_rel's own (a word at each end of a page), not
 * ft_common's data pattern: the suites' checks were written against them.
 */
#ifndef FT_REL_H
#define FT_REL_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "ft_common.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MFD_HUGETLB
#define MFD_HUGETLB 4U
#endif
#ifndef BUS_MCEERR_AR
#define BUS_MCEERR_AR 4
#define BUS_MCEERR_AO 5
#endif

extern int failures;
extern volatile sig_atomic_t stop;

#define fail(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); failures++; } while (0)
#define note(...) do { printf(__VA_ARGS__); printf("\n"); fflush(stdout); } while (0)

void die(const char *what);

/* SIGBUS: set expect_mce around madvise(MADV_HWPOISON); probe_read()
 * returns -1 where reading the word raised SIGBUS. */
extern volatile sig_atomic_t expect_mce;
extern atomic_int sigbus_ao, sigbus_ar, sigbus_inject;
int probe_read(volatile uint64_t *p, uint64_t *v);

/* Folios, through pagemap + kpageflags. */
int folio_order_at(char *base, size_t len, char *addr);
char *find_tail(char *p, size_t len, size_t skip_from, size_t skip_len);

/* Page stamps, files and mappings that carry them. */
void fill(char *buf, size_t len, uint64_t off0, uint64_t gen);
int check_page(const char *p, uint64_t off, uint64_t gen);
int make_file(const char *path, size_t len, uint64_t gen);
char *map_at_offset(size_t len, int prot, int flags, int fd, off_t off, size_t skew);

/* The subcommands main() dispatches to. */
int cmd_mapload(const char *dir, size_t mb, int secs);			/* ft_rel_mapload.c */
int poison_file(const char *dir, const char *kind);			/* ft_rel_poison.c */
int poison_anon(const char *kind);
int poison_hugetlb(bool shared);
int cmd_pin(const char *kind, const char *dir, int secs);		/* ft_rel_pin.c */
int cmd_flip(const char *dir, int secs, int nonly, char **only);	/* ft_rel_knobs.c */
int cmd_knobcheck(const char *path);
int cmd_hammer(const char *path, int secs, int nvals, char **vals);
int cmd_rawio(const char *path);
int cmd_hold(const char *path, int ms, int count);

#endif /* FT_REL_H */
