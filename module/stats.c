// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - per-cpu event counters, shown like /proc/vmstat.
 *
 * Writers use ft_count()/ft_add() (one this_cpu op, no atomics, no locks);
 * readers sum over all possible CPUs.  The output is "name value" lines in
 * the order of FOLIOTUNE_COUNTERS, so the file can be diffed like vmstat.
 */
#include <linux/cpumask.h>
#include <linux/seq_file.h>

#include "internal.h"

DEFINE_PER_CPU(struct foliotune_stats, foliotune_stats);

static const char * const ft_counter_names[FT_NR_COUNTERS] = {
	FOLIOTUNE_COUNTERS(FOLIOTUNE_NAME_STRING)
};

unsigned long foliotune_stat_sum(enum foliotune_counter item)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(foliotune_stats.events[item], cpu);
	return sum;
}

static int ft_vmstat_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < FT_NR_COUNTERS; i++) {
		seq_puts(m, ft_counter_names[i]);
		seq_put_decimal_ull(m, " ", foliotune_stat_sum(i));
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ft_vmstat);

void foliotune_stats_debugfs_init(struct dentry *dir)
{
	debugfs_create_file(FOLIOTUNE_VMSTAT_FILE, 0444, dir, NULL,
			    &ft_vmstat_fops);
}
