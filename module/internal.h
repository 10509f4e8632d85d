/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - what the parts of foliotune.ko share with each other.
 */
#ifndef FOLIOTUNE_INTERNAL_H
#define FOLIOTUNE_INTERNAL_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/debugfs.h>

#include "foliotune.h"

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

/* build_check.c: refuse any kernel build we were not verified against. */
int foliotune_check_kernel_build(void);
void foliotune_build_debugfs_init(struct dentry *dir);

/* unmap.c: the batched try_to_unmap_one (livepatch replacement). */
extern bool foliotune_unmap_batch;
void foliotune_unmap_debugfs_init(struct dentry *dir);

#endif /* FOLIOTUNE_INTERNAL_H */
