// SPDX-License-Identifier: GPL-2.0
/*
 * referenced.c - batched folio_referenced_one(), the livepatch replacement.
 *
 * foliotune_folio_referenced_one() is folio_referenced_one() of mm/rmap.c
 * with every branch kept, made from the build's own source with the patch
 * module/kcopy/patches.list picks (kcopy-gen/folio_referenced_one.c,
 * included below; make kcopy shows it; every change is marked
 * "foliotune:").  This file holds what the copy calls: the arm of a call
 * (knob referenced_batch), the run one iteration tests, its accessed-bit
 * test (classic LRU and MGLRU), and the run's counters.  What is batched
 * and why the decision cannot change: docs/batching.md; what each counter
 * counts: docs/counters.md.
 */

/* The includes of mm/rmap.c that the copied code needs, in its order. */
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/oom.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>
#include <linux/mmu_notifier.h>
#include <linux/huge_mm.h>
#include <linux/mm_inline.h>
#include <linux/page_idle.h>
#include <linux/debugfs.h>
#include <linux/log2.h>

#include "kernel_syms.h"
#include "kcopy/tlbflush_hidden.h"
#include "kcopy/rmap_static.h"
#include "internal.h"
/* x86's ptep_clear_flush_young() of this build, as static copies (kcopy) */
#include "kcopy-gen/pgtable_young.c"
#include "rmap_one.h"
#include "lru_gen.h"

/* Knob referenced_batch: the arm (FOLIOTUNE_ARMS), foliotune's by default. */
static int ft_referenced_batch __read_mostly =
	FT_KNOB_DEFAULT_referenced_batch;
FT_KNOB_VAR(referenced_batch, ft_referenced_batch);

/*
 * foliotune: the arm of one call, read once, so that a call running when
 * the knob flips finishes in its old arm.  While referenced_batch is not 1,
 * referenced_batches, _batched_ptes, _lru_gen_batches and order1..9 do not
 * move, and referenced_nobatch_off moves only then.
 */
static inline int ft_referenced_arm(void)
{
	return READ_ONCE(ft_referenced_batch);
}

static inline void ft_referenced_call(int arm)
{
	ft_count(FT_referenced_calls);
	if (arm == FOLIOTUNE_ARM_KERNEL)
		ft_count(FT_referenced_calls_kernel);
	else if (arm == FOLIOTUNE_ARM_PTE)
		ft_count(FT_referenced_calls_pte);
}

#if FT_LINUX7
/*
 * folio_pte_batch() of foliotune's runs: dirty, soft-dirty, writable and
 * accessed may differ; *@any_young: whether any PTE of the run is young.
 */
static inline unsigned int ft_folio_pte_batch_young(struct folio *folio,
						    unsigned long addr,
						    pte_t *ptep, pte_t pte,
						    unsigned int max_nr,
						    bool *any_young)
{
	unsigned int nr = folio_pte_batch_flags(folio, NULL, ptep, &pte,
						max_nr, FPB_MERGE_YOUNG_DIRTY);

	*any_young = pte_young(pte);	/* the first PTE's and the merged */
	return nr;
}

/* Linux 7's look-around takes the run's length: one PTE here. */
#define ft_look_around(pvmw)	lru_gen_look_around(pvmw, 1)
#else
static inline unsigned int ft_folio_pte_batch_young(struct folio *folio,
						    unsigned long addr,
						    pte_t *ptep, pte_t pte,
						    unsigned int max_nr,
						    bool *any_young)
{
	unsigned int nr = folio_pte_batch(folio, addr, ptep, pte, max_nr,
					  FPB_IGNORE_DIRTY | FPB_IGNORE_SOFT_DIRTY,
					  NULL, any_young, NULL);

	/* folio_pte_batch()'s any_young leaves out the PTE it was handed */
	*any_young |= pte_young(pte);
	return nr;
}

#define ft_look_around(pvmw)	lru_gen_look_around(pvmw)
#endif

/*
 * foliotune: how many PTEs, starting at pvmw->pte, this iteration tests in
 * arm 1 (foliotune's) or 2 (one at a time; and 0 on 6.12).  1 selects the
 * kernel's code with one PTE; then *@why names the counter to bump.  Above
 * 1, *@why names the walk: FT_referenced_batches (classic LRU) or
 * FT_referenced_lru_gen_batches (MGLRU).  A run stays inside one page
 * table, the VMA, the walk's range for this folio (so
 * page_vma_mapped_walk() may go on from its last PTE) and the folio
 * (folio_pte_batch()).  Dirty, soft-dirty, writable and accessed may differ
 * within a run; nothing else about a PTE matters to the young test.
 * *@any_young: whether that pass found an accessed bit set in the run
 * (meaningful only above 1).
 */
static unsigned int ft_referenced_pte_batch(struct folio *folio,
					    struct page_vma_mapped_walk *pvmw,
					    int arm,
					    enum foliotune_counter *why,
					    bool *any_young)
{
	struct vm_area_struct *vma = pvmw->vma;
	unsigned long addr = pvmw->address;
	unsigned long end_addr, max_nr;
	bool lru_gen;
	unsigned int nr;
	pte_t pte;

	if (!pvmw->pte) {
		*why = FT_referenced_pmds;
		return 1;
	}
	if (folio_test_hugetlb(folio)) {
		*why = FT_referenced_nobatch_hugetlb;
		return 1;
	}
	if (!folio_test_large(folio)) {
		*why = FT_referenced_nobatch_small;
		return 1;
	}
	if (arm != FOLIOTUNE_ARM_FOLIOTUNE) {
		*why = FT_referenced_nobatch_off;
		return 1;
	}
	/* MGLRU asks a secondary MMU about every PTE: those calls, then. */
	lru_gen = ft_lru_gen_walk();
	if (lru_gen && mm_has_notifiers(vma->vm_mm)) {
		*why = FT_referenced_nobatch_lru_gen;
		return 1;
	}

	*why = FT_referenced_nobatch_partial;
	pte = ptep_get(pvmw->pte);
	if (!pte_present(pte))
		return 1;
	end_addr = min(pmd_addr_end(addr, vma->vm_end), vma_address_end(pvmw));
	if (end_addr <= addr)
		return 1;
	max_nr = (end_addr - addr) >> PAGE_SHIFT;
	max_nr = min_t(unsigned long, max_nr,
		       folio_pfn(folio) + folio_nr_pages(folio) - pte_pfn(pte));
	if (max_nr < 2)
		return 1;
	nr = ft_folio_pte_batch_young(folio, addr, pvmw->pte, pte, max_nr,
				      any_young);
	if (nr > 1)
		*why = lru_gen ? FT_referenced_lru_gen_batches :
				 FT_referenced_batches;
	return nr;
}

/*
 * foliotune: ptep_clear_flush_young_notify() for @nr PTEs: the same
 * ptep_clear_flush_young() on each (the build's, copied to be inlined:
 * ft_ptep_clear_flush_young()), then the secondary MMUs once for the
 * whole range (their handlers test every page of it, as nr page-sized calls
 * would).  With !@any_young (folio_pte_batch() found every accessed bit
 * clear, PTL held) the per-PTE calls are skipped: on an old PTE x86's
 * ptep_clear_flush_young() reads the bit, finds it clear and does nothing
 * else.  Returns the number of PTEs found young; *@young is whether the run
 * counts as referenced.
 */
static unsigned int ft_clear_flush_young_ptes_notify(struct vm_area_struct *vma,
						     unsigned long addr,
						     pte_t *ptep,
						     unsigned int nr,
						     bool any_young,
						     bool *young)
{
	unsigned int i, n = 0;

	for (i = 0; any_young && i < nr; i++)
		if (ft_ptep_clear_flush_young(vma, addr + i * PAGE_SIZE,
					      ptep + i))
			n++;
	*young = mmu_notifier_clear_flush_young(vma->vm_mm, addr,
						addr + nr * PAGE_SIZE);
	*young |= n > 0;
	return n;
}

/*
 * foliotune: MGLRU's branch (lru_gen_look_around() per PTE) for a run of
 * @nr PTEs at pvmw->pte, of an mm without MMU notifiers: the look-around at
 * each PTE that is young when the walk gets to it, in order (a look-around
 * clears its neighbours' accessed bits, this folio's later PTEs included).
 * On an old PTE stock's call would find the bit clear and return false.
 * pvmw comes back as it went in.  Returns the calls that returned true
 * (PTEs found young); *@young is whether the run counts as referenced.
 */
static unsigned int ft_look_around_ptes(struct page_vma_mapped_walk *pvmw,
					unsigned int nr, bool *young)
{
	pte_t *ptep = pvmw->pte;
	unsigned long addr = pvmw->address;
	unsigned int i, n = 0;

	for (i = 0; i < nr; i++) {
		if (!pte_young(ptep_get(ptep + i)))
			continue;
		pvmw->pte = ptep + i;
		pvmw->address = addr + i * PAGE_SIZE;
		if (ft_look_around(pvmw))
			n++;
	}
	pvmw->pte = ptep;
	pvmw->address = addr;
	*young = n > 0;
	return n;
}

/*
 * foliotune: the accessed-bit test of a run of @nr PTEs at pvmw->pte, by the
 * walk ft_referenced_pte_batch() named in @walk, which also found whether
 * any of the run's accessed bits is set (@any_young).  A run found all old
 * is not read again: under MGLRU no look-around is due, under the classic
 * LRU only the secondary MMUs are asked.  Returns the PTEs found young;
 * *@young is whether the run counts as referenced.
 */
static unsigned int ft_referenced_young_ptes(struct page_vma_mapped_walk *pvmw,
					     unsigned int nr,
					     enum foliotune_counter walk,
					     bool any_young,
					     bool *young)
{
	if (walk == FT_referenced_lru_gen_batches) {
		*young = false;
		return any_young ? ft_look_around_ptes(pvmw, nr, young) : 0;
	}
	return ft_clear_flush_young_ptes_notify(pvmw->vma, pvmw->address,
						pvmw->pte, nr, any_young,
						young);
}

/*
 * foliotune: counters for one iteration of the kernel's own arm (Linux 7),
 * the referenced_kernel_* set, which leaves @why unset: its run is named
 * from @nr, the folio and the walk; @young is then whether it found the
 * run referenced (referenced_kernel_young_runs, at most its batches and
 * singles less the mlocked ones).  (1)-(4) and (7) of
 * ft_referenced_account() hold for this set too, (3) without hugetlb.
 */
static void ft_referenced_kernel_account(struct folio *folio,
					 struct page_vma_mapped_walk *pvmw,
					 unsigned int nr,
					 enum foliotune_counter why,
					 unsigned int young)
{
	BUILD_BUG_ON(FT_referenced_kernel_batch_order9 !=
		     FT_referenced_kernel_batch_order0 + 9);

	if (why != FT_referenced_nobatch_mlock && !pvmw->pte) {
		ft_count(FT_referenced_pmds);
		return;
	}
	if (young)
		ft_add(FT_referenced_kernel_young_runs, young);
	if (nr > 1) {
		ft_count(FT_referenced_kernel_batches);
		if (ft_lru_gen_walk())
			ft_count(FT_referenced_kernel_lru_gen_batches);
		ft_add(FT_referenced_kernel_batched_ptes, nr);
		ft_count(FT_referenced_kernel_batch_order0 + min(ilog2(nr), 9));
		return;
	}
	ft_count(FT_referenced_kernel_single_ptes);
	if (why == FT_referenced_nobatch_mlock)
		why = FT_referenced_kernel_nobatch_mlock;
	else if (!folio_test_large(folio))
		why = FT_referenced_kernel_nobatch_small;
	else
		why = FT_referenced_kernel_nobatch_partial;
	ft_count(why);
	if (why != FT_referenced_kernel_nobatch_small)
		ft_count(FT_referenced_kernel_batch_order0);
}

/*
 * foliotune: counters for one iteration: the run of @nr PTEs, or a PMD
 * mapping (referenced_pmds, in every arm).  Exact when read while no
 * folio_referenced_one() runs:
 *   (1) sum(referenced_nobatch_*) == referenced_single_ptes: one reason
 *       per PTE done alone, the first match (ft_referenced_pte_batch())
 *   (2) sum(referenced_batch_order1..9) == referenced_batches
 *   (3) referenced_batch_order0 == referenced_single_ptes
 *       - referenced_nobatch_small - referenced_nobatch_hugetlb
 *   (4) 2 * referenced_batches <= referenced_batched_ptes
 *                              <= 512 * referenced_batches
 *   (5) referenced_young_ptes <= referenced_batched_ptes
 *       + referenced_single_ptes - referenced_nobatch_mlock
 *   (7) referenced_lru_gen_batches <= referenced_batches
 * ((6) is ft_referenced_arm()'s.)
 */
static void ft_referenced_account(int arm, struct folio *folio,
				  struct page_vma_mapped_walk *pvmw,
				  unsigned int nr, enum foliotune_counter why,
				  unsigned int young)
{
	BUILD_BUG_ON(FT_referenced_batch_order9 !=
		     FT_referenced_batch_order0 + 9);

	if (FT_LINUX7 && arm == FOLIOTUNE_ARM_KERNEL) {
		ft_referenced_kernel_account(folio, pvmw, nr, why, young);
		return;
	}
	if (why == FT_referenced_pmds) {
		ft_count(FT_referenced_pmds);
		return;
	}
	if (young)
		ft_add(FT_referenced_young_ptes, young);
	if (nr > 1) {
		ft_count(FT_referenced_batches);
		if (why == FT_referenced_lru_gen_batches)
			ft_count(why);
		ft_add(FT_referenced_batched_ptes, nr);
		ft_count(FT_referenced_batch_order0 + min(ilog2(nr), 9));
		return;
	}
	ft_count(FT_referenced_single_ptes);
	ft_count(why);
	if (why != FT_referenced_nobatch_small &&
	    why != FT_referenced_nobatch_hugetlb)
		ft_count(FT_referenced_batch_order0);
}

/*
 * folio_referenced_one() of this build, with foliotune's patch
 * (module/kcopy/).  pra->mapcount, pra->referenced and pra->vm_flags come
 * out as stock leaves them: the per-call local "referenced" is only ever
 * tested for zero, and mapcount drops by one per PTE either way.  On 6.12
 * an iteration of nr = 1 is the stock one: "pra->mapcount -= 1" is
 * "pra->mapcount--".
 */
#include "kcopy-gen/folio_referenced_one.c"
