/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ft_common.h - helpers shared by the foliotune test programs
 * (tests/progs/).
 *
 * One header for four files, each named after its job:
 *   ft_common.c   TAP-ish output, an error buffer that always carries
 *                 errno, a cleanup registry (sysfs knobs, mounts, cgroups,
 *                 files) that runs on every exit path (atexit + fatal
 *                 signals), files and knobs, /proc readers, time;
 *   ft_cgroup.c   cgroup v2 helpers;
 *   ft_pattern.c  the data pattern: fill and verify;
 *   ft_folios.c   the pagemap + kpageflags folio-order scanner, and the
 *                 mappings and mounts that place folios.
 * Each section below names its file.
 *
 * Plain C11 + POSIX/Linux; x86-64 page and PMD sizes are assumed
 * (4 KiB / 2 MiB), which is what the Debian 6.12 amd64 guest uses.
 */
#ifndef FT_COMMON_H
#define FT_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FT_PAGE		4096UL
#define FT_PMD		(2UL << 20)
#define FT_PMD_PAGES	(FT_PMD / FT_PAGE)
#define FT_MB		(1UL << 20)
#define FT_ERRLEN	1024

#define FT_ALIGN_UP(x, a)	(((x) + (a) - 1) & ~((uintptr_t)(a) - 1))
#define FT_ALIGN_DOWN(x, a)	((x) & ~((uintptr_t)(a) - 1))
#define FT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- error buffer (ft_common.c) ---------------------------------------- */

/* Last error text.  Functions that fail return -1 and fill it. */
extern char ft_err[FT_ERRLEN];
/* Set ft_err; the _errno variant appends ": strerror (errno N)". */
void ft_seterr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ft_seterr_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- TAP-ish output (ft_common.c) -------------------------------------- */

void tap_ok(const char *name);
void tap_not_ok(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_skip(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan "1..N" before the first result. */
void tap_plan(int n);
/* Prints "PROG: N passed, N failed, N skipped" (and "1..N" if no plan was
 * printed); returns the process exit code (0 iff nothing failed and the
 * number of results matched the plan). */
int tap_finish(const char *prog);
int tap_failed(void);

/* ---- cleanup registry (ft_common.c) ------------------------------------ */

enum ft_cl_kind {
	FT_CL_KNOB,	/* write val back to path */
	FT_CL_UMOUNT,	/* umount path (lazy if busy) */
	FT_CL_RMDIR,	/* rmdir path */
	FT_CL_UNLINK,	/* unlink path */
	FT_CL_CGROUP,	/* rmdir cgroup path, cgroup.kill + retry if busy */
	FT_CL_CGMOVE,	/* write own pid to path (a cgroup.procs file) */
	FT_CL_SWAPOFF,	/* not used by the programs; reserved */
};

/* Register an undo action; returns its index or -1 (registry full). */
int ft_cl_push(int kind, const char *path, const char *val);
/* Current depth; ft_cl_run_to(mark) undoes everything pushed since. */
int ft_cl_mark(void);
/* Runs the actions above mark in reverse order; returns how many failed
 * (each failure is printed as a "# cleanup: ..." line). */
int ft_cl_run_to(int mark);
/* atexit + SIGINT/TERM/HUP/QUIT/SEGV/BUS/ABRT/ALRM handlers in this
 * process; only the installing process ever runs the actions. */
void ft_cl_install(void);
/* Process group killed (SIGKILL) by the fatal-signal handler. */
void ft_cl_set_victim(pid_t pgid);
/* Call first thing in a forked child: default signals, no cleanup. */
void ft_cl_child(void);

/* ---- files and sysfs knobs (ft_common.c) ------------------------------- */

/* Reads up to n-1 bytes, NUL-terminates; returns length or -1. */
int ft_read_file(const char *path, char *buf, size_t n);
int ft_write_file(const char *path, const char *val);
/* The selected word of "a [b] c" files, or the trimmed content. */
int ft_knob_get(const char *path, char *val, size_t n);
/* Saves the current value (first time only) with an undo action, then
 * writes val and reads it back. */
int ft_knob_set(const char *path, const char *val);
bool ft_exists(const char *path);
/* The running kernel is Linux 7 or later (tests/lib.sh's ft_linux7). */
bool ft_linux7(void);

/* ---- cgroup v2 (ft_cgroup.c) ------------------------------------------- */

/* Checks that root is a cgroup2 mount offering the memory controller and
 * enables it in root/cgroup.subtree_control (undo registered). */
int ft_cg_prepare_root(const char *root);
/* mkdir root/name (undo: remove it); out receives the path. */
int ft_cg_create(const char *root, const char *name, char *out, size_t n);
/* Moves the calling process into cg. */
int ft_cg_enter(const char *cg);
/* Registers an undo that moves the caller back to its current cgroup. */
int ft_cg_register_return(const char *root);
int ft_cg_write(const char *cg, const char *file, const char *val);
/* Single number (or "max" -> INT64_MAX); -1 on error. */
long long ft_cg_read(const char *cg, const char *file);
/* "key value" line of a flat-keyed file; -1 on error or missing key. */
long long ft_cg_key(const char *cg, const char *file, const char *key);

/* ---- /proc readers and time (ft_common.c) ------------------------------ */

/* The number after key (then spaces, tabs or ':') at a line start of buf,
 * as in /proc/self/status, /proc/vmstat or memory.stat; -1 if missing. */
long long ft_key_in(const char *buf, const char *key);
long ft_status_kb(const char *key);	/* /proc/self/status, -1 if missing */
long ft_vmstat(const char *key);	/* /proc/vmstat, -1 if missing */
void ft_vmstat_refresh(void);		/* fold per-cpu diffs (root) */
long ft_swap_total_kb(void);		/* 0 = no swap active */
/* Field (kB) of the VMA that contains addr, from /proc/self/smaps. */
long ft_smaps_kb(const void *addr, const char *field);
int ft_drop_caches(void);
uint64_t ft_now_ns(void);
double ft_now(void);			/* CLOCK_MONOTONIC seconds */
int ft_nproc(void);

/* ---- data pattern (ft_pattern.c; the word formula inline here) --------- */

static inline uint64_t ft_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* 64-bit word at byte offset off (8-aligned) of object id, generation gen
 * (gen 0 means "all zero"). */
static inline uint64_t ft_pat(uint64_t id, unsigned int gen, uint64_t off)
{
	if (!gen)
		return 0;
	return ft_mix64((id * 0x100000001b3ULL) ^ ((uint64_t)gen << 58) ^ (off >> 3));
}

void ft_fill(void *p, size_t len, uint64_t id, unsigned int gen, uint64_t off0);

/* Per-page expectation: low bits = generation, FT_ST_ZERO_OK = an all-zero
 * page is accepted too (MADV_FREE'd memory). */
#define FT_ST_GEN	0x0f
#define FT_ST_ZERO_OK	0x10

struct ft_vres {
	size_t pages;
	size_t zero_pages;	/* all-zero pages accepted via FT_ST_ZERO_OK */
};

/* Verifies len bytes at p holding logical offsets [off0, off0+len);
 * st[] is indexed by logical page number (off / FT_PAGE).  On mismatch
 * fills ft_err with the first mismatching offset and returns -1. */
int ft_verify_mem(const void *p, size_t len, uint64_t off0, uint64_t id,
		  const uint8_t *st, struct ft_vres *vr, const char *what);
/* Same through pread(2). */
int ft_verify_fd(int fd, size_t len, uint64_t off0, uint64_t id,
		 const uint8_t *st, struct ft_vres *vr, const char *what);
/* Writes gen-1 content of [0,len) with write(2), then optionally fsync +
 * POSIX_FADV_DONTNEED so later faults decide the folio sizes. */
int ft_write_pattern_file(int fd, size_t len, uint64_t id, bool drop);

/* ---- folio orders: pagemap + kpageflags (ft_folios.c) ------------------ */

#define FT_PM_PRESENT	(1ULL << 63)
#define FT_PM_SWAP	(1ULL << 62)
#define FT_PM_FILE	(1ULL << 61)
#define FT_PM_UFFD_WP	(1ULL << 57)
#define FT_PM_EXCL	(1ULL << 56)
#define FT_PM_PFN	((1ULL << 55) - 1)
/*
 * A swap-type entry's type is its low 5 bits.  Swap devices take the
 * lowest types, then 6.12 (include/linux/swap.h) puts hwpoison at
 * MAX_SWAPFILES, the three migration types after it, device entries after
 * those and PTE markers at 31.  Debian builds without DEVICE_PRIVATE:
 * MAX_SWAPFILES is 27, hwpoison 27, migration 28-30 (a folio compaction is
 * moving right now).
 */
#define FT_PM_SWAP_TYPE(e)	((unsigned int)((e) & 0x1f))
#define FT_PM_MIGRATING(e)	(((e) & FT_PM_SWAP) && FT_PM_SWAP_TYPE(e) >= 28 && \
				 FT_PM_SWAP_TYPE(e) <= 30)

#define FT_KPF_COMPOUND_HEAD	15
#define FT_KPF_COMPOUND_TAIL	16
#define FT_KPF_HUGE		17
#define FT_KPF_HWPOISON		19
#define FT_KPF_THP		22

struct ft_orders {
	unsigned long pages;		/* pages scanned */
	unsigned long present;		/* PTE/PMD present */
	unsigned long swapped;		/* swap (or migration) entries */
	unsigned long uffd_wp;		/* PM_UFFD_WP set */
	unsigned long hist[16];		/* distinct folios per order */
	unsigned long nfolios, thp;	/* distinct folios, of which KPF_THP */
	bool pfn_hidden;		/* present but PFN 0: not root */
	uint64_t *heads;		/* (pfn << 8) | order, deduplicated later */
	size_t nheads, cap;
};

void ft_orders_init(struct ft_orders *o);
/* Adds [addr, addr+len) to o; with folios=false only the pagemap bits are
 * counted (cheap). */
int ft_orders_scan(struct ft_orders *o, const void *addr, size_t len, bool folios);
void ft_orders_done(struct ft_orders *o);	/* dedup heads -> hist */
void ft_orders_fmt(const struct ft_orders *o, char *buf, size_t n);
int ft_orders_max(const struct ft_orders *o);	/* -1 if none */
void ft_orders_free(struct ft_orders *o);
/* Reads the pagemap entries of [addr, addr+len) into out (len/FT_PAGE). */
int ft_pagemap(const void *addr, size_t len, uint64_t *out);
/* One page at a time, for walks (the files stay open): the PFN mapped at
 * addr and a PFN's kpageflags; 0 if not present, hidden or unreadable. */
uint64_t ft_pfn_of(const void *addr);
uint64_t ft_kpageflags(uint64_t pfn);

/* ---- mappings and mounts (ft_folios.c) --------------------------------- */

/* mmap len bytes at an address congruent to shift modulo 2 MiB (shift is
 * page aligned, < 2 MiB).  Returns MAP_FAILED with ft_err on error. */
void *ft_map_shifted(size_t len, size_t shift, int prot, int flags, int fd, off_t off);
/* mkdir base/ft-tmpfs-<pid>-<n>, mount tmpfs with opts there (undo:
 * umount + rmdir).  out receives the mount point. */
int ft_mount_tmpfs(const char *base, const char *opts, char *out, size_t n);
/* Is path on a debugfs mount (statfs magic)? */
bool ft_is_debugfs(const char *path);

#endif /* FT_COMMON_H */
