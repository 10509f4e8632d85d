/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa_auto.h - what the fault-around tuner's control side (fa_tuner.c: the
 * knobs, the window, the lifecycle) and its auto mode (fa_auto.c: the
 * periodic step and the state file) share.  Both change it under
 * foliotune_fa_lock only.
 */
#ifndef FOLIOTUNE_FA_AUTO_H
#define FOLIOTUNE_FA_AUTO_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "fa_policy.h"

/*
 * fa_tuner.c.  foliotune_fa_lock serialises every change of the tuner's
 * state and of fault_around_pages by foliotune.  Lock order: knob->lock,
 * foliotune_fa_lock, then cpus_read_lock (static keys, all_vm_events()).
 * The auto mode's delayed work takes foliotune_fa_lock, so it is never
 * cancelled synchronously under it.
 */
extern struct mutex foliotune_fa_lock;
extern bool foliotune_fa_live;		/* knobs may change the kernel */

/* The auto mode: its knobs and what fa_policy.c decided. */
struct foliotune_fa_auto {
	bool on;
	bool age;			/* fault_around_auto_age */
	bool age_live;			/* on and age: it owns fault_around_mkold */
	int saved_mkold;		/* fault_around_mkold when age_live began */
	unsigned long max_pages;	/* fault_around_auto_max_bytes */
	unsigned int period_ms;		/* fault_around_auto_period_ms */
	unsigned long saved_pages;	/* window when it was turned on */
	struct foliotune_fa_policy policy;
};
extern struct foliotune_fa_auto foliotune_fa_auto;

/* Sets fault_around_pages as foliotune's own change (undone at disable). */
void foliotune_fa_store_locked(unsigned long pages);

/*
 * fa_auto.c.  Turning the auto mode on: measure from now (begin), then,
 * with the policy started, its first (quick) step from now (schedule).
 * The step runs while the tuner is live and the auto mode on; cancel waits
 * for a running one (not under foliotune_fa_lock).
 */
void foliotune_fa_auto_begin_locked(void);
void foliotune_fa_auto_schedule(void);
void foliotune_fa_auto_cancel_sync(void);

#endif /* FOLIOTUNE_FA_AUTO_H */
