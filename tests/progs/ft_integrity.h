/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ft_integrity.h - what the parts of ft_integrity share: ft_integrity.c
 * (the driver: options, the loop over cases and reclaim sources, the case
 * process, reporting), ft_integrity_cases.c (the cases and their table)
 * and ft_integrity_lib.c (what the cases are made of).
 */
#ifndef FT_INTEGRITY_H
#define FT_INTEGRITY_H

#include "ft_common.h"
#include "foliotune.h"

#include <sys/mman.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

/* ---- case table ------------------------------------------------------ */

enum src { SRC_PAGEOUT, SRC_MEMCG, SRC_RECLAIM, NR_SRC };
extern const char *const src_name[NR_SRC];

enum kind { K_FILE, K_TMPFS, K_SHMEM, K_MEMFD, K_ANON };

#define F_PRIVATE	(1u << 0)	/* MAP_PRIVATE (file/tmpfs) */
#define F_DIRTY		(1u << 1)	/* write generation 2 into part of the range */
#define F_RA		(1u << 2)	/* raise read_ahead_kb, prime with read(2) */
#define F_THP		(1u << 3)	/* MADV_HUGEPAGE, VA = 2 MiB-aligned + 64 KiB */
#define F_PTE2M		(1u << 4)	/* order-9 folios PTE-mapped at 2 MiB-aligned VA */
#define F_ALIGNED	(1u << 5)	/* 2 MiB-aligned VA (PMD mapping possible) */
#define F_NEEDSWAP	(1u << 6)	/* reclaims anon/shmem: swap must be active */
#define F_SHARED_FOLIOS	(1u << 7)	/* folios mapped twice: MADV_PAGEOUT skips them */

/*
 * The folios a case must get: any order >= 2, order 9, exactly its mTHP
 * size; W_MMAP: what read faults with the default readahead give, order
 * >= 2 on 6.12 and order 0 on Linux 7 (its mmap read-around asks for
 * order 0: do_sync_mmap_readahead() sets ra->order = 0).
 */
enum want { W_NONE, W_LARGE, W_ORDER9, W_EXACT, W_MMAP };

struct ctx;

/* foliotune's counters (include/foliotune.h), as read from debugfs. */
struct ctrs {
	long long v[FT_NR_COUNTERS];
};

/*
 * What the run expects of try_to_unmap_one (-U): the arm of unmap_batch
 * (1 foliotune's batching, 0 the kernel's own code, 2 one PTE at a time),
 * the knob flipping during the run, or no foliotune at all (kernel state
 * only).  On 6.12 the kernel's own code is one PTE at a time: 0 expects
 * what 2 does.
 */
enum mode { M_AUTO, M_BATCH, M_NOBATCH, M_FLIP, M_STOCK, M_PTE };
extern const char *const mode_name[];

struct tcase {
	const char *name;
	enum kind kind;
	unsigned int flags;
	int (*fn)(struct ctx *c);
	enum want want;
	int mthp_kb;		/* anon/shmem mTHP size, 0 = untouched */
	int arg;
	const char *desc;
};

/* ---- shared state between driver, case process and helpers ---------- */

enum { ST_RUNNING, ST_PASS, ST_FAIL, ST_SKIP };

#define MAX_HELPERS 4

struct result {
	volatile int status;
	char reason[1536];
	char step[128];
	char helper_reason[MAX_HELPERS][768];
};

enum { UNLOCKED, LOCKED_WHOLE, LOCKED_PART };

struct seg {
	char *addr;
	size_t len;
	uint64_t off;		/* logical offset (file offset / region offset) */
	int locked;		/* LOCKED_WHOLE: whole folios inside, must stay mapped */
};

struct helper {
	pid_t pid;
	int up, down;		/* up: helper -> case process, down: reverse */
};

typedef int (*helper_fn)(struct ctx *c, int phase, int idx);

struct ctx {
	const struct tcase *tc;
	enum src src;
	size_t size;
	char name[192];
	uint64_t id;
	char path[640];		/* backing file for K_FILE / K_TMPFS */
	int fd;
	size_t file_len;
	uint8_t *st;		/* expected content seen through the mappings */
	uint8_t *disk;		/* expected content of the file */
	size_t npages;
	struct seg seg[8];
	int nseg;
	struct { void *addr; size_t len; } map[8];
	int nmap;
	size_t keep;		/* bytes of the range reclaim cannot take */
	bool skip_unmap_check;
	bool swap;
	char cg[640];
	struct result *res;
	int helper_idx;		/* >= 0 inside a helper process */
	struct helper helpers[MAX_HELPERS];
	int nhelpers;
	helper_fn hfn;
	int uffd;
	struct ft_vres vr;
	int (*post_verify)(struct ctx *c);
	struct ctrs *c0;	/* foliotune's counters before reclaim */
	bool split_order_ok;	/* case_split: the kernel split to order 2 */
};

struct options {
	const char *dir;
	const char *tmpbase;
	const char *ra_path;
	const char *ra_kb;
	const char *cgroot;
	size_t size;
	int timeout;
	bool allow_small;
	bool mapped_report_only;
	bool selftest;
	bool verbose;
	bool plan_only;
	const char *notifier;
	enum mode mode;
	unsigned int src_mask;
	const char *pats[64];
	int npats;
};

extern struct options opt;

/* ---- ft_integrity_lib.c --------------------------------------------- */

int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int skip(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void step(struct ctx *c, const char *s);
#define TRY(c, expr) do { if ((expr) < 0) return fail((c), "%s", ft_err); } while (0)

void touch_read(const char *p, size_t len);
void add_seg(struct ctx *c, char *addr, size_t len, uint64_t off, int locked);
int unmap_all(struct ctx *c);
char *map_backing(struct ctx *c, size_t len, uint64_t off, size_t shift, int madv);
void populate(struct ctx *c, char *p, size_t len, uint64_t off);
char *map_main(struct ctx *c, size_t len, uint64_t off);
void dirty_seg(struct ctx *c, const struct seg *s);
void dirty_all_segs(struct ctx *c);
int setup_backing(struct ctx *c);
int check_orders_range(struct ctx *c, const char *what, struct ft_orders *out);
int check_orders(struct ctx *c);
int helper_spawn(struct ctx *c, helper_fn fn);
int premise_start(struct ctx *c);
long rss_tol_kb(void);
int verify_segs(struct ctx *c, const char *what);
int finish(struct ctx *c);

/* ---- ft_integrity_cases.c ------------------------------------------- */

/* The cases the premise tells apart (case_expect()). */
int case_basic(struct ctx *c);
int case_mlock(struct ctx *c);
int case_uffd(struct ctx *c);
int case_truncate(struct ctx *c);
int case_split(struct ctx *c);
int case_lazyfree(struct ctx *c);

extern const struct tcase cases[];
extern const size_t nr_cases;

#endif /* FT_INTEGRITY_H */
