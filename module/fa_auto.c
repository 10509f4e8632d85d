// SPDX-License-Identifier: GPL-2.0
/*
 * fa_auto.c - the fault-around tuner's auto mode at work: every period it
 * samples its inputs, hands their deltas to fa_policy.c and applies what
 * that decides (the window, and the age of pre-mapped PTEs when it owns
 * fault_around_mkold); and the state file that shows it.  Its knobs, and
 * turning it on and off, are fa_tuner.c's (fa_auto.h: what both share).
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "kernel_syms.h"
#include "internal.h"
#include "fa_tuner.h"
#include "fa_auto.h"
#include "fa_policy.h"

#define FT_FA_AUTO_HIST		32	/* steps shown in fault_around_auto_state */

/* FT_IN_<input>: the auto mode's inputs (include/foliotune.h) */
#define FT_IN_ENUM(input, ...)						\
	FT_IN_##input,
enum ft_fa_input {
	FOLIOTUNE_FA_AUTO_INPUTS(FT_IN_ENUM, FT_IN_ENUM)
	FT_IN_NR
};
#undef FT_IN_ENUM

#define FT_IN_NAME(input, name)						\
	[FT_IN_##input] = #name,
static const char * const ft_fa_input_names[FT_IN_NR] = {
	FOLIOTUNE_FA_AUTO_INPUTS(FT_IN_NAME, FT_IN_NAME)
};
#undef FT_IN_NAME

/* The counter an input sums; FT_NR_COUNTERS: a kernel event (below). */
#define FT_IN_COUNTER(input, counter)					\
	[FT_IN_##input] = FT_##counter,
#define FT_IN_KERNEL(input, ...)					\
	[FT_IN_##input] = FT_NR_COUNTERS,
static const enum foliotune_counter ft_fa_input_counters[FT_IN_NR] = {
	FOLIOTUNE_FA_AUTO_INPUTS(FT_IN_COUNTER, FT_IN_KERNEL)
};
#undef FT_IN_COUNTER
#undef FT_IN_KERNEL

/*
 * The auto mode's steps: its inputs at the last one, their deltas over its
 * period, and the last FT_FA_AUTO_HIST steps.
 */
static struct {
	unsigned long last_step_ms;
	unsigned long prev[FT_IN_NR], delta[FT_IN_NR];
	/* the last FT_FA_AUTO_HIST steps, oldest first when printed */
	struct {
		unsigned long jiffies, from, to, faults, near, events;
		unsigned long used, unused;
		const char *decision;
		bool old;
	} hist[FT_FA_AUTO_HIST];
	unsigned int hist_next;
} ft_fa_steps;

static unsigned long ft_fa_vm_events[NR_VM_EVENT_ITEMS];

static void ft_fa_auto_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ft_fa_auto_work, ft_fa_auto_work_fn);

static void ft_fa_auto_sample(unsigned long *v)
{
	unsigned long *ev = ft_fa_vm_events;
	int i, zid;

	for (i = 0; i < FT_IN_NR; i++)
		if (ft_fa_input_counters[i] != FT_NR_COUNTERS)
			v[i] = foliotune_stat_sum(ft_fa_input_counters[i]);

	all_vm_events(ev);
	v[FT_IN_pgscan_file] = ev[PGSCAN_FILE];
	v[FT_IN_pgsteal_file] = ev[PGSTEAL_FILE];
	v[FT_IN_allocstall] = 0;
	/* vmstat.h __count_zid_vm_events(): one ALLOCSTALL item per zone */
	for (zid = 0; zid < MAX_NR_ZONES; zid++)
		v[FT_IN_allocstall] += ev[ALLOCSTALL_NORMAL - ZONE_NORMAL + zid];
	v[FT_IN_refault_file] = global_node_page_state(WORKINGSET_REFAULT_FILE);
}

static void ft_fa_auto_record(unsigned long from, unsigned long to,
			       const struct foliotune_fa_period *in)
{
	unsigned int i = ft_fa_steps.hist_next++ % FT_FA_AUTO_HIST;

	ft_fa_steps.hist[i].jiffies = jiffies;
	ft_fa_steps.hist[i].from = from;
	ft_fa_steps.hist[i].to = to;
	ft_fa_steps.hist[i].faults = in->faults;
	ft_fa_steps.hist[i].near = in->near;
	ft_fa_steps.hist[i].events = ft_fa_steps.delta[FT_IN_events];
	ft_fa_steps.hist[i].used = in->used;
	ft_fa_steps.hist[i].unused = in->unused;
	ft_fa_steps.hist[i].decision = foliotune_fa_auto.policy.decision;
	ft_fa_steps.hist[i].old = foliotune_fa_auto.policy.old;
}

/*
 * The policy's clock: milliseconds of the 64-bit jiffies.  Not
 * jiffies_to_msecs(jiffies), an unsigned int that wraps 300 s after boot
 * (INITIAL_JIFFIES) and every 49.7 days: differences across that wrap came
 * out near 2^64 in an unsigned long.
 */
static unsigned long ft_fa_clock_ms(void)
{
	return jiffies64_to_msecs(get_jiffies_64());
}

static void ft_fa_auto_step_locked(void)
{
	unsigned long now[FT_IN_NR], *d = ft_fa_steps.delta;
	unsigned long pages = READ_ONCE(fault_around_pages), target;
	unsigned long now_ms = ft_fa_clock_ms();
	struct foliotune_fa_policy *p = &foliotune_fa_auto.policy;
	struct foliotune_fa_period in;
	bool old;
	int i;

	ft_fa_auto_sample(now);
	for (i = 0; i < FT_IN_NR; i++) {
		d[i] = now[i] - ft_fa_steps.prev[i];
		ft_fa_steps.prev[i] = now[i];
	}
	in = (struct foliotune_fa_period) {
		/* exec faults are not judged: see fa_policy.c */
		.faults = foliotune_fa_judged_faults(d[FT_IN_faults],
						     d[FT_IN_exec]),
		.near = d[FT_IN_near],
		.used = d[FT_IN_sample_used],
		.unused = d[FT_IN_sample_unused],
		.mapped = d[FT_IN_mapped],
		.beyond = d[FT_IN_beyond],
		.allocstall = d[FT_IN_allocstall],
		.refault_file = d[FT_IN_refault_file],
		.pgsteal_file = d[FT_IN_pgsteal_file],
		.now_ms = now_ms,
		.len_ms = now_ms - ft_fa_steps.last_step_ms,
	};
	ft_fa_steps.last_step_ms = now_ms;

	target = foliotune_fa_policy_window(p, pages,
					    foliotune_fa_auto.max_pages,
					    foliotune_fa_auto.period_ms, &in);
	if (target != pages) {
		foliotune_fa_store_locked(target);
		ft_count(FT_fa_auto_changes);
	}
	if (foliotune_fa_auto.age_live) {
		old = p->old;
		if (foliotune_fa_policy_age(p, foliotune_fa_auto.period_ms,
					    &in) != old) {
			WRITE_ONCE(foliotune_fa_mkold, p->old ? 2 : 0);
			ft_count(FT_fa_auto_age_changes);
		}
	}
	ft_fa_auto_record(pages, target, &in);
}

/* When the policy wants the next step, in jiffies from now. */
static unsigned long ft_fa_auto_next(void)
{
	const struct foliotune_fa_auto *a = &foliotune_fa_auto;

	return msecs_to_jiffies(foliotune_fa_policy_next_ms(&a->policy,
							    a->period_ms));
}

static void ft_fa_auto_work_fn(struct work_struct *work)
{
	mutex_lock(&foliotune_fa_lock);
	if (foliotune_fa_live && foliotune_fa_auto.on) {
		ft_fa_auto_step_locked();
		queue_delayed_work(system_wq, &ft_fa_auto_work,
				   ft_fa_auto_next());
	}
	mutex_unlock(&foliotune_fa_lock);
}

static int ft_fa_auto_state_show(struct seq_file *m, void *unused)
{
	const struct foliotune_fa_policy *p = &foliotune_fa_auto.policy;
	int i;

	mutex_lock(&foliotune_fa_lock);
	seq_printf(m, "auto %d\n", foliotune_fa_auto.on);
	seq_printf(m, "fault_around_bytes %lu\n",
		   READ_ONCE(fault_around_pages) << PAGE_SHIFT);
	seq_printf(m, "max_bytes %lu\n",
		   foliotune_fa_auto.max_pages << PAGE_SHIFT);
	seq_printf(m, "period_ms %u\n", foliotune_fa_auto.period_ms);
	seq_printf(m, "steps %lu\n", p->steps);
	seq_printf(m, "changes %lu\n", p->changes);
	seq_printf(m, "backoff_periods %lu\n", p->backoff);
	seq_printf(m, "settled %d\n", p->settled);
	seq_printf(m, "decision %s\n", p->decision);
	seq_printf(m, "reason %s\n", p->reason);
	seq_printf(m, "age %d\n", foliotune_fa_auto.age);
	seq_printf(m, "age_mkold %d\n", READ_ONCE(foliotune_fa_mkold));
	seq_printf(m, "age_old %d\n", p->old);
	seq_printf(m, "age_changes %lu\n", p->age_changes);
	seq_printf(m, "age_quiet_ms %lu\n", p->quiet_ms);
	seq_printf(m, "age_decision %s\n", p->age_decision);
	seq_printf(m, "age_reason %s\n", p->age_reason);
	seq_printf(m, "age_last_change %s\n", p->age_change_reason);
	for (i = 0; i < FT_IN_NR; i++)
		seq_printf(m, "input %s %lu\n", ft_fa_input_names[i],
			   ft_fa_steps.delta[i]);
	/*
	 * "step MS_AGO FROM_BYTES TO_BYTES DECISION FAULTS NEAR EVENTS USED
	 * UNUSED OLD"; FAULTS: the ones judged (fa_read_faults less _exec)
	 */
	for (i = 0; i < FT_FA_AUTO_HIST; i++) {
		unsigned int h = ft_fa_steps.hist_next - FT_FA_AUTO_HIST + i;

		if ((int)h < 0 || !ft_fa_steps.hist[h % FT_FA_AUTO_HIST].decision)
			continue;
		h %= FT_FA_AUTO_HIST;
		seq_printf(m, "step %u %lu %lu %s %lu %lu %lu %lu %lu %d\n",
			   jiffies_to_msecs(jiffies - ft_fa_steps.hist[h].jiffies),
			   ft_fa_steps.hist[h].from << PAGE_SHIFT,
			   ft_fa_steps.hist[h].to << PAGE_SHIFT,
			   ft_fa_steps.hist[h].decision, ft_fa_steps.hist[h].faults,
			   ft_fa_steps.hist[h].near, ft_fa_steps.hist[h].events,
			   ft_fa_steps.hist[h].used, ft_fa_steps.hist[h].unused,
			   ft_fa_steps.hist[h].old);
	}
	mutex_unlock(&foliotune_fa_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ft_fa_auto_state);

/* Turned on: the first period's inputs are measured from now. */
void foliotune_fa_auto_begin_locked(void)
{
	lockdep_assert_held(&foliotune_fa_lock);
	ft_fa_auto_sample(ft_fa_steps.prev);
	memset(ft_fa_steps.delta, 0, sizeof(ft_fa_steps.delta));
	ft_fa_steps.last_step_ms = ft_fa_clock_ms();
}

/* The first (quick) step from now, even if the work was pending. */
void foliotune_fa_auto_schedule(void)
{
	mod_delayed_work(system_wq, &ft_fa_auto_work, ft_fa_auto_next());
}

void foliotune_fa_auto_cancel_sync(void)
{
	cancel_delayed_work_sync(&ft_fa_auto_work);
}

void foliotune_fa_debugfs_init(struct dentry *dir)
{
	debugfs_create_file(FOLIOTUNE_AUTO_STATE_FILE, 0444, dir, NULL,
			    &ft_fa_auto_state_fops);
}
