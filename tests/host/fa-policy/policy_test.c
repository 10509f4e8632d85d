// SPDX-License-Identifier: GPL-2.0
/*
 * The fault-around tuner's decisions (module/fa_policy.c, compiled here
 * against compat/ stand-ins of the kernel headers) driven by synthetic
 * periods: the age under pressure, without it and when it flaps; early
 * decisions, refuted jumps, the once-per-period rule once settled.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fa_policy.h"

#define PERIOD	1000UL
#define QUICK	(PERIOD / FOLIOTUNE_FA_QUICK_STEPS)

static int failed;
/* appended to every check's name while the window tests run on a wrapping clock */
static const char *clock_note = "";

static void check(int cond, const char *what, const struct foliotune_fa_policy *p)
{
	if (cond) {
		printf("ok - fa-policy: %s%s\n", what, clock_note);
		return;
	}
	failed = 1;
	printf("not ok - fa-policy: %s%s # decision %s (%s), age %s (%s)\n",
	       what, clock_note, p->decision, p->reason, p->age_decision,
	       p->age_reason);
}

/* A period of a reader: F faults, N near, U/W sampled used/unused. */
static struct foliotune_fa_period rd(unsigned long now, unsigned long len,
				     unsigned long f, unsigned long n,
				     unsigned long u, unsigned long w)
{
	struct foliotune_fa_period d = {
		.faults = f, .near = n, .used = u, .unused = w,
		.now_ms = now, .len_ms = len,
	};
	return d;
}

/*
 * One step of a half-sequential reader (400 read faults, 200 near) whose
 * sample found U used and W unused, @len ms after the last, at @pages
 * (64K maximum): the window it leaves.
 */
static unsigned long step(struct foliotune_fa_policy *p, unsigned long *t,
			  unsigned long len, unsigned long pages,
			  unsigned long u, unsigned long w)
{
	struct foliotune_fa_period d = rd(*t += len, len, 400, 200, u, w);

	return foliotune_fa_policy_window(p, pages, 16, PERIOD, &d);
}

/* A period with file reclaim: direct reclaim A, refaults R, steals S. */
static struct foliotune_fa_period pr(unsigned long now, unsigned long a,
				     unsigned long r, unsigned long s)
{
	struct foliotune_fa_period d = rd(now, PERIOD, 100, 50, 40, 40);

	d.allocstall = a;
	d.refault_file = r;
	d.pgsteal_file = s;
	return d;
}

static void test_age(void)
{
	struct foliotune_fa_policy p;
	struct foliotune_fa_period d;
	unsigned long t = 0, i, flips = 0;
	int old, was;

	foliotune_fa_policy_start(&p, false);
	d = rd(t += PERIOD, PERIOD, 100, 50, 40, 40);
	check(!foliotune_fa_policy_age(&p, PERIOD, &d) && p.age_changes == 0,
	      "age: young without pressure", &p);
	d = pr(t += PERIOD, 0, 5, 10);
	check(!foliotune_fa_policy_age(&p, PERIOD, &d),
	      "age: a few refaults and steals (< 32 pages) are no pressure", &p);
	d = pr(t += PERIOD, 3, 0, 0);
	check(foliotune_fa_policy_age(&p, PERIOD, &d) && p.age_changes == 1 &&
	      !strcmp(p.age_decision, "old"),
	      "age: direct reclaim makes it old in one step", &p);
	for (i = 1; i < FOLIOTUNE_FA_AGE_QUIET_PERIODS; i++) {
		d = rd(t += PERIOD, PERIOD, 100, 50, 40, 40);
		old = foliotune_fa_policy_age(&p, PERIOD, &d);
	}
	check(old && p.age_changes == 1,
	      "age: stays old for the quiet periods of the hysteresis", &p);
	d = rd(t += PERIOD, PERIOD, 100, 50, 40, 40);
	check(!foliotune_fa_policy_age(&p, PERIOD, &d) && p.age_changes == 2 &&
	      !strcmp(p.age_decision, "young"),
	      "age: young again after the quiet periods", &p);
	d = rd(t += PERIOD, PERIOD, 100, 50, 40, 40);
	foliotune_fa_policy_age(&p, PERIOD, &d);
	check(!strcmp(p.age_change_reason, "no file reclaim pressure for 4000 ms"),
	      "age: the reason of the last change stays until the next change", &p);

	/* quick steps count their own length toward the quiet time */
	d = pr(t += PERIOD, 0, 0, 500);
	check(foliotune_fa_policy_age(&p, PERIOD, &d) && p.age_changes == 3,
	      "age: memcg/kswapd steals alone (pgsteal_file) make it old", &p);
	for (i = 0; i < 4 * FOLIOTUNE_FA_AGE_QUIET_PERIODS - 1; i++) {
		d = rd(t += QUICK, QUICK, 100, 50, 40, 40);
		old = foliotune_fa_policy_age(&p, PERIOD, &d);
	}
	check(old, "age: quarter-period steps add up to the quiet time, not count as periods", &p);
	d = rd(t += QUICK, QUICK, 100, 50, 40, 40);
	check(!foliotune_fa_policy_age(&p, PERIOD, &d),
	      "age: young once the quiet time reaches the periods", &p);

	/* pressure every other period for 20 periods: one change, no flapping */
	foliotune_fa_policy_start(&p, false);
	was = 0;
	for (i = 0; i < 20; i++) {
		d = (i % 2) ? rd(t += PERIOD, PERIOD, 100, 50, 40, 40) :
			      pr(t += PERIOD, 0, 200, 0);
		old = foliotune_fa_policy_age(&p, PERIOD, &d);
		flips += old != was;
		was = old;
	}
	check(old && flips == 1 && p.age_changes == 1,
	      "age: flapping pressure (every other period) changes it once", &p);
}

/* t0: the clock's reading at the start (the tests take ~150 periods) */
static void test_window(unsigned long t0)
{
	struct foliotune_fa_policy p;
	struct foliotune_fa_period d;
	unsigned long pages, t = t0, i;

	/* stride reader at the stock 64K: refuted at the first quick step */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 400, 400, 4, 124);
	pages = foliotune_fa_policy_window(&p, 16, 16, PERIOD, &d);
	check(pages == 1 && foliotune_fa_policy_next_ms(&p, PERIOD) == PERIOD,
	      "window: strong evidence decides at the first quick step, then settles", &p);

	/* weak evidence in a quick step holds */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 20, 0, 0, 0);
	pages = foliotune_fa_policy_window(&p, 16, 16, PERIOD, &d);
	check(pages == 16 && !p.settled &&
	      foliotune_fa_policy_next_ms(&p, PERIOD) == QUICK,
	      "window: too few faults in a quick step hold, quick steps go on", &p);
	for (i = 1; i < FOLIOTUNE_FA_QUICK_STEPS; i++) {
		d = rd(t += QUICK, QUICK, 20, 0, 0, 0);
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 16 && p.settled,
	      "window: a period of quick holds settles the tuner", &p);

	/* sequential at 4K: jump to the maximum, then refuted one quick step later */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, 1, 16, PERIOD, &d);
	check(pages == 16 && !p.settled && p.unconfirmed,
	      "window: sequential at 4K jumps to the maximum, unsettled", &p);
	d = rd(t += QUICK, QUICK, 200, 190, 4, 124);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 1 && p.backoff == 2 && p.grow_ok == t + 2 * PERIOD,
	      "window: the refuted jump is undone a quarter period later, backoff doubles", &p);
	d = rd(t += PERIOD, PERIOD, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 1 && !strcmp(p.decision, "hold"),
	      "window: the next jump waits for the backoff", &p);

	/* settled: a second change within one period is refused */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 400, 380, 120, 8);
	pages = foliotune_fa_policy_window(&p, 4, 16, PERIOD, &d);
	check(pages == 8 && p.settled, "window: used and sequential doubles, settled", &p);
	d = rd(t += QUICK, QUICK, 400, 380, 120, 8);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 8 && strstr(p.reason, "rate limit"),
	      "window: settled, at most one change per period", &p);
	d = rd(t += PERIOD, PERIOD, 400, 380, 120, 8);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 16, "window: a period later it may change again", &p);

	/*
	 * "Little used" once is a step's small sample (64 PTEs from a handful
	 * of events); a second step must agree, a quarter period later.  A
	 * load used a quarter to a third that now and then samples below the
	 * bar (process creation on 7.3.4) keeps its window.  3/32 used is
	 * little, 1/32 mostly unused.
	 */
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = step(&p, &t, PERIOD, 16, 12, 116);
	check(pages == 16 && !p.settled && foliotune_fa_policy_next_ms(&p, PERIOD) == QUICK,
	      "window: little used once holds, the next step is a quick one", &p);
	pages = step(&p, &t, QUICK, pages, 40, 88);
	pages = step(&p, &t, QUICK, pages, 12, 116);
	check(pages == 16 && p.changes == 0 && p.little_steps == 1,
	      "window: ... little used, useful, little used: not in a row, holds", &p);
	pages = step(&p, &t, QUICK, pages, 12, 116);
	check(pages == 8 && p.changes == 1 && strstr(p.reason, "2 steps in a row"),
	      "window: ... little used twice in a row halves", &p);
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = step(&p, &t, PERIOD, 16, 12, 116);
	d = rd(t += QUICK, QUICK, 20, 10, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	pages = step(&p, &t, QUICK, pages, 12, 116);
	check(pages == 16 && p.changes == 0,
	      "window: ... an idle step between breaks the row too", &p);
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = step(&p, &t, PERIOD, 16, 4, 124);
	check(pages == 1 && p.changes == 1,
	      "window: mostly unused (1/32) goes to 4K in one step", &p);

	/*
	 * A halving is judged by quick steps: a window that turns out useless
	 * too goes to 4K a quarter later (a strided reader after a sequential
	 * one: the first period mixes both), but growing back waits a period.
	 */
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = step(&p, &t, PERIOD, 16, 12, 116);
	pages = step(&p, &t, QUICK, pages, 12, 116);
	check(pages == 8 && !p.settled && foliotune_fa_policy_next_ms(&p, PERIOD) == QUICK,
	      "window: a halving leaves the tuner unsettled, quick steps", &p);
	pages = step(&p, &t, QUICK, pages, 1, 100);
	check(pages == 1 && p.changes == 2 && p.settled,
	      "window: ... a quarter later, unused at 32K: to 4K, settled", &p);
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = step(&p, &t, PERIOD, 16, 12, 116);
	pages = step(&p, &t, QUICK, pages, 12, 116);
	d = rd(t += QUICK, QUICK, 400, 380, 120, 8);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 8 && strstr(p.reason, "rate limit"),
	      "window: ... but a growth a quarter after the halving waits", &p);
	{
		unsigned long changes = 0, last_grow = 0, close_grows = 0, start = t;

		/* 64K little used, 32K used and sequential: as fast as it may flap */
		foliotune_fa_policy_start(&p, false);
		p.settled = true;
		pages = 16;
		while (t - start < 20 * PERIOD) {
			unsigned long was = pages;
			unsigned long len = foliotune_fa_policy_next_ms(&p, PERIOD);

			d = pages == 16 ? rd(t += len, len, 400, 200, 12, 116) :
					  rd(t += len, len, 400, 380, 120, 8);
			pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
			changes += pages != was;
			if (pages > was) {
				close_grows += last_grow && t - last_grow < PERIOD;
				last_grow = t;
			}
		}
		check(changes <= 21 && !close_grows,
		      "window: ... so a window that flaps changes at most once per period on average", &p);
	}

	/* random reader at 64K without samples: 4K */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 400, 20, 0, 0);
	pages = foliotune_fa_policy_window(&p, 16, 16, PERIOD, &d);
	check(pages == 1, "window: random faults without samples go to 4K", &p);

	/* ... after enough faults to tell */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 100, 5, 0, 0);
	pages = foliotune_fa_policy_window(&p, 16, 16, PERIOD, &d);
	check(pages == 16, "window: random, 100 faults since the window was set: hold", &p);
	d = rd(t += QUICK, QUICK, 100, 5, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 1, "window: ... 200 faults, no sample back: to 4K", &p);

	/* ... but not while the sample comes back (a program's libraries) */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 400, 20, 10, 30);
	pages = foliotune_fa_policy_window(&p, 16, 16, PERIOD, &d);
	check(pages == 16 && !strcmp(p.decision, "hold"),
	      "window: random positions hold while the sample comes back", &p);
	d = rd(t += QUICK, QUICK, 100, 5, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 16, "window: ... a step without one holds too (40 for 500 faults)", &p);
	d = rd(t += PERIOD, PERIOD, 400, 20, 30, 60);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 16, "window: ... and the sample decides (1/3 used: hold)", &p);
	d = rd(t += PERIOD, PERIOD, 400, 20, 2, 90);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 1, "window: ... (2 of 92 used: to 4K)", &p);

	/* a long run of sampled random positions, then a random large file */
	foliotune_fa_policy_start(&p, false);
	pages = 16;
	for (i = 0; i < 40; i++) {
		d = rd(t += QUICK, QUICK, 400, 20, 20, 40);
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 16, "window: sampled random positions hold for 40 steps", &p);
	for (i = 0; i < 3 && pages == 16; i++) {
		d = rd(t += PERIOD, PERIOD, 400, 20, 0, 0);
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 1, "window: ... then unsampled ones go to 4K within 3 steps", &p);

	/* pressure raises the bar: 3/16 used is worth it without, not with */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += PERIOD, PERIOD, 400, 100, 24, 104);
	pages = foliotune_fa_policy_window(&p, 16, 16, PERIOD, &d);
	check(pages == 16, "window: 3/16 used holds without pressure", &p);
	foliotune_fa_policy_start(&p, false);
	for (i = 0, pages = 16; i < 2; i++) {
		d = rd(t += QUICK, QUICK, 400, 100, 24, 104);
		d.refault_file = 1;
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 8, "window: 3/16 used halves under pressure (two steps in a row)", &p);

	/*
	 * Below 64K, worth its cost but neither sequential nor mostly used
	 * (process creation's data: 1/3 used at every size): back to 64K,
	 * one doubling per period, and there it holds.
	 */
	foliotune_fa_policy_start(&p, false);
	pages = 4;
	p.settled = true;
	d = rd(t += PERIOD, PERIOD, 300, 40, 40, 80);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 8 && !strcmp(p.decision, "grow") && p.unconfirmed,
	      "window: useful below 64K doubles, unconfirmed", &p);
	d = rd(t += QUICK, QUICK, 300, 40, 40, 80);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 8 && strstr(p.reason, "rate limit"),
	      "window: ... once per period", &p);
	d = rd(t += PERIOD, PERIOD, 300, 40, 40, 80);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	for (i = 0; i < 5; i++) {
		d = rd(t += PERIOD, PERIOD, 300, 40, 40, 80);
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 16 && !strcmp(p.decision, "hold") && p.backoff == 1,
	      "window: ... to 64K, where it holds (the kernel's default, not the maximum)", &p);
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	d = rd(t += PERIOD, PERIOD, 300, 40, 40, 80);
	pages = foliotune_fa_policy_window(&p, 8, 32, PERIOD, &d);
	d = rd(t += PERIOD, PERIOD, 300, 40, 40, 80);
	pages = foliotune_fa_policy_window(&p, pages, 32, PERIOD, &d);
	check(pages == 16,
	      "window: ... a higher maximum is not sought without sequential faults", &p);
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	d = rd(t += PERIOD, PERIOD, 300, 40, 40, 80);
	pages = foliotune_fa_policy_window(&p, 4, 4, PERIOD, &d);
	check(pages == 4, "window: ... nor above a lower maximum", &p);

	/*
	 * Under pressure a window below 64K that is worth its cost holds: the
	 * app launches without swap used 1/6 of a 32K window, 1/5 to 1/3 of
	 * 16K and 1/3 of 8K ones, and went 8K, 16K, 32K, 16K while 4K was
	 * the fastest.
	 */
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = 8;
	for (i = 0; i < 2; i++) {
		d = rd(t += QUICK, QUICK, 300, 40, 52, 252);
		d.refault_file = 500;
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 4, "window: under pressure, 1/6 used halves", &p);
	for (i = 0; i < 8; i++) {
		d = rd(t += PERIOD, PERIOD, 300, 40, 55, 107);
		d.refault_file = 500;
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 4 && p.changes == 1 && strstr(p.reason, "under pressure: no growth back"),
	      "window: ... and a smaller window, 1/3 used, holds under pressure", &p);
	d = rd(t += PERIOD, PERIOD, 300, 40, 55, 107);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 8 && !strcmp(p.decision, "grow"),
	      "window: ... and grows back once the pressure is gone", &p);

	/*
	 * The same with a sample too small for any one step (the test box's
	 * fork+exec loop: 5 of 25 used per 200 ms step): the sums since the
	 * window was set decide, once they reach 64.
	 */
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = 8;
	for (i = 0; i < 2; i++) {
		d = rd(t += PERIOD, PERIOD, 60, 8, 5, 20);
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 8 && !strcmp(p.decision, "hold"),
	      "window: small samples below 64K hold until their sum reaches 64", &p);
	d = rd(t += PERIOD, PERIOD, 60, 8, 5, 20);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 16 && strstr(p.reason, "useful below 64K: 15 of 75"),
	      "window: ... then, worth its cost, back to 64K", &p);
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = 8;
	for (i = 0; i < 10; i++) {
		d = rd(t += PERIOD, PERIOD, 60, 8, 2, 23);
		pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	}
	check(pages == 8,
	      "window: ... but not when they say it is not (2 of 25 used, under 1/8)", &p);

	/*
	 * 32K pays (1/4 used), 64K does not (1/16): each return to 64K that is
	 * refuted doubles the wait before the next one.
	 */
	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	pages = 8;
	{
		unsigned long grows = 0, last_grow = 0, gap = 0, gaps_grow = 1;

		for (i = 0; i < 40; i++) {
			unsigned long was = pages;

			d = pages == 16 ? rd(t += PERIOD, PERIOD, 300, 40, 8, 120) :
					  rd(t += PERIOD, PERIOD, 300, 40, 32, 96);
			pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
			if (pages > was) {
				if (grows >= 2 && t - last_grow <= gap)
					gaps_grow = 0;
				if (grows)
					gap = t - last_grow;
				grows++;
				last_grow = t;
			}
		}
		check(grows >= 3 && grows <= 5 && gaps_grow && p.backoff >= 8,
		      "window: refuted returns to 64K back off (1, 2, 4 .. periods)", &p);
	}
}

/*
 * The clock wraps (the tuner's is 64-bit jiffies in ms, an unsigned long:
 * on 32-bit every 49.7 days): a backoff that ends after the wrap.
 */
static void test_clock_wrap(void)
{
	struct foliotune_fa_policy p;
	struct foliotune_fa_period d;
	unsigned long pages, t = ULONG_MAX - 3 * PERIOD;

	/* refuted before the wrap, the backoff ending before it too */
	foliotune_fa_policy_start(&p, false);
	d = rd(t += QUICK, QUICK, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, 1, 16, PERIOD, &d);
	d = rd(t += QUICK, QUICK, 200, 190, 4, 124);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	d = rd(t += QUICK, QUICK, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 1 && strstr(p.reason, "backing off") && p.grow_ok > t,
	      "clock wrap: a jump refuted before the wrap backs off", &p);
	t = p.grow_ok + PERIOD;
	d = rd(t, PERIOD, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(t < PERIOD && pages == 16 && !strcmp(p.decision, "grow"),
	      "clock wrap: ... and grows after the wrap once the backoff has ended", &p);

	/* refuted just before the wrap, the backoff ending after it */
	foliotune_fa_policy_start(&p, false);
	t = ULONG_MAX - PERIOD / 2;
	d = rd(t += QUICK, QUICK, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, 1, 16, PERIOD, &d);
	d = rd(t += QUICK, QUICK, 200, 190, 4, 124);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	d = rd(t += QUICK, QUICK, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(t < PERIOD && pages == 1 && strstr(p.reason, "backing off"),
	      "clock wrap: a backoff that ends after the wrap holds across it", &p);
	t = p.grow_ok;
	d = rd(t, PERIOD, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 16 && !strcmp(p.decision, "grow"),
	      "clock wrap: ... and grows when it ends", &p);

	/* a passed backoff is forgotten: half a wrap later it is not the future */
	foliotune_fa_policy_start(&p, false);
	t = 0;
	d = rd(t += QUICK, QUICK, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, 1, 16, PERIOD, &d);
	d = rd(t += QUICK, QUICK, 200, 190, 4, 124);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	d = rd(t += 3 * PERIOD, PERIOD, 20, 0, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	t += ULONG_MAX / 2 + PERIOD;
	d = rd(t, PERIOD, 200, 190, 0, 0);
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 16,
	      "clock wrap: a backoff that has passed does not come back half a wrap later", &p);
}

/* Exec faults read after the fault sum can outnumber it: nothing is judged. */
static void test_exec_faults(void)
{
	struct foliotune_fa_policy p;
	struct foliotune_fa_period d;
	unsigned long pages;

	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	d = rd(PERIOD, PERIOD, foliotune_fa_judged_faults(40, 41), 0, 0, 0);
	pages = foliotune_fa_policy_window(&p, 16, 16, PERIOD, &d);
	check(d.faults == 0 && pages == 16 && strstr(p.reason, "idle"),
	      "exec faults: more exec than read faults in a step judge none (hold, not random)", &p);
	check(foliotune_fa_judged_faults(300, 100) == 200,
	      "exec faults: otherwise left out of the read faults", &p);
}

/*
 * Large folios (Linux 7): fault-around maps a folio whole beyond the
 * window.  "Little used" with most pre-mapped pages beyond the window goes
 * to 4K at once (a halved window would map no less); with few beyond, it
 * halves as before.
 */
static void test_large_folios(void)
{
	struct foliotune_fa_policy p;
	struct foliotune_fa_period d;
	unsigned long pages;

	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	d = rd(PERIOD, PERIOD, 400, 100, 12, 116);	/* 3/32 used: little */
	d.mapped = 2048;
	d.beyond = 1024;
	pages = foliotune_fa_policy_window(&p, 8, 16, PERIOD, &d);
	d.now_ms += QUICK;
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 1 && strstr(p.reason, "beyond the window"),
	      "large folios: little used, half pre-mapped beyond the window: to 4K, no halving first", &p);

	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	d.now_ms = PERIOD;
	d.beyond = 1023;
	pages = foliotune_fa_policy_window(&p, 8, 16, PERIOD, &d);
	d.now_ms += QUICK;
	pages = foliotune_fa_policy_window(&p, pages, 16, PERIOD, &d);
	check(pages == 4, "large folios: less than half beyond the window: halves", &p);

	foliotune_fa_policy_start(&p, false);
	p.settled = true;
	d = rd(PERIOD, PERIOD, 400, 100, 24, 104);	/* 3/16 used: worth it */
	d.mapped = 2048;
	d.beyond = 2000;
	pages = foliotune_fa_policy_window(&p, 8, 16, PERIOD, &d);
	check(pages == 16, "large folios: a window worth its cost is not shrunk for them", &p);
}

int main(void)
{
	test_age();
	test_window(0);
	/* the same decisions with the clock wrapping about a third in */
	clock_note = " (clock wraps)";
	test_window(ULONG_MAX - 50 * PERIOD);
	clock_note = "";
	test_clock_wrap();
	test_exec_faults();
	test_large_folios();
	return failed;
}
