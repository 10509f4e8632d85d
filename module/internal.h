/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - what the parts of foliotune.ko share with each other.
 */
#ifndef FOLIOTUNE_INTERNAL_H
#define FOLIOTUNE_INTERNAL_H

#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/debugfs.h>

#include "foliotune.h"

/*
 * The kernel generation the module is built for: Linux 6.12 or Linux 7
 * (7.2, 7.3), whose copied code (module/kcopy/patches.list), non-exported
 * symbols (kernel_syms.h) and run decisions differ.  FT_KERNEL_XY is the
 * build's upstream X.Y as X * 100 + Y (Kbuild, from the kernel's own
 * Makefile), so that klp-symbols.list's "<7.3" reads "#if !FT_LINUX7_3".
 */
#define FT_LINUX7	(FT_KERNEL_XY >= 700)
#define FT_LINUX7_3	(FT_KERNEL_XY >= 703)

/* stats.c: per-cpu event counters, vmstat style (summed on read). */
struct foliotune_stats {
	unsigned long events[FT_NR_COUNTERS];
};
DECLARE_PER_CPU(struct foliotune_stats, foliotune_stats);

static inline void ft_count(enum foliotune_counter item)
{
	this_cpu_inc(foliotune_stats.events[item]);
}

static inline void ft_add(enum foliotune_counter item, long delta)
{
	this_cpu_add(foliotune_stats.events[item], delta);
}

unsigned long foliotune_stat_sum(enum foliotune_counter item);
void foliotune_stats_debugfs_init(struct dentry *dir);

/*
 * knobs.c: a 0600 debugfs file holding one unsigned decimal in [min, max].
 * get/set are this module's own functions; set runs under knob->lock and
 * may refuse a value with an errno (the value then stays unchanged).
 *
 * Every knob of include/foliotune.h's FOLIOTUNE_KNOBS is a struct ft_knob
 * named foliotune_knob_NAME, defined by the file that owns it; knobs.c
 * names its debugfs file from the header.  A knob added to the header that
 * no file defines fails the module's link (modpost: undefined).
 */
struct ft_knob {
	u64 min, max;
	u64 (*get)(struct ft_knob *knob);
	int (*set)(struct ft_knob *knob, u64 val);
	struct mutex lock;
};
#define FT_KNOB_DECLARE(name, ...)	foliotune_knob_##name,
extern struct ft_knob FOLIOTUNE_KNOBS(FT_KNOB_DECLARE) foliotune_knob_end_of_list;
#undef FT_KNOB_DECLARE
void foliotune_knobs_debugfs_init(struct dentry *dir);
int foliotune_knob_parse(const char *s, size_t len, u64 *val);

/*
 * FT_KNOB_VAR(name, var): foliotune_knob_NAME for a knob that is the plain
 * int @var, read and written whole (READ_ONCE, WRITE_ONCE), its range the
 * header's (knobs.c refuses the values outside it).
 */
#define FT_KNOB_VAR(name, var)						\
static u64 ft_##name##_get(struct ft_knob *knob)			\
{									\
	return READ_ONCE(var);						\
}									\
static int ft_##name##_set(struct ft_knob *knob, u64 val)		\
{									\
	WRITE_ONCE(var, val);						\
	return 0;							\
}									\
struct ft_knob foliotune_knob_##name = {				\
	.min = FT_KNOB_MIN_##name,					\
	.max = FT_KNOB_MAX_##name,					\
	.get = ft_##name##_get,						\
	.set = ft_##name##_set,						\
}

/* reclaim_probes.c: pgpgoutclean, pageref_* (knob reclaim_probes). */
int foliotune_reclaim_probes_init(void);
void foliotune_reclaim_probes_exit(void);

/* build_check.c: refuse any kernel build we were not verified against. */
int foliotune_check_kernel_build(void);
void foliotune_build_debugfs_init(struct dentry *dir);

/* livepatch.c: the functions we replace, checked, then patched. */
int foliotune_livepatch_verify(void);
int foliotune_livepatch_enable(void);

#endif /* FOLIOTUNE_INTERNAL_H */
