// SPDX-License-Identifier: GPL-2.0
/*
 * unmap.c - batched try_to_unmap_one(), the livepatch replacement.
 *
 * foliotune_try_to_unmap_one() is try_to_unmap_one() of mm/rmap.c with
 * every branch kept, made from the build's own source with the patch
 * module/kcopy/patches.list picks (kcopy-gen/try_to_unmap_one.c, included
 * below; make kcopy shows it; every change is marked "foliotune:").  This
 * file holds what the copy calls: the arm of a call (knob unmap_batch), the
 * run one iteration unmaps, and the run's counters.  What is batched and
 * why: docs/batching.md; what each counter counts: docs/counters.md.
 */

/* The includes of mm/rmap.c that the copied code needs, in its order. */
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/rmap.h>
#include <linux/mmu_notifier.h>
#include <linux/hugetlb.h>
#include <linux/huge_mm.h>
#include <linux/userfaultfd_k.h>
#include <linux/mm_inline.h>
#include <linux/debugfs.h>
#include <linux/log2.h>

/* Before <asm/tlb.h>: declares flush_tlb_mm_range(), hidden from modules. */
#include "kernel_syms.h"
#include <asm/tlb.h>

#include "kcopy/tlbflush_hidden.h"
#include "kcopy/rmap_static.h"
#include "internal.h"
#include "pte_run.h"
#include "rmap_one.h"

/* Knob unmap_batch: the arm (FOLIOTUNE_ARMS), foliotune's by default. */
static int ft_unmap_batch __read_mostly = FT_KNOB_DEFAULT_unmap_batch;
FT_KNOB_VAR(unmap_batch, ft_unmap_batch);

/*
 * foliotune: the arm of one call, read once, so that a call running when
 * the knob flips finishes in its old arm.  While unmap_batch is not 1,
 * unmap_batches, unmap_batched_ptes and order1..9 do not move, and
 * unmap_nobatch_off moves only then.
 */
static inline int ft_unmap_arm(void)
{
	return READ_ONCE(ft_unmap_batch);
}

/* unmap_aborts <= unmap_calls: a call aborts at most once. */
static inline void ft_unmap_call(int arm)
{
	ft_count(FT_unmap_calls);
	if (arm == FOLIOTUNE_ARM_KERNEL)
		ft_count(FT_unmap_calls_kernel);
	else if (arm == FOLIOTUNE_ARM_PTE)
		ft_count(FT_unmap_calls_pte);
}

#if FT_LINUX7
/* The kernel's static helpers of try_to_unmap_one() (module/kcopy/). */
#include "kcopy-gen/unmap_static.c"

/* Linux 7.3 renamed pte_uffd_wp() to pte_uffd(). */
#if FT_LINUX7_3
#define ft_pte_uffd_wp(pte)	pte_uffd(pte)
#else
#define ft_pte_uffd_wp(pte)	pte_uffd_wp(pte)
#endif

/*
 * folio_pte_batch_flags() with foliotune's rules (ft_unmap_run()):
 * @respect: a lazyfree run, which may be put back, must be identical but
 * for PFN and accessed bit; a file run may differ in dirty, soft-dirty and
 * writable too.
 */
static inline unsigned int ft_folio_pte_batch(struct folio *folio,
					      struct vm_area_struct *vma,
					      unsigned long addr, pte_t *ptep,
					      pte_t pte, unsigned int max_nr,
					      bool respect)
{
	return folio_pte_batch_flags(folio, vma, ptep, &pte, max_nr,
				     respect ? FPB_RESPECT_WRITE |
					       FPB_RESPECT_SOFT_DIRTY |
					       FPB_RESPECT_DIRTY : 0);
}

/*
 * Why the kernel's own code (arm 0 on Linux 7) unmaps one PTE alone, in
 * the order of folio_unmap_pte_batch()'s checks; for its counters only.
 */
static enum foliotune_counter ft_unmap_kernel_why(struct folio *folio,
						  struct vm_area_struct *vma,
						  enum ttu_flags flags,
						  pte_t pte)
{
	if (folio_test_hugetlb(folio))
		return FT_unmap_kernel_nobatch_hugetlb;
	if (!pte_present(pte))
		return FT_unmap_kernel_nobatch_nonpresent;
	if (flags & TTU_HWPOISON)
		return FT_unmap_kernel_nobatch_hwpoison;
	if (!folio_test_large(folio))
		return FT_unmap_kernel_nobatch_small;
#if !FT_LINUX7_3
	if (userfaultfd_wp(vma))
		return FT_unmap_kernel_nobatch_uffd_wp;
#endif
	if (folio_test_anon(folio) && folio_test_swapbacked(folio))
		return FT_unmap_kernel_nobatch_swap;
	return FT_unmap_kernel_nobatch_partial;
}
#else
#define ft_pte_uffd_wp(pte)	pte_uffd_wp(pte)

/* 6.12's folio_pte_batch(), with the flags foliotune's rules need. */
static inline unsigned int ft_folio_pte_batch(struct folio *folio,
					      struct vm_area_struct *vma,
					      unsigned long addr, pte_t *ptep,
					      pte_t pte, unsigned int max_nr,
					      bool respect)
{
	return folio_pte_batch(folio, addr, ptep, pte, max_nr,
			       respect ? FPB_RESPECT_WRITE :
					 FPB_IGNORE_DIRTY | FPB_IGNORE_SOFT_DIRTY,
			       NULL, NULL, NULL);
}
#endif

/*
 * foliotune: how many PTEs, starting at pvmw->pte (which maps @subpage and
 * holds @pte), this iteration unmaps under foliotune's rules (@batch), or
 * one.  1 selects the per-PTE code; then *@why names the unmap_nobatch_*
 * counter to bump.  Follows upstream's folio_unmap_pte_batch()
 * (354dffd29575, ddd05742b45b, a67fe41e214f, 29f40594a281) and is stricter:
 * no batching for HWPoison (any page of the run), uffd-wp (VMA or PTE bit),
 * VM_LOCKED, or swap-backed anon folios; and looser for file runs, which
 * may mix writable, dirty and soft-dirty PTEs.
 */
static unsigned int ft_unmap_run(struct folio *folio,
				 struct page_vma_mapped_walk *pvmw,
				 enum ttu_flags flags, pte_t pte,
				 struct page *subpage, bool batch,
				 enum foliotune_counter *why)
{
	struct vm_area_struct *vma = pvmw->vma;
	unsigned long addr = pvmw->address;
	unsigned long end_addr, max_nr;
	unsigned int nr, i;

	if (folio_test_hugetlb(folio)) {
		*why = FT_unmap_nobatch_hugetlb;
		return 1;
	}
	if (!folio_test_large(folio)) {
		*why = FT_unmap_nobatch_small;
		return 1;
	}
	if (!batch) {
		*why = FT_unmap_nobatch_off;
		return 1;
	}
	/* PFN swap entries (device-exclusive) are cleared one by one. */
	if (!pte_present(pte)) {
		*why = FT_unmap_nobatch_nonpresent;
		return 1;
	}
	/*
	 * The TTU_HWPOISON branch works per page.  PG_hwpoison is set on the
	 * page before PG_has_hwpoisoned on the folio, so check both; the rest
	 * of the run is checked below.
	 */
	if ((flags & TTU_HWPOISON) || folio_test_has_hwpoisoned(folio) ||
	    PageHWPoison(subpage)) {
		*why = FT_unmap_nobatch_hwpoison;
		return 1;
	}
	/*
	 * pte_install_uffd_wp_if_needed() installs a marker per PTE.  With
	 * neither the VMA flag nor the (batch-uniform) PTE bit it is a no-op,
	 * so calling it once for the run is exact.
	 */
	if (userfaultfd_wp(vma) || ft_pte_uffd_wp(pte)) {
		*why = FT_unmap_nobatch_uffd_wp;
		return 1;
	}
	/*
	 * Only TTU_IGNORE_MLOCK walks get here with VM_LOCKED.  Keep one
	 * munlock per PTE (mlock_count) as stock does; these walks are rare.
	 */
	if (vma->vm_flags & VM_LOCKED) {
		*why = FT_unmap_nobatch_mlock;
		return 1;
	}
	/*
	 * swap_duplicate() (folio_dup_swap() in Linux 7), arch_unmap_one() and
	 * folio_try_share_anon_rmap_pte() are per page and have no batched form
	 * in 6.12, nor in Linux 7's try_to_unmap_one().  A swapcache folio that
	 * is not swapbacked hits the stock WARN: keep that per PTE too.
	 */
	if (folio_test_anon(folio) &&
	    (folio_test_swapbacked(folio) || folio_test_swapcache(folio))) {
		*why = FT_unmap_nobatch_swap;
		return 1;
	}

	*why = FT_unmap_nobatch_partial;
	/* Always false on x86; the stock pte_unused() branch is per PTE. */
	if (pte_unused(pte))
		return 1;

	/* Only within one VMA and one page table (ddd05742b45b) ... */
	end_addr = pmd_addr_end(addr, vma->vm_end);
	max_nr = (end_addr - addr) >> PAGE_SHIFT;
	/* ... and the folio (folio_pte_batch() caps this as well). */
	max_nr = min_t(unsigned long, max_nr,
		       folio_pfn(folio) + folio_nr_pages(folio) - pte_pfn(pte));
	if (max_nr < 2)
		return 1;

	/*
	 * File folios are never put back, so PTEs may differ in dirty and
	 * soft-dirty (and, as always in 6.12, writable): the OR of the dirty
	 * bits is all that folio_mark_dirty() and the TLB batch need.
	 * A lazyfree batch may be put back (6.12: ft_restore_ptes(); Linux 7:
	 * set_ptes() of the run's first PTE with the run's accessed and
	 * dirty bits), so its PTEs must be identical but for PFN and accessed
	 * bit: respect writable and soft-dirty (29f40594a281) and dirty too.
	 */
	nr = ft_folio_pte_batch(folio, vma, addr, pvmw->pte, pte, max_nr,
				folio_test_anon(folio));

	for (i = 1; i < nr; i++) {
		if (PageHWPoison(subpage + i)) {
			*why = FT_unmap_nobatch_hwpoison;
			return 1;
		}
	}
	return nr;
}

/*
 * foliotune: the run of this iteration by the arm: the kernel's own
 * folio_unmap_pte_batch() on Linux 7 (*@why: the reason it made a run of
 * one), else ft_unmap_run()'s (@batch: foliotune's arm).  On Linux 7 the
 * copy calls it for present PTEs only (the kernel's run starts at one) and,
 * for the reason alone, for a non-present one.
 */
static unsigned int ft_unmap_pte_batch(struct folio *folio,
				       struct page_vma_mapped_walk *pvmw,
				       enum ttu_flags flags, pte_t pte,
				       struct page *subpage, int arm,
				       enum foliotune_counter *why)
{
#if FT_LINUX7
	if (arm == FOLIOTUNE_ARM_KERNEL) {
		*why = ft_unmap_kernel_why(folio, pvmw->vma, flags, pte);
		if (!pte_present(pte) || folio_test_hugetlb(folio))
			return 1;
		return folio_unmap_pte_batch(folio, pvmw, flags, pte);
	}
#endif
	return ft_unmap_run(folio, pvmw, flags, pte, subpage,
			    arm == FOLIOTUNE_ARM_FOLIOTUNE, why);
}

#if !FT_LINUX7
/*
 * foliotune: put back a lazyfree run that cannot be discarded.  When the run
 * was built its PTEs were identical but for PFN and accessed bit, and the PTL
 * has been held since, so only the MMU can have changed them, by setting
 * accessed or (on writable PTEs) dirty.  @orig is the first PTE as read
 * before the clear, @cleared what get_and_clear_full_ptes() returned (first
 * PTE, with the accessed/dirty bits of the whole run OR-ed in).  Writable,
 * soft-dirty, uffd-wp and all other bits come back exactly; accessed and
 * dirty may come back on more PTEs than had them, which is harmless: the
 * folio is kept and was marked dirty if any PTE was dirty.  pte_mkdirty()
 * also sets soft-dirty on x86, so @orig's soft-dirty is put back after it.
 * (On x86 a PTE the MMU can dirty is writable, and every path that makes a
 * PTE writable makes it soft-dirty, so this changes nothing today; the
 * code says what the comment promises instead of relying on that.)
 */
static void ft_restore_ptes(struct mm_struct *mm, unsigned long addr,
			    pte_t *ptep, pte_t orig, pte_t cleared,
			    unsigned int nr)
{
	pte_t pte = orig;

	if (pte_young(cleared))
		pte = pte_mkyoung(pte);
	if (pte_dirty(cleared) && !pte_dirty(orig)) {
		pte = pte_mkdirty(pte);
		if (!pte_soft_dirty(orig))
			pte = pte_clear_soft_dirty(pte);
	}
	set_ptes(mm, addr, ptep, pte, nr);
}
#endif

/*
 * foliotune: the counters of one run, the nr PTEs one iteration unmaps when
 * it reaches discard: (6.12, 7.2) or finish_unmap: (7.3).  The kernel's own
 * runs (Linux 7, arm 0) count in the unmap_kernel_* set, the other arms'
 * in the rest, never both.  For each set, exact when read while no
 * try_to_unmap_one() runs (a run bumps several per-cpu counters):
 *   (1) sum(nobatch_*) == single_ptes: one reason per single PTE, the
 *       first match (ft_unmap_run(), ft_unmap_kernel_why())
 *   (2) sum(batch_order1..9) == batches
 *   (3) batch_order0 == single_ptes - nobatch_small - nobatch_hugetlb
 *   (4) sum(2^k * order<k>, k = 1..9) <= batched_ptes
 *       <= sum((2^(k+1) - 1) * order<k>, k = 1..8) + 512 * order9
 */
static void ft_account_run(int arm, int nr, enum foliotune_counter why)
{
	BUILD_BUG_ON(FT_unmap_batch_order9 != FT_unmap_batch_order0 + 9);
	BUILD_BUG_ON(FT_unmap_kernel_batch_order9 !=
		     FT_unmap_kernel_batch_order0 + 9);
	BUILD_BUG_ON(PTRS_PER_PTE != 512);

	if (FT_LINUX7 && arm == FOLIOTUNE_ARM_KERNEL) {
		if (nr > 1) {
			ft_count(FT_unmap_kernel_batches);
			ft_add(FT_unmap_kernel_batched_ptes, nr);
			ft_count(FT_unmap_kernel_batch_order0 +
				 min(ilog2(nr), 9));
			return;
		}
		ft_count(FT_unmap_kernel_single_ptes);
		ft_count(why);
		if (why != FT_unmap_kernel_nobatch_small &&
		    why != FT_unmap_kernel_nobatch_hugetlb)
			ft_count(FT_unmap_kernel_batch_order0);
		return;
	}
	if (nr > 1) {
		ft_count(FT_unmap_batches);
		ft_add(FT_unmap_batched_ptes, nr);
		ft_count(FT_unmap_batch_order0 + min(ilog2(nr), 9));
		return;
	}
	ft_count(FT_unmap_single_ptes);
	ft_count(why);
	if (why != FT_unmap_nobatch_small && why != FT_unmap_nobatch_hugetlb)
		ft_count(FT_unmap_batch_order0);
}

/*
 * try_to_unmap_one() of this build, with foliotune's patch (module/kcopy/).
 * On 6.12, with nr = 1 each changed line reduces to the stock call:
 * folio_remove_rmap_ptes(.., 1, ..) is what the folio_remove_rmap_pte()
 * macro expands to, folio_put_refs(folio, 1) is folio_put(folio),
 * add_mm_counter(mm, m, -1) is dec_mm_counter(mm, m); the batched
 * clear/flush branch is not entered.  On Linux 7 the kernel's code is
 * written for runs: the arms only choose nr.  PTEs cleared and then put
 * back by an aborting walk count only in unmap_restored_ptes.
 */
#include "kcopy-gen/try_to_unmap_one.c"
