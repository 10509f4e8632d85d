// SPDX-License-Identifier: GPL-2.0
/*
 * fa_policy.c - THE AUTO ALGORITHM of the fault-around tuner: from the
 * deltas one step measured, the window to use and whether pre-mapped PTEs
 * are mapped old.  fa_tuner.c gathers the inputs, applies the answers
 * and keeps the lock; this file only decides, so tests/host/fa-policy/
 * can drive it with synthetic periods.
 *
 * Inputs of a step (struct foliotune_fa_period):
 *   F  fa_read_faults         read faults on file mappings, less
 *      fa_read_faults_exec    the ones on executable mappings
 *   N  fa_read_faults_near    of them, next to the previous fault's pages
 *                             (within one window, at least 4 pages)
 *   U  fa_sample_used         sampled pre-mapped PTEs found used
 *   W  fa_sample_unused       ... found unused
 *   P  fa_pages_mapped        pre-mapped PTEs, and of them
 *   B  fa_pages_beyond_window   the ones outside the window (Linux 7 maps
 *                             a large folio whole when part of it is in
 *                             the window)
 *   A  allocstall_*           direct reclaim entries
 *   R  workingset_refault_file  evicted file pages read again
 *   S  pgsteal_file           file pages reclaimed (kswapd, direct, memcg)
 * The sample: while the auto mode is on, one fault-around event in 8 maps
 * its pre-mapped PTEs old (every event does when they are old anyway), and
 * the next read fault on that CPU in the same page table counts how many
 * of them became young since.  u = U / (U + W) is the fraction of
 * pre-mapped pages the reader used, the one thing fault positions cannot
 * tell: a reader of every 16th page and a sequential one fault at the same
 * places with a 64K window.
 *
 * Code is left out of F, N and the sample.  Text is faulted in where it
 * is called: its faults look random and its pre-mapped pages are used
 * later than the next fault in their table, yet fault-around is what keeps
 * process creation cheap (the 2016 thread).  Judged like data, a fork+exec
 * loop took the window to 4K and nearly doubled its faults.  So did the
 * libraries' data: small files read at scattered places, yet most of what
 * a window maps there is read before the program exits.  Positions cannot
 * tell that from a random reader of a large file; the sample can, and it
 * comes back for small files (the next fault lands in the same table)
 * while a random reader of a large file seldom returns to one.  Hence
 * the "unless" in rule 4, judged on F' and U' + W', the sums since the
 * window was last set (one quick step may see no sample come back), both
 * halved whenever F' reaches 512 so that they follow the workload: the
 * sample comes back if U' + W' >= F'/16, is not known yet if F' < 128.
 *
 * The window.  A pre-mapped page pays when it spares a fault: mapping one
 * costs about 1/8 of a read fault (test box: 0.5 of 4.7 us), so the window
 * is worth it if u >= 1/8; under pressure (A > 0 or R > 0) an unused young
 * page also keeps a used one out of memory (the 2016 thread), so there the
 * bar is u >= 1/4.  Call that bar T.  Window p, maximum M (4K .. M):
 *   1. p > M                              clamp to M
 *   2. F < 32                             hold: too few faults to judge
 *   3. U + W >= 64 (usefulness known):
 *      u < T/2   (mostly unused)          to 4K at once
 *      u < T                              halve, or to 4K at once if
 *                                         B >= P/2 (below); only the
 *                                         second such step in a row
 *      u >= 1/2 and N >= F/2              double (sequential, used)
 *      p < 64K                            double, unless backing off
 *                                         or under pressure (worth its
 *                                         cost: back to the kernel's
 *                                         default)
 *      otherwise                          hold (worth its cost)
 *   4. usefulness unknown (at 4K there is no fault-around to sample):
 *      p = 4K and N >= 3F/4 (sequential)  to M at once, unless backing off
 *      p > 4K and N < F/4 (random)        to 4K at once, unless the
 *                                         sample comes back or is not
 *                                         known yet (see below): hold
 *      otherwise                          hold
 * Large folios (Linux 7): filemap_map_folio_range() maps a large folio
 * whole once part of it is in the window, so below the file's folio size
 * a halved window pre-maps no less, and "pre-mapped <= window" no longer
 * holds.  When at least half of what was pre-mapped lay beyond the window
 * (B >= P/2), a "little used" window goes to 4K at once (no fault-around),
 * the only smaller setting that maps less.  finish_fault() also maps the
 * faulting page's whole folio (fa_fault_folio_pages): no window, 4K
 * included, limits that.
 *
 * "Little used" waits for a second step.  A step's 64 sampled PTEs come
 * from a handful of fault-around events (one in 8 is sampled), so a load
 * that uses a quarter to a third of them now and then samples below 1/8:
 * process creation on 7.3.4 spent 10 of 32 steps below 64K that way.  So
 * the first "little used" holds and makes the next step a quick one; a
 * second in a row shrinks.  Mostly unused (u < T/2) is no sampling
 * accident and goes to 4K at once.
 *
 * Jumps instead of steps: a window the evidence refutes is left at once (a
 * 3 s app launch cannot wait four periods), and a jump up from 4K is
 * judged by the samples it makes possible.  Backoff: a growth (a jump
 * from 4K, a step back to 64K) whose window is then shrunk before any step
 * found it worth its cost (a strided reader looks sequential at 4K and
 * useless at M) doubles the periods the next growth must wait (1, 2,
 * 4 .. 64); a step that finds the grown window worth it resets it.
 *
 * Below 64K, a window worth its cost grows back: the kernel's default is
 * the prior, and a smaller one must keep being earned.  Without it a
 * window halved by one workload stays halved under the next one whenever
 * every size is worth its cost there (process creation: a quarter to a
 * third of the pre-mapped data pages used at 16K, 32K and 64K alike), and
 * nothing would ever refute it.  Not under pressure, though: there the
 * default is the wrong prior (the 2016 app launches ran best at 4K), and
 * a smaller window's larger used fraction sent it back up only to be
 * halved again (app launches without swap: 8K, 16K, 32K, 16K, a period
 * each, where 4K was 44% faster than 64K).
 *
 * Quick steps.  Until the tuner has settled, it steps every quarter period
 * with the same thresholds (32 faults, 64 samples within a quarter: four
 * times the evidence a full period needs), so a short run is judged in a
 * quarter period and a refuted jump is undone a quarter period after it.
 * It has not settled right after it is turned on, after a jump up from 4K,
 * after a halving and after a first "little used"; it settles when a step
 * finds the window worth its cost, after a shrink to 4K, or after a
 * period's worth of quick steps without a change.  Settled, it steps once per period and changes the
 * window at most once per period; unsettled, it may shrink again a
 * half a period after a change (64K to 4K through "little used" halvings
 * took a period each, longer than many app launches), but a growth still
 * waits a period after any change, so a window cannot flap every quarter.
 *
 * The age (fault_around_auto_age).  Old pre-mapped PTEs let reclaim tell
 * the pages nobody touched from the ones that were read, which only pays
 * under reclaim pressure on file pages; on x86 it costs the hardware an
 * accessed-bit update for every pre-mapped page that is used (the 2016
 * revert: process creation, about 6% of unixbench).  So: old (as
 * fault_around_mkold=2) as soon as a step sees pressure (A > 0, or R or S
 * at least 32 pages), young again after FOLIOTUNE_FA_AGE_QUIET_PERIODS
 * periods without it.  The hysteresis keeps a workload whose pressure
 * comes and goes from flipping every step.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "fa_policy.h"

#define FT_FA_MIN_FAULTS	32	/* fewer read faults in a step: hold */
#define FT_FA_MIN_SAMPLES	64	/* fewer sampled PTEs read back: no usefulness */
#define FT_FA_RANDOM_FAULTS	128	/* fewer since the window was set: no verdict */
#define FT_FA_MAX_BACKOFF	64	/* periods a refuted growth may wait */
#define FT_FA_LITTLE_STEPS	2	/* "little used" in a row before a shrink */
#define FT_FA_AGE_MIN_PAGES	32	/* R or S below this: no pressure */
#define FT_FA_STOCK_PAGES	16	/* the kernel's fault_around_bytes, 64K */

static __printf(5, 6) void ft_say(const char **decision, const char *what,
				  char *reason, size_t size,
				  const char *fmt, ...)
{
	va_list args;

	*decision = what;
	va_start(args, fmt);
	vscnprintf(reason, size, fmt, args);
	va_end(args);
}

/* The window's decision and why; the age's. */
#define ft_window(p, what, ...) \
	ft_say(&(p)->decision, what, (p)->reason, sizeof((p)->reason), __VA_ARGS__)
#define ft_age(p, what, ...) \
	ft_say(&(p)->age_decision, what, (p)->age_reason, \
	       sizeof((p)->age_reason), __VA_ARGS__)

void foliotune_fa_policy_start(struct foliotune_fa_policy *p, bool old)
{
	memset(p, 0, sizeof(*p));
	p->backoff = 1;
	p->old = old;
	p->decision = "start";
	p->age_decision = old ? "old" : "young";
}

/*
 * A refuted growth's backoff ends at grow_ok.  The clock wraps, so it is
 * compared with time_before(), and only while pending: each step forgets
 * one that has passed (half a wrap later it would read as the future).
 */
static void ft_end_backoff(struct foliotune_fa_policy *p,
			   const struct foliotune_fa_period *d)
{
	if (p->grow_waits && !time_before(d->now_ms, p->grow_ok))
		p->grow_waits = false;
}

/* A step found the window worth its cost: the last growth is confirmed. */
static void ft_confirm(struct foliotune_fa_policy *p)
{
	if (p->unconfirmed)
		p->backoff = 1;
	p->unconfirmed = false;
}

/* Below 64K and worth its cost: double, unless backing off or under pressure. */
static unsigned long ft_back_to_stock(struct foliotune_fa_policy *p,
				      unsigned long pages, unsigned long used,
				      unsigned long sampled,
				      const struct foliotune_fa_period *d,
				      bool pressure)
{
	if (pressure) {
		ft_window(p, "hold",
			  "useful (%lu of %lu pre-mapped used), below 64K, under pressure: no growth back",
			  used, sampled);
		return pages;
	}
	if (p->grow_waits) {
		ft_window(p, "hold",
			  "useful (%lu of %lu pre-mapped used), below 64K, backing off %lu ms more",
			  used, sampled, p->grow_ok - d->now_ms);
		return pages;
	}
	p->unconfirmed = true;
	ft_window(p, "grow", "useful below 64K: %lu of %lu pre-mapped used",
		  used, sampled);
	return min(2 * pages, FT_FA_STOCK_PAGES);
}

/* Rules 3 and 4 above; returns the window to use. */
static unsigned long ft_decide(struct foliotune_fa_policy *p,
			       unsigned long pages, unsigned long max,
			       unsigned long period_ms,
			       const struct foliotune_fa_period *d, bool pressure)
{
	unsigned long faults = d->faults, near = d->near, used = d->used;
	unsigned long sampled = used + d->unused;
	/* the bar T in sixteenths: 1/4 under pressure, else 1/8 */
	unsigned long t16 = pressure ? 4 : 2;
	const char *pr = pressure ? " under pressure" : "";

	if (sampled >= FT_FA_MIN_SAMPLES) {
		if (16 * used >= t16 * sampled) {
			ft_confirm(p);
			p->settled = true;
			if (2 * used >= sampled && 2 * near >= faults && pages < max) {
				ft_window(p, "grow",
					  "used and sequential: %lu of %lu pre-mapped used, %lu of %lu near%s",
					  used, sampled, near, faults, pr);
				return min(2 * pages, max);
			}
			if (pages < min(FT_FA_STOCK_PAGES, max))
				return ft_back_to_stock(p, pages, used, sampled,
							d, pressure);
			ft_window(p, "hold",
				  "useful: %lu of %lu pre-mapped used, %lu of %lu near%s",
				  used, sampled, near, faults, pr);
			return pages;
		}
		if (pages == 1) {
			ft_window(p, "hold",
				  "unused (%lu of %lu pre-mapped used), at 4K",
				  used, sampled);
			return pages;
		}
		if (32 * used >= t16 * sampled &&
		    ++p->little_steps < FT_FA_LITTLE_STEPS) {
			/* the next step, a quick one, must agree */
			p->settled = false;
			p->quick_holds = 0;
			ft_window(p, "hold",
				  "little used once (%lu of %lu pre-mapped used)%s: the next step must agree",
				  used, sampled, pr);
			return pages;
		}
		if (p->unconfirmed) {
			/* the last jump up was refuted: wait longer next time */
			p->unconfirmed = false;
			p->backoff = min_t(unsigned long, 2 * p->backoff,
					   FT_FA_MAX_BACKOFF);
			p->grow_ok = d->now_ms + p->backoff * period_ms;
			p->grow_waits = true;
		}
		if (32 * used < t16 * sampled) {
			ft_window(p, "shrink",
				  "unused: %lu of %lu pre-mapped used%s",
				  used, sampled, pr);
			return 1;
		}
		if (d->mapped && 2 * d->beyond >= d->mapped) {
			ft_window(p, "shrink",
				  "little used (%lu of %lu pre-mapped used), %lu of %lu pre-mapped beyond the window (whole large folios): a smaller window maps no less%s",
				  used, sampled, d->beyond, d->mapped, pr);
			return 1;
		}
		ft_window(p, "shrink",
			  "little used, %u steps in a row: %lu of %lu pre-mapped used%s",
			  p->little_steps, used, sampled, pr);
		return pages / 2;
	}

	if (pages == 1 && 4 * near >= 3 * faults && max > 1) {
		if (p->grow_waits) {
			ft_window(p, "hold",
				  "sequential at 4K (%lu of %lu near), backing off %lu ms more",
				  near, faults, p->grow_ok - d->now_ms);
			return pages;
		}
		p->unconfirmed = true;
		ft_window(p, "grow",
			  "sequential at 4K: %lu of %lu read faults near the previous one",
			  near, faults);
		return max;
	}
	if (pages > 1 && 4 * near < faults) {
		if (p->w_faults < FT_FA_RANDOM_FAULTS) {
			ft_window(p, "hold",
				  "random positions (%lu of %lu near), %lu read faults since the window was set (< %d)",
				  near, faults, p->w_faults,
				  FT_FA_RANDOM_FAULTS);
			return pages;
		}
		if (16 * p->w_sampled < p->w_faults) {
			ft_window(p, "shrink",
				  "random: %lu of %lu read faults near the previous one",
				  near, faults);
			return 1;
		}
	}
	/* a step's sample too small to judge: the sums since the window was set */
	if (pages > 1 && p->w_sampled >= FT_FA_MIN_SAMPLES &&
	    16 * p->w_used >= t16 * p->w_sampled) {
		ft_confirm(p);
		if (pages < min(FT_FA_STOCK_PAGES, max))
			return ft_back_to_stock(p, pages, p->w_used,
						p->w_sampled, d, pressure);
	}
	if (pages > 1 && 4 * near < faults) {
		ft_window(p, "hold",
			  "random positions (%lu of %lu near), but the sample comes back (%lu pre-mapped sampled for the last %lu read faults)",
			  near, faults, p->w_sampled, p->w_faults);
		return pages;
	}
	ft_window(p, "hold",
		  "%s: %lu of %lu read faults near, %lu pre-mapped sampled",
		  pages == 1 ? "at 4K" : "mixed", near, faults, sampled);
	return pages;
}

/*
 * One step: the window to use from now on (@pages if unchanged).  Also
 * updates p->decision/reason and whether the tuner has settled.
 */
unsigned long foliotune_fa_policy_window(struct foliotune_fa_policy *p,
					 unsigned long pages, unsigned long max,
					 unsigned long period_ms,
					 const struct foliotune_fa_period *d)
{
	bool pressure = d->allocstall || d->refault_file;
	unsigned long target = pages;
	unsigned int little = p->little_steps;

	p->steps++;
	ft_end_backoff(p, d);
	if (p->w_faults >= 4 * FT_FA_RANDOM_FAULTS) {
		p->w_faults /= 2;
		p->w_sampled /= 2;
		p->w_used /= 2;
	}
	p->w_faults += d->faults;
	p->w_sampled += d->used + d->unused;
	p->w_used += d->used;
	if (pages > max) {
		target = max;
		ft_window(p, "clamp",
			  "window above fault_around_auto_max_bytes");
	} else if (d->faults < FT_FA_MIN_FAULTS) {
		ft_window(p, "hold", "idle: %lu read faults (< %d)",
			  d->faults, FT_FA_MIN_FAULTS);
	} else {
		target = ft_decide(p, pages, max, period_ms, d, pressure);
	}

	if (p->little_steps == little)	/* not found little used: no longer in a row */
		p->little_steps = 0;

	/* growths at most once per period; shrinks too once settled */
	if (target != pages && (p->settled || target > pages) && p->changes &&
	    d->now_ms - p->last_change_ms < period_ms) {
		ft_window(p, "hold",
			  "rate limit: changed less than a period ago");
		target = pages;
	}

	if (target != pages) {
		p->w_faults = 0;
		p->w_sampled = 0;
		p->w_used = 0;
		p->changes++;
		p->last_change_ms = d->now_ms;
		p->quick_holds = 0;
		p->little_steps = 0;
		/*
		 * Judged by quick steps: a jump up from 4K, and a halving (the
		 * next quarter may show the smaller window useless too).
		 */
		p->settled = !(pages == 1 && target > 1) &&
			     !(target < pages && target > 1);
	} else if (!p->settled &&
		   ++p->quick_holds >= FOLIOTUNE_FA_QUICK_STEPS) {
		p->settled = true;
	}
	return target;
}

/* One step of the age decision: true while pre-mapped PTEs are old. */
bool foliotune_fa_policy_age(struct foliotune_fa_policy *p,
			     unsigned long period_ms,
			     const struct foliotune_fa_period *d)
{
	bool pressure = d->allocstall ||
			d->refault_file >= FT_FA_AGE_MIN_PAGES ||
			d->pgsteal_file >= FT_FA_AGE_MIN_PAGES;
	unsigned long quiet = FOLIOTUNE_FA_AGE_QUIET_PERIODS * period_ms;

	if (pressure) {
		p->quiet_ms = 0;
		ft_age(p, p->old ? "hold" : "old",
		       "file reclaim pressure: A %lu R %lu S %lu",
		       d->allocstall, d->refault_file, d->pgsteal_file);
		if (!p->old) {
			p->old = true;
			p->age_changes++;
			strscpy(p->age_change_reason, p->age_reason,
				sizeof(p->age_change_reason));
		}
	} else {
		p->quiet_ms += d->len_ms;
		if (p->old && p->quiet_ms >= quiet) {
			p->old = false;
			p->age_changes++;
			ft_age(p, "young", "no file reclaim pressure for %lu ms",
			       p->quiet_ms);
			strscpy(p->age_change_reason, p->age_reason,
				sizeof(p->age_change_reason));
		} else {
			ft_age(p, "hold", "%s, no pressure for %lu ms",
			       p->old ? "old" : "young", p->quiet_ms);
		}
	}
	return p->old;
}
