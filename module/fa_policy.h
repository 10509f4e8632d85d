/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa_policy.h - the fault-around tuner's decisions, as a pure function of
 * what one period measured (no locks, no kernel state), so that they can be
 * driven by synthetic inputs in a host test (tests/host/fa-policy/).
 */
#ifndef FOLIOTUNE_FA_POLICY_H
#define FOLIOTUNE_FA_POLICY_H

#include <linux/types.h>

/* What one step saw: deltas since the previous step. */
struct foliotune_fa_period {
	unsigned long faults;		/* F: fa_read_faults - fa_read_faults_exec */
	unsigned long near;		/* N: fa_read_faults_near */
	unsigned long used;		/* U: fa_sample_used */
	unsigned long unused;		/* W: fa_sample_unused */
	unsigned long mapped;		/* P: fa_pages_mapped */
	unsigned long beyond;		/* B: fa_pages_beyond_window */
	unsigned long allocstall;	/* A: direct reclaim entries */
	unsigned long refault_file;	/* R: workingset_refault_file */
	unsigned long pgsteal_file;	/* S: file pages reclaimed (kswapd, direct, memcg) */
	/*
	 * A millisecond clock that may wrap: only differences of two of its
	 * readings mean anything, and times are compared with time_before().
	 */
	unsigned long now_ms;		/* when the step runs */
	unsigned long len_ms;		/* how long the step's period was */
};

/*
 * F: read faults less exec faults.  The two per-cpu sums are read one after
 * the other, so an exec fault between the reads can make the exec delta the
 * larger one: then no fault is judged, rather than about 2^64.
 */
static inline unsigned long foliotune_fa_judged_faults(unsigned long faults,
						       unsigned long exec)
{
	return faults > exec ? faults - exec : 0;
}

/* The tuner's memory between steps; zeroed by foliotune_fa_policy_start(). */
struct foliotune_fa_policy {
	unsigned long steps;
	unsigned long changes;		/* window changes */
	unsigned long last_change_ms;
	/* while grow_waits, a growth waits until grow_ok (ms; backoff in periods) */
	unsigned long backoff, grow_ok;
	bool grow_waits;
	bool unconfirmed;		/* a growth not yet found useful */
	/* settled: one change per full period; else quick steps (see .c) */
	bool settled;
	unsigned int quick_holds;	/* quick steps in a row without a change */
	unsigned int little_steps;	/* steps in a row that found it little used */
	/* read faults, sampled and used PTEs since the window was last set */
	unsigned long w_faults, w_sampled, w_used;
	/* the age decision (fault_around_auto_age) */
	bool old;			/* pre-mapped PTEs are mapped old */
	unsigned long quiet_ms;		/* time without file reclaim pressure */
	unsigned long age_changes;
	const char *decision;
	char reason[192];
	const char *age_decision;
	char age_reason[96];
	char age_change_reason[96];	/* why the age last changed */
};

/* Steps per period while the tuner has not settled (quick steps). */
#define FOLIOTUNE_FA_QUICK_STEPS	4
/* Pressure-free time, in periods, before old pre-mapped PTEs turn young. */
#define FOLIOTUNE_FA_AGE_QUIET_PERIODS	4

void foliotune_fa_policy_start(struct foliotune_fa_policy *p, bool old);
unsigned long foliotune_fa_policy_window(struct foliotune_fa_policy *p,
					 unsigned long pages, unsigned long max,
					 unsigned long period_ms,
					 const struct foliotune_fa_period *d);
bool foliotune_fa_policy_age(struct foliotune_fa_policy *p,
			     unsigned long period_ms,
			     const struct foliotune_fa_period *d);

/* The delay to the next step: a quick step until the tuner settles. */
static inline unsigned long
foliotune_fa_policy_next_ms(const struct foliotune_fa_policy *p,
			    unsigned long period_ms)
{
	return p->settled ? period_ms : period_ms / FOLIOTUNE_FA_QUICK_STEPS;
}

#endif
