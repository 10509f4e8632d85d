// SPDX-License-Identifier: GPL-2.0
/*
 * fa_tuner.c - the fault-around tuner's control side: its knobs, the
 * kernel's window, the auto mode's periodic step and state file, and the
 * livepatch callbacks that make all of it live.  The fault path that
 * applies the modes and counts is faultaround.c; the auto mode's
 * decisions are fa_policy.c.
 *
 * Knobs (debugfs, 0600, struct ft_knob; values are bytes unless noted):
 *   fault_around_bytes    the kernel's window.  Read: fault_around_pages
 *                         << PAGE_SHIFT, whoever set it.  Write: the rules
 *                         of mm/memory.c fault_around_bytes_set(): above
 *                         PTRS_PER_PTE pages EINVAL, below PAGE_SIZE
 *                         PAGE_SIZE, then rounddown_pow_of_two.  Writing it
 *                         turns fault_around_auto off.
 *   fault_around_mkold    0 stock; 1 PTEs in runs that do not contain the
 *                         faulting address are old (arm64's test, per run:
 *                         the faulting large folio's run stays young);
 *                         2 only the faulting PTE is young.
 *   fault_around_auto     0/1: the tuner below.  Turning it off puts back
 *                         the window it found when it was turned on.
 *   fault_around_auto_max_bytes   4K..2M, rules as fault_around_bytes
 *                         (default 64K): the largest window it picks.
 *   fault_around_auto_period_ms   100..60000 (default 1000).
 *   fault_around_auto_age 0/1: while the auto mode is on, it also decides
 *                         the age of pre-mapped PTEs (fa_policy.c): it
 *                         owns fault_around_mkold (2 under file reclaim
 *                         pressure, else 0) and gives back the value it
 *                         found when it stops; writing fault_around_mkold
 *                         turns this off.
 *   fault_around_auto_state       0444: current size, last decision, why,
 *                         the inputs of the last period, the last 32 steps.
 * The knobs change the kernel only while the tuner is live: from the
 * livepatch's pre_patch callback to its pre_unpatch (or post_unpatch, when
 * an enable is reverted).  Outside it writes fail with ENODEV.
 *
 * Restoring the kernel's window.  The value the kernel had at pre_patch is
 * put back when the tuner stops being live, that is when the patch is
 * disabled (echo 0 > .../enabled), not at rmmod: a disabled livepatch can
 * never be enabled again, so the module is dead from then on and nothing
 * may stay changed until somebody happens to rmmod it.  Module exit repeats
 * the (idempotent) teardown for the paths where no callback ran.  Only
 * foliotune's own change is undone: if fault_around_pages no longer holds
 * the value foliotune last wrote (root wrote /sys/kernel/debug/
 * fault_around_bytes meanwhile), that newer choice is left alone and
 * logged.  If the disable is reverted (echo 1 while it transitions), the
 * post_patch callback makes the tuner live again, with mkold 0 and auto
 * off.
 *
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/livepatch.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "kernel_syms.h"
#include "internal.h"
#include "fa_tuner.h"
#include "fa_policy.h"

/* ---- the modes the fault and unmap paths follow (fa_tuner.h) ---- */

int foliotune_fa_mkold __read_mostly = FT_KNOB_DEFAULT_fault_around_mkold;
bool foliotune_fa_sampling __read_mostly;
DEFINE_STATIC_KEY_FALSE(foliotune_fa_unmap_key);

/* ---- state shared by the knobs, the callbacks and the auto mode ---- */

/*
 * ft_fa_lock serialises every change of the tuner's state and of
 * fault_around_pages by foliotune.  Lock order: knob->lock, ft_fa_lock,
 * then cpus_read_lock (static keys, all_vm_events()).  The delayed work
 * takes ft_fa_lock, so it is never cancelled synchronously under it.
 */
static DEFINE_MUTEX(ft_fa_lock);
static bool ft_fa_live;			/* knobs may change the kernel */
static bool ft_fa_saved_valid;
static unsigned long ft_fa_saved_pages;	/* the kernel's value at pre_patch */
static unsigned long ft_fa_written;	/* what foliotune last wrote, 0: none */

#define FT_FA_AUTO_HIST		32	/* steps shown in fault_around_auto_state */

enum ft_fa_input {
	FT_IN_faults, FT_IN_near, FT_IN_events, FT_IN_mapped, FT_IN_mapped_old,
	FT_IN_unmap_young, FT_IN_unmap_old, FT_IN_pgscan_file,
	FT_IN_pgsteal_file, FT_IN_allocstall, FT_IN_refault_file,
	FT_IN_pgpgoutclean, FT_IN_sample_used, FT_IN_sample_unused,
	FT_IN_exec, FT_IN_beyond, FT_IN_NR
};

static const char * const ft_fa_input_names[FT_IN_NR] = {
	"fa_read_faults", "fa_read_faults_near", "fa_events", "fa_pages_mapped",
	"fa_pages_mapped_old", "fa_unmap_young_ptes", "fa_unmap_old_ptes",
	"pgscan_file", "pgsteal_file", "allocstall", "workingset_refault_file",
	"pgpgoutclean", "fa_sample_used", "fa_sample_unused",
	"fa_read_faults_exec", "fa_pages_beyond_window",
};

/* The auto mode: its knobs, what it measured, what fa_policy.c decided. */
static struct {
	bool on;
	bool age;			/* fault_around_auto_age */
	bool age_live;			/* on and age: it owns fault_around_mkold */
	int saved_mkold;		/* fault_around_mkold when age_live began */
	unsigned long max_pages;	/* fault_around_auto_max_bytes */
	unsigned int period_ms;		/* fault_around_auto_period_ms */
	unsigned long saved_pages;	/* window when it was turned on */
	unsigned long last_step_ms;
	struct foliotune_fa_policy policy;
	unsigned long prev[FT_IN_NR], delta[FT_IN_NR];
	/* the last FT_FA_AUTO_HIST steps, oldest first when printed */
	struct {
		unsigned long jiffies, from, to, faults, near, events;
		unsigned long used, unused;
		const char *decision;
		bool old;
	} hist[FT_FA_AUTO_HIST];
	unsigned int hist_next;
} ft_fa_auto = {
	.max_pages = FT_KNOB_DEFAULT_fault_around_auto_max_bytes >> PAGE_SHIFT,
	.period_ms = FT_KNOB_DEFAULT_fault_around_auto_period_ms,
	.policy = {
		.decision = "none",
		.reason = "never turned on",
		.age_decision = "none",
		.age_reason = "never turned on",
	},
};

static unsigned long ft_fa_vm_events[NR_VM_EVENT_ITEMS];

static void ft_fa_auto_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ft_fa_auto_work, ft_fa_auto_work_fn);

/* The range include/foliotune.h documents is what these rules accept. */
static_assert(PAGE_SIZE == FOLIOTUNE_FA_BYTES_MIN);
/* the auto mode starts off: a default of 1 would need a start at pre_patch */
static_assert(FT_KNOB_DEFAULT_fault_around_auto == 0);
static_assert(FT_KNOB_DEFAULT_fault_around_auto_age == 0);
static_assert(PTRS_PER_PTE * PAGE_SIZE == FOLIOTUNE_FA_BYTES_MAX);

/* The kernel's rules, mm/memory.c:5209-5222 fault_around_bytes_set(). */
static int ft_fa_bytes_to_pages(u64 val, unsigned long *pages)
{
	if (val / PAGE_SIZE > PTRS_PER_PTE)
		return -EINVAL;
	val = max_t(u64, val, PAGE_SIZE);
	*pages = rounddown_pow_of_two(val) >> PAGE_SHIFT;
	return 0;
}

static void ft_fa_store_locked(unsigned long pages)
{
	lockdep_assert_held(&ft_fa_lock);
	WRITE_ONCE(fault_around_pages, pages);
	ft_fa_written = pages;
}

/* Unmap counting is on while fault-around tuning is: mkold or auto. */
static void ft_fa_update_key_locked(void)
{
	bool want = ft_fa_live && (READ_ONCE(foliotune_fa_mkold) || ft_fa_auto.on);

	lockdep_assert_held(&ft_fa_lock);
	if (want && !static_key_enabled(&foliotune_fa_unmap_key))
		static_branch_enable(&foliotune_fa_unmap_key);
	else if (!want && static_key_enabled(&foliotune_fa_unmap_key))
		static_branch_disable(&foliotune_fa_unmap_key);
}

static __printf(2, 3) void ft_fa_auto_set_state(const char *decision,
						 const char *fmt, ...)
{
	struct foliotune_fa_policy *p = &ft_fa_auto.policy;
	va_list args;

	p->decision = decision;
	va_start(args, fmt);
	vscnprintf(p->reason, sizeof(p->reason), fmt, args);
	va_end(args);
}

/* The auto mode owns fault_around_mkold while it is on with the age knob. */
static void ft_fa_age_begin_locked(void)
{
	lockdep_assert_held(&ft_fa_lock);
	if (ft_fa_auto.age_live || !ft_fa_auto.on || !ft_fa_auto.age)
		return;
	ft_fa_auto.saved_mkold = READ_ONCE(foliotune_fa_mkold);
	ft_fa_auto.age_live = true;
	WRITE_ONCE(foliotune_fa_mkold, ft_fa_auto.policy.old ? 2 : 0);
}

/* ... and gives it back; @restore: the value it found. */
static void ft_fa_age_end_locked(bool restore)
{
	lockdep_assert_held(&ft_fa_lock);
	if (!ft_fa_auto.age_live)
		return;
	ft_fa_auto.age_live = false;
	if (restore)
		WRITE_ONCE(foliotune_fa_mkold, ft_fa_auto.saved_mkold);
}

/*
 * Stop the auto mode (the work sees !on and neither acts nor requeues).
 * @restore: put back the window (and age) it found when turned on.
 */
static void ft_fa_auto_stop_locked(bool restore, const char *why)
{
	lockdep_assert_held(&ft_fa_lock);
	if (!ft_fa_auto.on)
		return;
	ft_fa_age_end_locked(true);	/* root never chose this age */
	ft_fa_auto.on = false;
	WRITE_ONCE(foliotune_fa_sampling, false);
	if (restore) {
		ft_fa_store_locked(ft_fa_auto.saved_pages);
		ft_fa_auto_set_state("off", "%s: restored %lu bytes", why,
				     ft_fa_auto.saved_pages << PAGE_SHIFT);
	} else {
		ft_fa_auto_set_state("off", "%s", why);
	}
}

/* ---- the auto mode (its decisions: fa_policy.c) ---- */

static void ft_fa_auto_sample(unsigned long *v)
{
	unsigned long *ev = ft_fa_vm_events;
	int zid;

	v[FT_IN_faults] = foliotune_stat_sum(FT_fa_read_faults);
	v[FT_IN_near] = foliotune_stat_sum(FT_fa_read_faults_near);
	v[FT_IN_events] = foliotune_stat_sum(FT_fa_events);
	v[FT_IN_mapped] = foliotune_stat_sum(FT_fa_pages_mapped);
	v[FT_IN_mapped_old] = foliotune_stat_sum(FT_fa_pages_mapped_old);
	v[FT_IN_unmap_young] = foliotune_stat_sum(FT_fa_unmap_young_ptes);
	v[FT_IN_unmap_old] = foliotune_stat_sum(FT_fa_unmap_old_ptes);
	v[FT_IN_pgpgoutclean] = foliotune_stat_sum(FT_pgpgoutclean);
	v[FT_IN_sample_used] = foliotune_stat_sum(FT_fa_sample_used);
	v[FT_IN_sample_unused] = foliotune_stat_sum(FT_fa_sample_unused);
	v[FT_IN_exec] = foliotune_stat_sum(FT_fa_read_faults_exec);
	v[FT_IN_beyond] = foliotune_stat_sum(FT_fa_pages_beyond_window);

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
	unsigned int i = ft_fa_auto.hist_next++ % FT_FA_AUTO_HIST;

	ft_fa_auto.hist[i].jiffies = jiffies;
	ft_fa_auto.hist[i].from = from;
	ft_fa_auto.hist[i].to = to;
	ft_fa_auto.hist[i].faults = in->faults;
	ft_fa_auto.hist[i].near = in->near;
	ft_fa_auto.hist[i].events = ft_fa_auto.delta[FT_IN_events];
	ft_fa_auto.hist[i].used = in->used;
	ft_fa_auto.hist[i].unused = in->unused;
	ft_fa_auto.hist[i].decision = ft_fa_auto.policy.decision;
	ft_fa_auto.hist[i].old = ft_fa_auto.policy.old;
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
	unsigned long now[FT_IN_NR], *d = ft_fa_auto.delta;
	unsigned long pages = READ_ONCE(fault_around_pages), target;
	unsigned long now_ms = ft_fa_clock_ms();
	struct foliotune_fa_policy *p = &ft_fa_auto.policy;
	struct foliotune_fa_period in;
	bool old;
	int i;

	ft_fa_auto_sample(now);
	for (i = 0; i < FT_IN_NR; i++) {
		d[i] = now[i] - ft_fa_auto.prev[i];
		ft_fa_auto.prev[i] = now[i];
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
		.len_ms = now_ms - ft_fa_auto.last_step_ms,
	};
	ft_fa_auto.last_step_ms = now_ms;

	target = foliotune_fa_policy_window(p, pages, ft_fa_auto.max_pages,
					    ft_fa_auto.period_ms, &in);
	if (target != pages) {
		ft_fa_store_locked(target);
		ft_count(FT_fa_auto_changes);
	}
	if (ft_fa_auto.age_live) {
		old = p->old;
		if (foliotune_fa_policy_age(p, ft_fa_auto.period_ms, &in) != old) {
			WRITE_ONCE(foliotune_fa_mkold, p->old ? 2 : 0);
			ft_count(FT_fa_auto_age_changes);
		}
	}
	ft_fa_auto_record(pages, target, &in);
}

static void ft_fa_auto_work_fn(struct work_struct *work)
{
	mutex_lock(&ft_fa_lock);
	if (ft_fa_live && ft_fa_auto.on) {
		ft_fa_auto_step_locked();
		queue_delayed_work(system_wq, &ft_fa_auto_work,
				   msecs_to_jiffies(foliotune_fa_policy_next_ms(&ft_fa_auto.policy,
										ft_fa_auto.period_ms)));
	}
	mutex_unlock(&ft_fa_lock);
}

/* ---- knobs ---- */

/*
 * A fault-around knob changes the kernel only while the tuner is live:
 * ft_fa_knob_set() takes ft_fa_lock, refuses with ENODEV outside it, calls
 * the knob's set_locked() and turns unmap counting on or off to match.
 */
static int ft_fa_knob_set(int (*set_locked)(u64 val), u64 val)
{
	int ret = -ENODEV;

	mutex_lock(&ft_fa_lock);
	if (ft_fa_live) {
		ret = set_locked(val);
		ft_fa_update_key_locked();
	}
	mutex_unlock(&ft_fa_lock);
	return ret;
}

static u64 ft_fa_bytes_get(struct ft_knob *knob)
{
	return (u64)READ_ONCE(fault_around_pages) << PAGE_SHIFT;
}

static int ft_fa_bytes_set_locked(u64 val)
{
	unsigned long pages;
	int ret;

	ret = ft_fa_bytes_to_pages(val, &pages);
	if (ret)
		return ret;
	ft_fa_auto_stop_locked(false, "fault_around_bytes written");
	ft_fa_store_locked(pages);
	return 0;
}

static u64 ft_fa_mkold_get(struct ft_knob *knob)
{
	return READ_ONCE(foliotune_fa_mkold);
}

static int ft_fa_mkold_set_locked(u64 val)
{
	/* root's choice: the auto mode stops deciding the age */
	ft_fa_age_end_locked(false);
	ft_fa_auto.age = false;
	WRITE_ONCE(foliotune_fa_mkold, (int)val);
	return 0;
}

static u64 ft_fa_auto_get(struct ft_knob *knob)
{
	return READ_ONCE(ft_fa_auto.on);
}

static int ft_fa_auto_set_locked(u64 val)
{
	if (val && !ft_fa_auto.on) {
		ft_fa_auto.saved_pages = READ_ONCE(fault_around_pages);
		ft_fa_auto_sample(ft_fa_auto.prev);
		memset(ft_fa_auto.delta, 0, sizeof(ft_fa_auto.delta));
		ft_fa_auto.last_step_ms = ft_fa_clock_ms();
		/* the age starts young: the first pressure makes it old */
		foliotune_fa_policy_start(&ft_fa_auto.policy, false);
		ft_fa_auto.on = true;
		ft_fa_age_begin_locked();
		WRITE_ONCE(foliotune_fa_sampling, true);
		ft_fa_auto_set_state("start", "turned on at %lu bytes",
				     ft_fa_auto.saved_pages << PAGE_SHIFT);
		/* the first (quick) step from now, even if the work was pending */
		mod_delayed_work(system_wq, &ft_fa_auto_work,
				 msecs_to_jiffies(foliotune_fa_policy_next_ms(&ft_fa_auto.policy,
									      ft_fa_auto.period_ms)));
	} else if (!val) {
		ft_fa_auto_stop_locked(true, "turned off");
	}
	return 0;
}

static u64 ft_fa_auto_max_get(struct ft_knob *knob)
{
	return (u64)READ_ONCE(ft_fa_auto.max_pages) << PAGE_SHIFT;
}

static int ft_fa_auto_max_set_locked(u64 val)
{
	unsigned long pages;
	int ret;

	ret = ft_fa_bytes_to_pages(val, &pages);
	if (!ret)
		WRITE_ONCE(ft_fa_auto.max_pages, pages);	/* next period */
	return ret;
}

static u64 ft_fa_auto_period_get(struct ft_knob *knob)
{
	return READ_ONCE(ft_fa_auto.period_ms);
}

static int ft_fa_auto_period_set_locked(u64 val)
{
	WRITE_ONCE(ft_fa_auto.period_ms, (unsigned int)val); /* next requeue */
	return 0;
}

static u64 ft_fa_auto_age_get(struct ft_knob *knob)
{
	return READ_ONCE(ft_fa_auto.age);
}

static int ft_fa_auto_age_set_locked(u64 val)
{
	if (val) {
		ft_fa_auto.age = true;
		ft_fa_age_begin_locked();	/* now if the auto mode is on */
	} else {
		ft_fa_age_end_locked(true);
		ft_fa_auto.age = false;
	}
	return 0;
}

/*
 * foliotune_knob_NAME, whose writes go through ft_fa_knob_set(), in
 * [lo, hi]; FT_FA_KNOB: in the header's range.
 */
#define FT_FA_KNOB_RANGE(name, lo, hi, fn)				\
static int fn##_set(struct ft_knob *knob, u64 val)			\
{									\
	return ft_fa_knob_set(fn##_set_locked, val);			\
}									\
struct ft_knob foliotune_knob_##name = {				\
	.min = lo,							\
	.max = hi,							\
	.get = fn##_get,						\
	.set = fn##_set,						\
}
#define FT_FA_KNOB(name, fn)						\
	FT_FA_KNOB_RANGE(name, FT_KNOB_MIN_##name, FT_KNOB_MAX_##name, fn)

/*
 * The byte knobs take any value, not only the header's 4K..2M:
 * ft_fa_bytes_to_pages() applies the kernel's own rules, which round a
 * value below PAGE_SIZE up to it and refuse one above 2M with EINVAL
 * (after the ENODEV of a tuner that is not live).
 */
FT_FA_KNOB_RANGE(fault_around_bytes, 0, U64_MAX, ft_fa_bytes);
FT_FA_KNOB(fault_around_mkold, ft_fa_mkold);
FT_FA_KNOB(fault_around_auto, ft_fa_auto);
FT_FA_KNOB_RANGE(fault_around_auto_max_bytes, 0, U64_MAX, ft_fa_auto_max);
FT_FA_KNOB(fault_around_auto_period_ms, ft_fa_auto_period);
FT_FA_KNOB(fault_around_auto_age, ft_fa_auto_age);

static int ft_fa_auto_state_show(struct seq_file *m, void *unused)
{
	const struct foliotune_fa_policy *p = &ft_fa_auto.policy;
	int i;

	mutex_lock(&ft_fa_lock);
	seq_printf(m, "auto %d\n", ft_fa_auto.on);
	seq_printf(m, "fault_around_bytes %lu\n",
		   READ_ONCE(fault_around_pages) << PAGE_SHIFT);
	seq_printf(m, "max_bytes %lu\n", ft_fa_auto.max_pages << PAGE_SHIFT);
	seq_printf(m, "period_ms %u\n", ft_fa_auto.period_ms);
	seq_printf(m, "steps %lu\n", p->steps);
	seq_printf(m, "changes %lu\n", p->changes);
	seq_printf(m, "backoff_periods %lu\n", p->backoff);
	seq_printf(m, "settled %d\n", p->settled);
	seq_printf(m, "decision %s\n", p->decision);
	seq_printf(m, "reason %s\n", p->reason);
	seq_printf(m, "age %d\n", ft_fa_auto.age);
	seq_printf(m, "age_mkold %d\n", READ_ONCE(foliotune_fa_mkold));
	seq_printf(m, "age_old %d\n", p->old);
	seq_printf(m, "age_changes %lu\n", p->age_changes);
	seq_printf(m, "age_quiet_ms %lu\n", p->quiet_ms);
	seq_printf(m, "age_decision %s\n", p->age_decision);
	seq_printf(m, "age_reason %s\n", p->age_reason);
	seq_printf(m, "age_last_change %s\n", p->age_change_reason);
	for (i = 0; i < FT_IN_NR; i++)
		seq_printf(m, "input %s %lu\n", ft_fa_input_names[i],
			   ft_fa_auto.delta[i]);
	/*
	 * "step MS_AGO FROM_BYTES TO_BYTES DECISION FAULTS NEAR EVENTS USED
	 * UNUSED OLD"; FAULTS: the ones judged (fa_read_faults less _exec)
	 */
	for (i = 0; i < FT_FA_AUTO_HIST; i++) {
		unsigned int h = ft_fa_auto.hist_next - FT_FA_AUTO_HIST + i;

		if ((int)h < 0 || !ft_fa_auto.hist[h % FT_FA_AUTO_HIST].decision)
			continue;
		h %= FT_FA_AUTO_HIST;
		seq_printf(m, "step %u %lu %lu %s %lu %lu %lu %lu %lu %d\n",
			   jiffies_to_msecs(jiffies - ft_fa_auto.hist[h].jiffies),
			   ft_fa_auto.hist[h].from << PAGE_SHIFT,
			   ft_fa_auto.hist[h].to << PAGE_SHIFT,
			   ft_fa_auto.hist[h].decision, ft_fa_auto.hist[h].faults,
			   ft_fa_auto.hist[h].near, ft_fa_auto.hist[h].events,
			   ft_fa_auto.hist[h].used, ft_fa_auto.hist[h].unused,
			   ft_fa_auto.hist[h].old);
	}
	mutex_unlock(&ft_fa_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ft_fa_auto_state);

/* ---- lifecycle ---- */

/* Leave the live state: auto off, stock mode, foliotune's change undone. */
static void ft_fa_deactivate(void)
{
	unsigned long cur;

	mutex_lock(&ft_fa_lock);
	ft_fa_live = false;
	ft_fa_auto.on = false;
	ft_fa_auto.age_live = false;
	ft_fa_auto.age = false;
	WRITE_ONCE(foliotune_fa_sampling, false);
	WRITE_ONCE(foliotune_fa_mkold, 0);
	ft_fa_update_key_locked();
	mutex_unlock(&ft_fa_lock);

	cancel_delayed_work_sync(&ft_fa_auto_work);

	mutex_lock(&ft_fa_lock);
	if (ft_fa_saved_valid && ft_fa_written) {
		cur = READ_ONCE(fault_around_pages);
		if (cur == ft_fa_written) {
			WRITE_ONCE(fault_around_pages, ft_fa_saved_pages);
		} else {
			pr_info("fault_around_bytes was set to %lu outside foliotune: not restoring %lu\n",
				cur << PAGE_SHIFT,
				ft_fa_saved_pages << PAGE_SHIFT);
		}
		ft_fa_written = 0;
	}
	if (strcmp(ft_fa_auto.policy.decision, "none"))
		ft_fa_auto_set_state("off", "the livepatch was disabled");
	mutex_unlock(&ft_fa_lock);
}

int foliotune_fa_pre_patch(struct klp_object *obj)
{
	mutex_lock(&ft_fa_lock);
	if (!ft_fa_saved_valid) {
		ft_fa_saved_pages = READ_ONCE(fault_around_pages);
		ft_fa_saved_valid = true;
	}
	ft_fa_live = true;
	mutex_unlock(&ft_fa_lock);
	return 0;
}

/* Runs after every completed patch transition, also a reverted disable. */
void foliotune_fa_post_patch(struct klp_object *obj)
{
	mutex_lock(&ft_fa_lock);
	ft_fa_live = true;
	mutex_unlock(&ft_fa_lock);
}

void foliotune_fa_pre_unpatch(struct klp_object *obj)
{
	ft_fa_deactivate();
}

/* Also the only callback after pre_patch when an enable is reverted. */
void foliotune_fa_post_unpatch(struct klp_object *obj)
{
	ft_fa_deactivate();
}

void foliotune_fa_debugfs_init(struct dentry *dir)
{
	debugfs_create_file(FOLIOTUNE_AUTO_STATE_FILE, 0444, dir, NULL,
			    &ft_fa_auto_state_fops);
}

/* Idempotent: the unpatch callbacks normally did it already. */
void foliotune_fa_exit(void)
{
	ft_fa_deactivate();
}
