// SPDX-License-Identifier: GPL-2.0
/*
 * faultaround.c - the fault-around tuner.
 *
 * On a read fault of a file mapping the kernel first lets ->map_pages()
 * (filemap_map_pages()) map the cached pages around the fault, up to
 * fault_around_pages, and on x86 every PTE it so "pre-maps" is young: to
 * reclaim, a page nobody touched looks as used as the one that faulted
 * (Vinayak Menon's 2016 report; Kirill Shutemov's pte_mkold patch; arm64's
 * arch_wants_old_prefaulted_pte() since v5.12).  This file:
 *
 *  - replaces set_pte_range() (mm/memory.c:5015-5047; called per run of
 *    PTEs by filemap_map_pages() and once by finish_fault()) with a copy
 *    that can map pre-mapped PTEs old and counts what fault-around maps;
 *  - sets the kernel's own window, the static fault_around_pages, directly
 *    (a livepatch relocation), with the kernel's rules;
 *  - has an auto mode that picks the window from feedback (below).
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
 * Counters (per cpu, include/foliotune.h):
 *   fa_events            fault-around calls (->map_pages from
 *                        do_fault_around()) that mapped at least one PTE.
 *                        set_pte_range() runs once per run of PTEs, so an
 *                        event is the first run of a fault on this CPU
 *                        (see ft_fa_account()).  A fault retried after
 *                        VM_FAULT_RETRY counts once (if it stays on its
 *                        CPU: a fault whose parts map on two CPUs counts
 *                        on each, here and in fa_read_faults).
 *   fa_pages_mapped      PTEs fault-around mapped other than the faulting
 *                        page: per page, not per run, so the siblings of
 *                        the faulting page in its large folio count too
 *                        (they are pre-mapped: without fault-around
 *                        finish_fault() maps one page of a file folio).
 *                        For order-0 page cache it equals "PTEs of runs
 *                        where prefault".
 *   fa_pages_mapped_old  of those, mapped old: mkold 0: none (but the auto
 *                        mode's samples); 1: the ones in runs without the
 *                        faulting address; 2: all.
 *   fa_read_faults       read faults on file mappings that mapped PTEs
 *                        through set_pte_range() (fault-around or
 *                        finish_fault()), one per fault and CPU.
 *   fa_read_faults_near  of those, faults whose page lies within one span
 *                        (at least 4 pages) before or after the pages the
 *                        previous read fault on this CPU mapped, in the
 *                        same file: a reader that moves on from where the
 *                        last window ended.
 *   fa_unmap_young_ptes, fa_unmap_old_ptes   see faultaround.h.
 *   fa_auto_changes      window changes the auto mode made.
 *   fa_auto_age_changes  age changes the auto mode made (young <-> old).
 *   fa_sample_used, fa_sample_unused   the auto mode's usefulness sample
 *                        (ft_fa_sample_begin()): PTEs it mapped old found
 *                        young / still old by the next read fault this CPU
 *                        mapped in the same page table.
 *   pgpgoutclean, pageref_*  reclaim_probes.c.
 *
 * Which caller: fault-around runs are the set_pte_range() calls of a read
 * fault (no FAULT_FLAG_WRITE) before ->fault() produced a page (vmf->page
 * is NULL: handle_mm_fault() zeroes the vm_fault, only __do_fault() sets
 * it, and do_read_fault() calls do_fault_around() first).  finish_fault()
 * always has vmf->page, or is a write (DAX COW).  The mkold modes apply to
 * fault-around runs only (finish_fault() never maps a prefault run; mode 2
 * does not split its anon-shmem folio runs).
 *
 * Cost per set_pte_range(): one load of the mode, one per-cpu record
 * compared with the fault (five loads), two to four per-cpu adds; with the
 * auto mode on, per fault-around event also the read-back of the pending
 * sample (at most one window of PTEs, in the page table already locked).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/cacheflush.h>
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/livepatch.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mmzone.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rmap.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "kernel_syms.h"
#include "kcopy/memory_static.h"
#include "internal.h"
#include "faultaround.h"
#include "fa_policy.h"

/* fault_around_mkold: read once per set_pte_range() call. */
static int foliotune_fa_mkold __read_mostly;
/* fault_around_auto is on: sample the usefulness of pre-mapped PTEs */
static bool foliotune_fa_sampling __read_mostly;

DEFINE_STATIC_KEY_FALSE(foliotune_fa_unmap_key);

/* ---- what each CPU remembers of the last read fault it mapped ---- */

/*
 * The PTL is held (preemption off) across every set_pte_range() call, so
 * this CPU's record cannot change under us.  A fault is identified by its
 * vm_fault (on the faulting task's stack), its address, its file and the
 * task's completed-fault count (min_flt + maj_flt, bumped by
 * mm_account_fault() after every fault that did not return
 * VM_FAULT_RETRY): the same stack slot and address seen again after a
 * munmap/mmap cycle is a new fault, a retry of the same fault is not.
 *
 * The usefulness sample (auto mode, see fa_policy.c): one fault-
 * around event in FT_FA_SAMPLE_EVERY (every one when fault_around_mkold
 * already maps them old) maps its pre-mapped PTEs old and remembers their
 * slots in that page table; the next read fault this CPU maps in the same
 * page table reads those PTEs back (under that table's PTL, which it
 * holds): young ones were used since, old ones not.  Only the current,
 * locked table is ever read (the sample is identified by its mm and the
 * table's address), so a stale sample costs accuracy, never safety.
 */
#define FT_FA_SAMPLE_EVERY	8

struct ft_fa_pcpu {
	const struct vm_fault *vmf;
	const struct file *file;
	unsigned long address;
	unsigned long nflt;
	pgoff_t lo, hi;		/* file pages mapped for it: [lo, hi) */
	unsigned int events;	/* fault-around events, for the sampling */
	bool sampling;		/* this fault's pre-mapped PTEs are the sample */
	/* the sample: slots of one page table that one event mapped old */
	const struct mm_struct *s_mm;
	const pte_t *s_table;	/* that table's first PTE */
	unsigned int s_nr;	/* slots set in s_slots */
	DECLARE_BITMAP(s_slots, PTRS_PER_PTE);
};
static DEFINE_PER_CPU(struct ft_fa_pcpu, ft_fa_pcpu);

/*
 * @pgoff lies within one span before [lo, hi) or after it; the span is at
 * least 4 pages, so a strided reader at a 4K window (span 1) still reads
 * as one that moves on from where the last fault was.
 */
static inline bool ft_fa_adjacent(pgoff_t pgoff, pgoff_t lo, pgoff_t hi)
{
	pgoff_t span = max_t(pgoff_t, hi - lo, 4);

	if (pgoff >= hi)
		return pgoff - hi < span;
	return pgoff < lo && lo - pgoff <= span;
}

static inline bool ft_fa_same_fault(const struct ft_fa_pcpu *c,
				    const struct vm_fault *vmf,
				    const struct file *file, unsigned long nflt)
{
	return c->vmf == vmf && c->address == vmf->address &&
	       c->nflt == nflt && c->file == file;
}

/* Slot of @addr in its page table. */
static inline unsigned int ft_fa_slot(unsigned long addr)
{
	return (addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1);
}

/*
 * First run of a new fault-around event, PTL of vmf->pte's table held:
 * read back the pending sample if it lies in this table, then decide
 * whether this event is the next sample.  @addr: the run's first address
 * (vmf->pte maps it).
 */
static void ft_fa_sample_begin(struct ft_fa_pcpu *c, struct vm_fault *vmf,
			       unsigned long addr, int mkold)
{
	const pte_t *table = vmf->pte - ft_fa_slot(addr);
	unsigned int used = 0, unused = 0, i;
	pte_t pte;

	if (c->s_nr && c->s_mm == vmf->vma->vm_mm && c->s_table == table) {
		for_each_set_bit(i, c->s_slots, PTRS_PER_PTE) {
			pte = ptep_get((pte_t *)table + i);
			if (!pte_present(pte))
				continue;	/* unmapped since */
			if (pte_young(pte))
				used++;
			else
				unused++;
		}
		ft_add(FT_fa_sample_used, used);
		ft_add(FT_fa_sample_unused, unused);
		c->s_nr = 0;
	}
	c->sampling = mkold || !(++c->events % FT_FA_SAMPLE_EVERY);
	if (c->sampling) {
		bitmap_zero(c->s_slots, PTRS_PER_PTE);
		c->s_mm = vmf->vma->vm_mm;
		c->s_table = table;
		c->s_nr = 0;
	}
}

/* A prefault run of the sampled event, mapped old. */
static void ft_fa_sample_add(struct ft_fa_pcpu *c, struct vm_fault *vmf,
			     unsigned long addr, unsigned int nr)
{
	unsigned int slot = ft_fa_slot(addr);

	/* one event never leaves its page table (do_fault_around()) */
	if (vmf->pte - slot != c->s_table || slot + nr > PTRS_PER_PTE)
		return;
	bitmap_set(c->s_slots, slot, nr);
	c->s_nr += nr;
}

/*
 * Counters for one set_pte_range() call of a read fault (see the top);
 * @new_fault: its first run on this CPU.
 */
static __always_inline void ft_fa_account(struct ft_fa_pcpu *c,
					  struct vm_fault *vmf,
					  unsigned long addr, unsigned int nr,
					  bool around, bool prefault, bool old,
					  bool new_fault, unsigned long nflt)
{
	const struct file *file = vmf->vma->vm_file;
	/* linear_page_index() without its hugetlb branch (never here) */
	pgoff_t lo = ((addr - vmf->vma->vm_start) >> PAGE_SHIFT) +
		     vmf->vma->vm_pgoff;

	if (around) {
		unsigned int mapped = nr - !prefault;

		ft_add(FT_fa_pages_mapped, mapped);
		if (old)
			ft_add(FT_fa_pages_mapped_old, mapped);
	}

	if (!new_fault) {
		/* A later run of the same fault: runs only grow the span. */
		c->lo = min(c->lo, lo);
		c->hi = max(c->hi, lo + nr);
		return;
	}
	ft_count(FT_fa_read_faults);
	if (around)
		ft_count(FT_fa_events);
	if (file == c->file && ft_fa_adjacent(vmf->pgoff, c->lo, c->hi))
		ft_count(FT_fa_read_faults_near);
	c->vmf = vmf;
	c->file = file;
	c->address = vmf->address;
	c->nflt = nflt;
	c->lo = lo;
	c->hi = lo + nr;
}

/**
 * foliotune_set_pte_range - Set a range of PTEs to point to pages in a folio.
 * @vmf: Fault decription.
 * @folio: The folio that contains @page.
 * @page: The first page to create a PTE for.
 * @nr: The number of PTEs to create.
 * @addr: The first address to create a PTE for.
 *
 * foliotune: set_pte_range() of mm/memory.c, renamed (lines 5007-5047 of
 * linux-source-6.12 6.12.117-1~deb12u1; scripts/kernels/verify.sh proves it
 * equal, the "foliotune:" changes aside, to the source of every build in
 * module/verified/); it replaces set_pte_range() through livepatch.  With
 * fault_around_mkold = 0 and fault_around_auto = 0 every PTE is what the
 * stock function writes.
 */
void foliotune_set_pte_range(struct vm_fault *vmf, struct folio *folio,
		struct page *page, unsigned int nr, unsigned long addr)
{
	struct vm_area_struct *vma = vmf->vma;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	bool prefault = !in_range(vmf->address, addr, nr * PAGE_SIZE);
	pte_t entry;
	/* foliotune: the modes, read once, who called, and this CPU's record */
	const int mkold = READ_ONCE(foliotune_fa_mkold);
	const bool around = !write && !vmf->page;
	struct ft_fa_pcpu *c = NULL;
	unsigned long nflt = 0;
	bool new_fault = false, sample = false, old_run;

	/* foliotune: this CPU's record; the auto mode's sample (see the top) */
	if (!write) {
		c = this_cpu_ptr(&ft_fa_pcpu);
		nflt = current->min_flt + current->maj_flt;
		new_fault = !ft_fa_same_fault(c, vmf, vma->vm_file, nflt);
		if (around && READ_ONCE(foliotune_fa_sampling)) {
			if (new_fault)
				ft_fa_sample_begin(c, vmf, addr, mkold);
			sample = c->sampling && prefault;
		}
	}
	/* foliotune: mapped old here (see below), also counted so */
	old_run = prefault && (mkold || sample);

	flush_icache_pages(vma, page, nr);
	entry = mk_pte(page, vma->vm_page_prot);

	if (prefault && arch_wants_old_prefaulted_pte())
		entry = pte_mkold(entry);
	else
		entry = pte_sw_mkyoung(entry);
	/*
	 * foliotune: mkold >= 1, what arm64 does: a run that does not map the
	 * faulting address is old (x86's vm_page_prot has _PAGE_ACCESSED, and
	 * pte_sw_mkyoung() above is the identity).  So is a sampled one.
	 */
	if (old_run)
		entry = pte_mkold(entry);

	if (write)
		entry = maybe_mkwrite(pte_mkdirty(entry), vma);
	if (unlikely(vmf_orig_pte_uffd_wp(vmf)))
		entry = pte_mkuffd_wp(entry);
	/* copy-on-write page */
	if (write && !(vma->vm_flags & VM_SHARED)) {
		VM_BUG_ON_FOLIO(nr != 1, folio);
		folio_add_new_anon_rmap(folio, vma, addr, RMAP_EXCLUSIVE);
		folio_add_lru_vma(folio, vma);
	} else {
		folio_add_file_rmap_ptes(folio, page, nr, vma);
	}
	/*
	 * foliotune: mkold = 2 and this fault-around run maps the faulting
	 * address: only that PTE is young.  The same nr PTEs, stored in the
	 * same order as one set_ptes() would, in up to three calls (old
	 * before, young faulting page, old after); the rmap above was added
	 * once for the run and the update_mmu_cache_range() below covers it
	 * all once every PTE is in place (a no-op on x86; elsewhere it may
	 * preload the TLB from the PTEs, which must then be final).
	 */
	if (mkold == 2 && around && !prefault && nr > 1) {
		unsigned int before = (vmf->address - addr) >> PAGE_SHIFT;
		unsigned int after = nr - before - 1;
		pte_t old = pte_mkold(entry);

		if (before)
			set_ptes(vma->vm_mm, addr, vmf->pte, old, before);
		set_ptes(vma->vm_mm, vmf->address, vmf->pte + before,
			 pte_advance_pfn(entry, before), 1);
		if (after)
			set_ptes(vma->vm_mm, vmf->address + PAGE_SIZE,
				 vmf->pte + before + 1,
				 pte_advance_pfn(old, before + 1), after);
	} else {
		set_ptes(vma->vm_mm, addr, vmf->pte, entry, nr);
	}

	/* no need to invalidate: a not-present page won't be cached */
	update_mmu_cache_range(vmf, vma, addr, vmf->pte, nr);

	/* foliotune: fault-around and read-fault counters, the sample */
	if (sample)
		ft_fa_sample_add(c, vmf, addr, nr);
	if (!write)
		ft_fa_account(c, vmf, addr, nr, around, prefault,
			      mkold == 2 || old_run,
			      new_fault, nflt);
}

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
	FT_IN_pgpgoutclean, FT_IN_sample_used, FT_IN_sample_unused, FT_IN_NR
};

static const char * const ft_fa_input_names[FT_IN_NR] = {
	"fa_read_faults", "fa_read_faults_near", "fa_events", "fa_pages_mapped",
	"fa_pages_mapped_old", "fa_unmap_young_ptes", "fa_unmap_old_ptes",
	"pgscan_file", "pgsteal_file", "allocstall", "workingset_refault_file",
	"pgpgoutclean", "fa_sample_used", "fa_sample_unused",
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
	.max_pages = SZ_64K >> PAGE_SHIFT,
	.period_ms = 1000,
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

	all_vm_events(ev);
	v[FT_IN_pgscan_file] = ev[PGSCAN_FILE];
	v[FT_IN_pgsteal_file] = ev[PGSTEAL_FILE];
	v[FT_IN_allocstall] = 0;
	/* vmstat.h __count_zid_vm_events(): one ALLOCSTALL item per zone */
	for (zid = 0; zid < MAX_NR_ZONES; zid++)
		v[FT_IN_allocstall] += ev[ALLOCSTALL_NORMAL - ZONE_NORMAL + zid];
	v[FT_IN_refault_file] = global_node_page_state(WORKINGSET_REFAULT_FILE);
}

static void ft_fa_auto_record(unsigned long from, unsigned long to)
{
	unsigned int i = ft_fa_auto.hist_next++ % FT_FA_AUTO_HIST;
	const unsigned long *d = ft_fa_auto.delta;

	ft_fa_auto.hist[i].jiffies = jiffies;
	ft_fa_auto.hist[i].from = from;
	ft_fa_auto.hist[i].to = to;
	ft_fa_auto.hist[i].faults = d[FT_IN_faults];
	ft_fa_auto.hist[i].near = d[FT_IN_near];
	ft_fa_auto.hist[i].events = d[FT_IN_events];
	ft_fa_auto.hist[i].used = d[FT_IN_sample_used];
	ft_fa_auto.hist[i].unused = d[FT_IN_sample_unused];
	ft_fa_auto.hist[i].decision = ft_fa_auto.policy.decision;
	ft_fa_auto.hist[i].old = ft_fa_auto.policy.old;
}

static void ft_fa_auto_step_locked(void)
{
	unsigned long now[FT_IN_NR], *d = ft_fa_auto.delta;
	unsigned long pages = READ_ONCE(fault_around_pages), target;
	unsigned long now_ms = jiffies_to_msecs(jiffies);
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
		.faults = d[FT_IN_faults],
		.near = d[FT_IN_near],
		.used = d[FT_IN_sample_used],
		.unused = d[FT_IN_sample_unused],
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
	ft_fa_auto_record(pages, target);
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

static u64 ft_fa_bytes_get(struct ft_knob *knob)
{
	return (u64)READ_ONCE(fault_around_pages) << PAGE_SHIFT;
}

static int ft_fa_bytes_set(struct ft_knob *knob, u64 val)
{
	unsigned long pages;
	int ret;

	ret = ft_fa_bytes_to_pages(val, &pages);
	if (ret)
		return ret;
	mutex_lock(&ft_fa_lock);
	if (ft_fa_live) {
		ft_fa_auto_stop_locked(false, "fault_around_bytes written");
		ft_fa_store_locked(pages);
		ft_fa_update_key_locked();
	} else {
		ret = -ENODEV;
	}
	mutex_unlock(&ft_fa_lock);
	return ret;
}

static u64 ft_fa_mkold_get(struct ft_knob *knob)
{
	return READ_ONCE(foliotune_fa_mkold);
}

static int ft_fa_mkold_set(struct ft_knob *knob, u64 val)
{
	int ret = 0;

	mutex_lock(&ft_fa_lock);
	if (ft_fa_live) {
		/* root's choice: the auto mode stops deciding the age */
		ft_fa_age_end_locked(false);
		ft_fa_auto.age = false;
		WRITE_ONCE(foliotune_fa_mkold, (int)val);
		ft_fa_update_key_locked();
	} else {
		ret = -ENODEV;
	}
	mutex_unlock(&ft_fa_lock);
	return ret;
}

static u64 ft_fa_auto_get(struct ft_knob *knob)
{
	return READ_ONCE(ft_fa_auto.on);
}

static int ft_fa_auto_set(struct ft_knob *knob, u64 val)
{
	int ret = 0;

	mutex_lock(&ft_fa_lock);
	if (!ft_fa_live) {
		ret = -ENODEV;
	} else if (val && !ft_fa_auto.on) {
		ft_fa_auto.saved_pages = READ_ONCE(fault_around_pages);
		ft_fa_auto_sample(ft_fa_auto.prev);
		memset(ft_fa_auto.delta, 0, sizeof(ft_fa_auto.delta));
		ft_fa_auto.last_step_ms = jiffies_to_msecs(jiffies);
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
	ft_fa_update_key_locked();
	mutex_unlock(&ft_fa_lock);
	return ret;
}

static u64 ft_fa_auto_max_get(struct ft_knob *knob)
{
	return (u64)READ_ONCE(ft_fa_auto.max_pages) << PAGE_SHIFT;
}

static int ft_fa_auto_max_set(struct ft_knob *knob, u64 val)
{
	unsigned long pages;
	int ret;

	ret = ft_fa_bytes_to_pages(val, &pages);
	if (ret)
		return ret;
	mutex_lock(&ft_fa_lock);
	if (ft_fa_live)
		WRITE_ONCE(ft_fa_auto.max_pages, pages);	/* next period */
	else
		ret = -ENODEV;
	mutex_unlock(&ft_fa_lock);
	return ret;
}

static u64 ft_fa_auto_period_get(struct ft_knob *knob)
{
	return READ_ONCE(ft_fa_auto.period_ms);
}

static int ft_fa_auto_period_set(struct ft_knob *knob, u64 val)
{
	int ret = 0;

	mutex_lock(&ft_fa_lock);
	if (ft_fa_live)
		WRITE_ONCE(ft_fa_auto.period_ms, (unsigned int)val); /* next requeue */
	else
		ret = -ENODEV;
	mutex_unlock(&ft_fa_lock);
	return ret;
}

static u64 ft_fa_auto_age_get(struct ft_knob *knob)
{
	return READ_ONCE(ft_fa_auto.age);
}

static int ft_fa_auto_age_set(struct ft_knob *knob, u64 val)
{
	int ret = 0;

	mutex_lock(&ft_fa_lock);
	if (!ft_fa_live) {
		ret = -ENODEV;
	} else if (val) {
		ft_fa_auto.age = true;
		ft_fa_age_begin_locked();	/* now if the auto mode is on */
	} else {
		ft_fa_age_end_locked(true);
		ft_fa_auto.age = false;
	}
	ft_fa_update_key_locked();
	mutex_unlock(&ft_fa_lock);
	return ret;
}

static struct ft_knob ft_fa_knobs[] = {
	{
		.name = "fault_around_bytes",
		.min = 0,
		.max = U64_MAX,		/* the kernel's rules: ft_fa_bytes_to_pages() */
		.get = ft_fa_bytes_get,
		.set = ft_fa_bytes_set,
	},
	{
		.name = "fault_around_mkold",
		.min = 0,
		.max = 2,
		.get = ft_fa_mkold_get,
		.set = ft_fa_mkold_set,
	},
	{
		.name = "fault_around_auto",
		.min = 0,
		.max = 1,
		.get = ft_fa_auto_get,
		.set = ft_fa_auto_set,
	},
	{
		.name = "fault_around_auto_max_bytes",
		.min = 0,
		.max = U64_MAX,		/* as fault_around_bytes */
		.get = ft_fa_auto_max_get,
		.set = ft_fa_auto_max_set,
	},
	{
		.name = "fault_around_auto_period_ms",
		.min = FOLIOTUNE_FA_PERIOD_MIN_MS,
		.max = FOLIOTUNE_FA_PERIOD_MAX_MS,
		.get = ft_fa_auto_period_get,
		.set = ft_fa_auto_period_set,
	},
	{
		.name = "fault_around_auto_age",
		.min = 0,
		.max = 1,
		.get = ft_fa_auto_age_get,
		.set = ft_fa_auto_age_set,
	},
};

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
	seq_printf(m, "periods %lu\n", p->steps);
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
	/* "step MS_AGO FROM_BYTES TO_BYTES DECISION FAULTS NEAR EVENTS USED UNUSED OLD" */
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
	int i;

	for (i = 0; i < ARRAY_SIZE(ft_fa_knobs); i++)
		foliotune_knob_create(dir, &ft_fa_knobs[i]);
	debugfs_create_file(FOLIOTUNE_AUTO_STATE_FILE, 0444, dir, NULL,
			    &ft_fa_auto_state_fops);
}

/* Idempotent: the unpatch callbacks normally did it already. */
void foliotune_fa_exit(void)
{
	ft_fa_deactivate();
}
