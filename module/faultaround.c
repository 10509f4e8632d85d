// SPDX-License-Identifier: GPL-2.0
/*
 * faultaround.c - the fault-around tuner's fault path.
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
 *  - keeps, per CPU, what the tuner's auto mode measures: where the last
 *    read fault was, and the usefulness sample (below).
 * Its knobs, the auto mode and the kernel's window: fa_tuner.c; the auto
 * mode's decisions: fa_policy.c.
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
 *                        (they are pre-mapped: without fault-around 6.12's
 *                        finish_fault() maps one page of a file folio;
 *                        Linux 7's maps them all, fa_fault_folio_pages).
 *                        For order-0 page cache it equals "PTEs of runs
 *                        where prefault".
 *   fa_pages_mapped_old  of those, mapped old: mkold 0: none (but the auto
 *                        mode's samples); 1: the ones in runs without the
 *                        faulting address; 2: all.
 *   fa_pages_beyond_window  of fa_pages_mapped, the ones outside the window
 *                        do_fault_around() asked for.  Linux 7's
 *                        filemap_map_folio_range() maps a large folio whole
 *                        when it lies in the VMA and one page table, though
 *                        only part of it is in the window; so one event may
 *                        map more than fault_around_pages PTEs, and a window
 *                        smaller than the file's folios maps no less.  Always
 *                        0 on 6.12.  (The window is worked out again from
 *                        fault_around_pages as do_fault_around() does; a
 *                        change of the window during a fault may count a
 *                        page on the wrong side.)
 *   fa_fault_folio_pages the PTEs a read fault mapped beside the faulting
 *                        page through finish_fault(), for its large folio
 *                        (Linux 7 maps the whole folio for any file VMA;
 *                        6.12 for anon shmem only).  Not fault-around: no
 *                        window limits them, fault_around_mkold leaves
 *                        them young (the faulting PTE makes the folio
 *                        referenced anyway) and the sample never sees them.
 *   fa_read_faults       read faults on file mappings that mapped PTEs
 *                        through set_pte_range() (fault-around or
 *                        finish_fault()), one per fault and CPU.
 *   fa_read_faults_exec  of those, faults on executable mappings: code,
 *                        faulted in where it is called, not where a
 *                        reader is; they are never near, never sampled,
 *                        and do not move the position of the data reader
 *                        on this CPU (the auto mode leaves them out).
 *   fa_read_faults_near  of the others, faults whose page lies within one
 *                        span (at least 4 pages) before or after the pages
 *                        the previous such read fault on this CPU mapped,
 *                        in the same file: a reader that moves on from
 *                        where the last window ended.
 *   fa_unmap_young_ptes, fa_unmap_old_ptes   see pte_run.h.
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
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mmzone.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rmap.h>
#include <linux/sched.h>
#include <linux/swap.h>

#include "kernel_syms.h"
#include "kcopy/memory_static.h"
#include "internal.h"
#include "faultaround.h"

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
 * around event on a non-executable mapping in FT_FA_SAMPLE_EVERY (every one when fault_around_mkold
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
	bool exec;		/* on an executable mapping: not judged */
	/* the last read fault not on an executable mapping: the reader */
	const struct file *r_file;
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
 * How many of the @nr PTEs from @addr (a fault-around run, in the faulting
 * address's page table) lie outside the window do_fault_around() asked
 * ->map_pages() to map: its own arithmetic, on fault_around_pages.
 */
static inline unsigned int ft_fa_beyond_window(const struct vm_fault *vmf,
					       unsigned long addr,
					       unsigned int nr)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long pages = max(READ_ONCE(fault_around_pages), 1UL);
	pgoff_t pte_off = pte_index(vmf->address);
	pgoff_t vma_off = vmf->pgoff - vma->vm_pgoff;
	pgoff_t from, to, first = pte_index(addr), last = first + nr - 1;
	pgoff_t lo, hi;

	from = max(ALIGN_DOWN(pte_off, pages), pte_off - min(pte_off, vma_off));
	to = min3(from + pages, (pgoff_t)PTRS_PER_PTE,
		  pte_off + vma_pages(vma) - vma_off) - 1;
	lo = max(first, from);
	hi = min(last, to);
	return hi >= lo ? nr - (hi - lo + 1) : nr;
}

/*
 * Counters for one set_pte_range() call of a read fault (see the top);
 * @new_fault: its first run on this CPU.
 */
static __always_inline void ft_fa_account(struct ft_fa_pcpu *c,
					  struct vm_fault *vmf,
					  unsigned long addr, unsigned int nr,
					  bool around, bool prefault, bool old,
					  bool new_fault, unsigned long nflt,
					  bool exec)
{
	const struct file *file = vmf->vma->vm_file;
	/* linear_page_index() without its hugetlb branch (never here) */
	pgoff_t lo = ((addr - vmf->vma->vm_start) >> PAGE_SHIFT) +
		     vmf->vma->vm_pgoff;

	if (around) {
		unsigned int mapped = nr - !prefault;
		unsigned int beyond = ft_fa_beyond_window(vmf, addr, nr);

		ft_add(FT_fa_pages_mapped, mapped);
		if (old)
			ft_add(FT_fa_pages_mapped_old, mapped);
		if (beyond)
			ft_add(FT_fa_pages_beyond_window, beyond);
	} else if (nr > 1) {
		ft_add(FT_fa_fault_folio_pages, nr - 1);
	}

	if (!new_fault) {
		/* A later run of the same fault: runs only grow the span. */
		if (!c->exec) {
			c->lo = min(c->lo, lo);
			c->hi = max(c->hi, lo + nr);
		}
		return;
	}
	ft_count(FT_fa_read_faults);
	if (around)
		ft_count(FT_fa_events);
	c->vmf = vmf;
	c->file = file;
	c->address = vmf->address;
	c->nflt = nflt;
	c->exec = exec;
	/* Code: not a reader's position, and it leaves the reader's alone. */
	if (exec) {
		ft_count(FT_fa_read_faults_exec);
		return;
	}
	if (file == c->r_file && ft_fa_adjacent(vmf->pgoff, c->lo, c->hi))
		ft_count(FT_fa_read_faults_near);
	c->r_file = file;
	c->lo = lo;
	c->hi = lo + nr;
}

/* set_pte_range() of this build, with foliotune's patch (module/kcopy/) */
#include "kcopy-gen/set_pte_range.c"
