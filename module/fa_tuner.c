// SPDX-License-Identifier: GPL-2.0
/*
 * fa_tuner.c - the fault-around tuner's control side: its knobs, the
 * kernel's window, and the livepatch callbacks that make them live.  The
 * fault path that applies the modes and counts is faultaround.c; the auto
 * mode's periodic step and state file are fa_auto.c, its decisions
 * fa_policy.c.  What each knob does: include/foliotune.h (FOLIOTUNE_KNOBS),
 * docs/counters.md and docs/faultaround.md; how writing one changes
 * another is at its set_locked() below.
 *
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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/livepatch.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sizes.h>

#include "kernel_syms.h"
#include "internal.h"
#include "fa_tuner.h"
#include "fa_auto.h"
#include "fa_policy.h"

/* ---- the modes the fault and unmap paths follow (fa_tuner.h) ---- */

int foliotune_fa_mkold __read_mostly = FT_KNOB_DEFAULT_fault_around_mkold;
bool foliotune_fa_sampling __read_mostly;
DEFINE_STATIC_KEY_FALSE(foliotune_fa_unmap_key);

/* ---- state shared by the knobs, the callbacks and the auto mode ---- */

/* fa_auto.h: the lock and its order */
DEFINE_MUTEX(foliotune_fa_lock);
bool foliotune_fa_live;
static bool ft_fa_saved_valid;
static unsigned long ft_fa_saved_pages;	/* the kernel's value at pre_patch */
static unsigned long ft_fa_written;	/* what foliotune last wrote, 0: none */

struct foliotune_fa_auto foliotune_fa_auto = {
	.max_pages = FT_KNOB_DEFAULT_fault_around_auto_max_bytes >> PAGE_SHIFT,
	.period_ms = FT_KNOB_DEFAULT_fault_around_auto_period_ms,
	.policy = {
		.decision = "none",
		.reason = "never turned on",
		.age_decision = "none",
		.age_reason = "never turned on",
	},
};

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

void foliotune_fa_store_locked(unsigned long pages)
{
	lockdep_assert_held(&foliotune_fa_lock);
	WRITE_ONCE(fault_around_pages, pages);
	ft_fa_written = pages;
}

/* Unmap counting is on while fault-around tuning is: mkold or auto. */
static void ft_fa_update_key_locked(void)
{
	bool want = foliotune_fa_live &&
		    (READ_ONCE(foliotune_fa_mkold) || foliotune_fa_auto.on);

	lockdep_assert_held(&foliotune_fa_lock);
	if (want && !static_key_enabled(&foliotune_fa_unmap_key))
		static_branch_enable(&foliotune_fa_unmap_key);
	else if (!want && static_key_enabled(&foliotune_fa_unmap_key))
		static_branch_disable(&foliotune_fa_unmap_key);
}

static __printf(2, 3) void ft_fa_auto_set_state(const char *decision,
						 const char *fmt, ...)
{
	struct foliotune_fa_policy *p = &foliotune_fa_auto.policy;
	va_list args;

	p->decision = decision;
	va_start(args, fmt);
	vscnprintf(p->reason, sizeof(p->reason), fmt, args);
	va_end(args);
}

/* The auto mode owns fault_around_mkold while it is on with the age knob. */
static void ft_fa_age_begin_locked(void)
{
	lockdep_assert_held(&foliotune_fa_lock);
	if (foliotune_fa_auto.age_live || !foliotune_fa_auto.on ||
	    !foliotune_fa_auto.age)
		return;
	foliotune_fa_auto.saved_mkold = READ_ONCE(foliotune_fa_mkold);
	foliotune_fa_auto.age_live = true;
	WRITE_ONCE(foliotune_fa_mkold, foliotune_fa_auto.policy.old ? 2 : 0);
}

/* ... and gives it back; @restore: the value it found. */
static void ft_fa_age_end_locked(bool restore)
{
	lockdep_assert_held(&foliotune_fa_lock);
	if (!foliotune_fa_auto.age_live)
		return;
	foliotune_fa_auto.age_live = false;
	if (restore)
		WRITE_ONCE(foliotune_fa_mkold, foliotune_fa_auto.saved_mkold);
}

/*
 * Stop the auto mode (the work sees !on and neither acts nor requeues).
 * @restore: put back the window (and age) it found when turned on.
 */
static void ft_fa_auto_stop_locked(bool restore, const char *why)
{
	lockdep_assert_held(&foliotune_fa_lock);
	if (!foliotune_fa_auto.on)
		return;
	ft_fa_age_end_locked(true);	/* root never chose this age */
	foliotune_fa_auto.on = false;
	WRITE_ONCE(foliotune_fa_sampling, false);
	if (restore) {
		foliotune_fa_store_locked(foliotune_fa_auto.saved_pages);
		ft_fa_auto_set_state("off", "%s: restored %lu bytes", why,
				     foliotune_fa_auto.saved_pages << PAGE_SHIFT);
	} else {
		ft_fa_auto_set_state("off", "%s", why);
	}
}

/* ---- knobs ---- */

/*
 * A fault-around knob changes the kernel only while the tuner is live:
 * ft_fa_knob_set() takes foliotune_fa_lock, refuses with ENODEV outside
 * it, calls the knob's set_locked() and turns unmap counting on or off to
 * match.
 */
static int ft_fa_knob_set(int (*set_locked)(u64 val), u64 val)
{
	int ret = -ENODEV;

	mutex_lock(&foliotune_fa_lock);
	if (foliotune_fa_live) {
		ret = set_locked(val);
		ft_fa_update_key_locked();
	}
	mutex_unlock(&foliotune_fa_lock);
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
	foliotune_fa_store_locked(pages);
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
	foliotune_fa_auto.age = false;
	WRITE_ONCE(foliotune_fa_mkold, (int)val);
	return 0;
}

static u64 ft_fa_auto_get(struct ft_knob *knob)
{
	return READ_ONCE(foliotune_fa_auto.on);
}

static int ft_fa_auto_set_locked(u64 val)
{
	if (val && !foliotune_fa_auto.on) {
		foliotune_fa_auto.saved_pages = READ_ONCE(fault_around_pages);
		foliotune_fa_auto_begin_locked();
		/* the age starts young: the first pressure makes it old */
		foliotune_fa_policy_start(&foliotune_fa_auto.policy, false);
		foliotune_fa_auto.on = true;
		ft_fa_age_begin_locked();
		WRITE_ONCE(foliotune_fa_sampling, true);
		ft_fa_auto_set_state("start", "turned on at %lu bytes",
				     foliotune_fa_auto.saved_pages << PAGE_SHIFT);
		foliotune_fa_auto_schedule();
	} else if (!val) {
		ft_fa_auto_stop_locked(true, "turned off");
	}
	return 0;
}

static u64 ft_fa_auto_max_get(struct ft_knob *knob)
{
	return (u64)READ_ONCE(foliotune_fa_auto.max_pages) << PAGE_SHIFT;
}

static int ft_fa_auto_max_set_locked(u64 val)
{
	unsigned long pages;
	int ret;

	ret = ft_fa_bytes_to_pages(val, &pages);
	if (!ret)
		WRITE_ONCE(foliotune_fa_auto.max_pages, pages);	/* next period */
	return ret;
}

static u64 ft_fa_auto_period_get(struct ft_knob *knob)
{
	return READ_ONCE(foliotune_fa_auto.period_ms);
}

static int ft_fa_auto_period_set_locked(u64 val)
{
	WRITE_ONCE(foliotune_fa_auto.period_ms, (unsigned int)val); /* next requeue */
	return 0;
}

static u64 ft_fa_auto_age_get(struct ft_knob *knob)
{
	return READ_ONCE(foliotune_fa_auto.age);
}

static int ft_fa_auto_age_set_locked(u64 val)
{
	if (val) {
		foliotune_fa_auto.age = true;
		ft_fa_age_begin_locked();	/* now if the auto mode is on */
	} else {
		ft_fa_age_end_locked(true);
		foliotune_fa_auto.age = false;
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

/* ---- lifecycle ---- */

/* Leave the live state: auto off, stock mode, foliotune's change undone. */
static void ft_fa_deactivate(void)
{
	unsigned long cur;

	mutex_lock(&foliotune_fa_lock);
	foliotune_fa_live = false;
	foliotune_fa_auto.on = false;
	foliotune_fa_auto.age_live = false;
	foliotune_fa_auto.age = false;
	WRITE_ONCE(foliotune_fa_sampling, false);
	WRITE_ONCE(foliotune_fa_mkold, 0);
	ft_fa_update_key_locked();
	mutex_unlock(&foliotune_fa_lock);

	foliotune_fa_auto_cancel_sync();

	mutex_lock(&foliotune_fa_lock);
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
	if (strcmp(foliotune_fa_auto.policy.decision, "none"))
		ft_fa_auto_set_state("off", "the livepatch was disabled");
	mutex_unlock(&foliotune_fa_lock);
}

int foliotune_fa_pre_patch(struct klp_object *obj)
{
	mutex_lock(&foliotune_fa_lock);
	if (!ft_fa_saved_valid) {
		ft_fa_saved_pages = READ_ONCE(fault_around_pages);
		ft_fa_saved_valid = true;
	}
	foliotune_fa_live = true;
	mutex_unlock(&foliotune_fa_lock);
	return 0;
}

/* Runs after every completed patch transition, also a reverted disable. */
void foliotune_fa_post_patch(struct klp_object *obj)
{
	mutex_lock(&foliotune_fa_lock);
	foliotune_fa_live = true;
	mutex_unlock(&foliotune_fa_lock);
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

/* Idempotent: the unpatch callbacks normally did it already. */
void foliotune_fa_exit(void)
{
	ft_fa_deactivate();
}
