// SPDX-License-Identifier: GPL-2.0
/*
 * unmap.c - batched try_to_unmap_one(), the livepatch replacement.
 *
 * foliotune_try_to_unmap_one() is try_to_unmap_one() of mm/rmap.c (lines
 * 1639-1990 of linux-source-6.12 6.12.117-1~deb12u1) with every branch kept
 * (hugetlb, HWPoison, mlock, PMD split, device-exclusive, uffd-wp, anon swap,
 * lazyfree, file).  Every change is marked "foliotune:", so the function
 * diffs against the kernel's: scripts/kernels/verify.sh proves it equal,
 * those changes aside, to the source of every build in module/verified/.  With unmap_batch=0 every iteration takes nr = 1, and with
 * nr = 1 each changed line reduces to the stock call: folio_remove_rmap_ptes
 * (.., 1, ..) is what the folio_remove_rmap_pte() macro expands to,
 * folio_put_refs(folio, 1) is folio_put(folio), add_mm_counter(mm, m, -1)
 * is dec_mm_counter(mm, m); the batched clear/flush branch is not entered.
 *
 * What is batched (see docs/batching.md): present PTEs mapping consecutive
 * pages of one large, non-hugetlb folio that is a file/shmem folio or a
 * lazyfree anon folio (!swapbacked), inside one page table, one VMA and the
 * folio.  Such a run of nr PTEs costs one get_and_clear_full_ptes(), one TLB
 * action, at most one folio_mark_dirty(), one update_hiwater_rss(), one
 * add_mm_counter(), one folio_remove_rmap_ptes(), one folio_put_refs() and
 * one mlock_drain_local() check, and the walk then continues after the run.
 *
 * Counters (include/foliotune.h).  A "run" is what one loop iteration
 * unmaps when it reaches discard: (nr PTEs, nr >= 1):
 *   unmap_calls          +1 per call
 *   unmap_batches        +1 per run with nr >= 2;  unmap_batched_ptes += nr
 *   unmap_batch_order<k> +1 per run of a large non-hugetlb folio, k = ilog2(nr)
 *   unmap_single_ptes    +1 per run with nr == 1, plus exactly one
 *                        unmap_nobatch_<reason>, first match of: hugetlb,
 *                        small, off, nonpresent, hwpoison, uffd_wp, mlock,
 *                        swap, partial
 *   unmap_aborts         +1 per call that returns false
 *   unmap_restored_ptes  += PTEs that were cleared and then written back
 *                        because the walk aborted (lazyfree folio redirtied or
 *                        pinned, swap_duplicate()/arch_unmap_one()/anon-share
 *                        failure).  Such PTEs are not unmapped: they count
 *                        in no other unmap_* counter.  Runs unmapped earlier
 *                        in an aborting call stay counted.  The mlock abort
 *                        and a failed hugetlb vma trylock touch no PTE; the
 *                        "cannot happen" swapbacked != swapcache abort leaves
 *                        its PTE cleared and uncounted, as stock does.
 *                        hugetlb huge_pmd_unshare() (walk_done) and the
 *                        PMD-level unmap by split_huge_pmd_locked() count no
 *                        PTE.
 * Identities, exact when read while no try_to_unmap_one() runs (per-cpu
 * counters are summed without a lock and a run bumps several of them):
 *   (1) sum(unmap_nobatch_*) == unmap_single_ptes
 *   (2) sum(unmap_batch_order1..9) == unmap_batches
 *   (3) unmap_batch_order0 == unmap_single_ptes - unmap_nobatch_small
 *                             - unmap_nobatch_hugetlb
 *   (4) sum(2^k * order<k>, k = 1..9) <= unmap_batched_ptes
 *                                     <= sum((2^(k+1) - 1) * order<k>, k = 1..8)
 *                                        + 512 * order9
 *       (so 2 * unmap_batches <= unmap_batched_ptes <= 512 * unmap_batches)
 *   (5) unmap_aborts <= unmap_calls
 *   (6) while unmap_batch=0: unmap_batches, unmap_batched_ptes, order1..9
 *       do not move, and unmap_nobatch_off moves only then (the knob is read
 *       once per call, so a call already running when it flips finishes in
 *       its old mode).
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
#include "faultaround.h"
#include "unmap.h"

/* Knob unmap_batch: 1 = batch PTE runs (default), 0 = stock algorithm. */
bool foliotune_unmap_batch __read_mostly = true;

/*
 * foliotune: how many PTEs, starting at pvmw->pte (which maps @subpage and
 * holds @pte), this iteration unmaps.  1 selects the stock per-PTE code; then
 * *@why names the unmap_nobatch_* counter to bump.  Follows upstream's
 * folio_unmap_pte_batch() (354dffd29575, ddd05742b45b, a67fe41e214f,
 * 29f40594a281) and is stricter: no batching for HWPoison (any page of the
 * run), uffd-wp (VMA or PTE bit), VM_LOCKED, or swap-backed anon folios.
 */
static unsigned int ft_unmap_pte_batch(struct folio *folio,
				       struct page_vma_mapped_walk *pvmw,
				       enum ttu_flags flags, pte_t pte,
				       struct page *subpage, bool batch,
				       enum foliotune_counter *why)
{
	struct vm_area_struct *vma = pvmw->vma;
	unsigned long addr = pvmw->address;
	unsigned long end_addr, max_nr;
	fpb_t fpb_flags;
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
	if (userfaultfd_wp(vma) || pte_uffd_wp(pte)) {
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
	 * swap_duplicate(), arch_unmap_one() and folio_try_share_anon_rmap_pte()
	 * are per page and have no batched form in 6.12.  A swapcache folio
	 * that is not swapbacked hits the stock WARN: keep that per PTE too.
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
	 * A lazyfree batch may be put back (ft_restore_ptes()), so its PTEs
	 * must be identical but for PFN and accessed bit: respect writable
	 * and soft-dirty (29f40594a281) and dirty too.
	 */
	if (folio_test_anon(folio))
		fpb_flags = FPB_RESPECT_WRITE;
	else
		fpb_flags = FPB_IGNORE_DIRTY | FPB_IGNORE_SOFT_DIRTY;
	nr = folio_pte_batch(folio, addr, pvmw->pte, pte, max_nr, fpb_flags,
			     NULL, NULL, NULL);

	for (i = 1; i < nr; i++) {
		if (PageHWPoison(subpage + i)) {
			*why = FT_unmap_nobatch_hwpoison;
			return 1;
		}
	}
	return nr;
}

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

/* foliotune: counters for one run that reached discard: (see the top). */
static void ft_account_run(int nr, enum foliotune_counter why)
{
	BUILD_BUG_ON(FT_unmap_batch_order9 != FT_unmap_batch_order0 + 9);
	BUILD_BUG_ON(PTRS_PER_PTE != 512);

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
 * @arg: enum ttu_flags will be passed to this argument
 *
 * foliotune: mm/rmap.c:1639-1990, renamed and made global: it replaces the
 * static try_to_unmap_one() through livepatch.
 */
bool foliotune_try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
		     unsigned long address, void *arg)
{
	struct mm_struct *mm = vma->vm_mm;
	DEFINE_FOLIO_VMA_WALK(pvmw, folio, vma, address, 0);
	bool anon_exclusive, ret = true;
	pte_t pteval;
	struct page *subpage;
	struct mmu_notifier_range range;
	enum ttu_flags flags = (enum ttu_flags)(long)arg;
	unsigned long pfn;
	unsigned long hsz = 0;
	/* foliotune: knob read once per call, and the state of one run */
	const bool batch = READ_ONCE(foliotune_unmap_batch);
	enum foliotune_counter why = FT_unmap_nobatch_partial;
	pte_t orig_pte = __pte(0);
	unsigned long end_addr;
	int nr;		/* signed: add_mm_counter(.., -nr) */
	/* foliotune: fault-around usefulness counting (faultaround.h), per call */
	const bool fa_track = ft_fa_unmap_tracking();
	unsigned int fa_young = 0;

	ft_count(FT_unmap_calls);	/* foliotune */

	/*
	 * When racing against e.g. zap_pte_range() on another cpu,
	 * in between its ptep_get_and_clear_full() and folio_remove_rmap_*(),
	 * try_to_unmap() may return before page_mapped() has become false,
	 * if page table locking is skipped: use TTU_SYNC to wait for that.
	 */
	if (flags & TTU_SYNC)
		pvmw.flags = PVMW_SYNC;

	/*
	 * For THP, we have to assume the worse case ie pmd for invalidation.
	 * For hugetlb, it could be much worse if we need to do pud
	 * invalidation in the case of pmd sharing.
	 *
	 * Note that the folio can not be freed in this function as call of
	 * try_to_unmap() must hold a reference on the folio.
	 */
	range.end = vma_address_end(&pvmw);
	mmu_notifier_range_init(&range, MMU_NOTIFY_CLEAR, 0, vma->vm_mm,
				address, range.end);
	if (folio_test_hugetlb(folio)) {
		/*
		 * If sharing is possible, start and end will be adjusted
		 * accordingly.
		 */
		adjust_range_if_pmd_sharing_possible(vma, &range.start,
						     &range.end);

		/* We need the huge page size for set_huge_pte_at() */
		hsz = huge_page_size(hstate_vma(vma));
	}
	mmu_notifier_invalidate_range_start(&range);

	while (page_vma_mapped_walk(&pvmw)) {
		/* foliotune: never reuse an earlier iteration's run length */
		nr = 1;
		/*
		 * If the folio is in an mlock()d vma, we must not swap it out.
		 */
		if (!(flags & TTU_IGNORE_MLOCK) &&
		    (vma->vm_flags & VM_LOCKED)) {
			/* Restore the mlock which got missed */
			if (!folio_test_large(folio))
				mlock_vma_folio(folio, vma);
			goto walk_abort;
		}

		if (!pvmw.pte) {
			if (flags & TTU_SPLIT_HUGE_PMD) {
				/*
				 * We temporarily have to drop the PTL and
				 * restart so we can process the PTE-mapped THP.
				 */
				split_huge_pmd_locked(vma, pvmw.address,
						      pvmw.pmd, false, folio);
				flags &= ~TTU_SPLIT_HUGE_PMD;
				page_vma_mapped_walk_restart(&pvmw);
				continue;
			}
		}

		/* Unexpected PMD-mapped THP? */
		VM_BUG_ON_FOLIO(!pvmw.pte, folio);

		address = pvmw.address;
		/* foliotune: braces dropped (checkpatch), no other change */
		if (folio_test_hugetlb(folio))
			pteval = huge_ptep_get(mm, address, pvmw.pte);
		else
			pteval = ptep_get(pvmw.pte);
		if (likely(pte_present(pteval))) {
			pfn = pte_pfn(pteval);
		} else {
			/*
			 * Handle PFN swap PTEs, such as device-exclusive ones,
			 * that actually map pages.
			 */
			const softleaf_t entry = softleaf_from_pte(pteval);

			pfn = softleaf_to_pfn(entry);
			VM_WARN_ON_FOLIO(folio_test_hugetlb(folio), folio);
		}

		subpage = folio_page(folio, pfn - folio_pfn(folio));
		anon_exclusive = folio_test_anon(folio) &&
				 PageAnonExclusive(subpage);

		/* foliotune: PTEs to unmap now; 1 = the stock per-PTE code */
		nr = ft_unmap_pte_batch(folio, &pvmw, flags, pteval, subpage,
					batch, &why);

		if (folio_test_hugetlb(folio)) {
			bool anon = folio_test_anon(folio);

			/*
			 * The try_to_unmap() is only passed a hugetlb page
			 * in the case where the hugetlb page is poisoned.
			 */
			VM_BUG_ON_PAGE(!PageHWPoison(subpage), subpage);
			/*
			 * huge_pmd_unshare may unmap an entire PMD page.
			 * There is no way of knowing exactly which PMDs may
			 * be cached for this mm, so we must flush them all.
			 * start/end were already adjusted above to cover this
			 * range.
			 */
			flush_cache_range(vma, range.start, range.end);

			/*
			 * To call huge_pmd_unshare, i_mmap_rwsem must be
			 * held in write mode.  Caller needs to explicitly
			 * do this outside rmap routines.
			 *
			 * We also must hold hugetlb vma_lock in write mode.
			 * Lock order dictates acquiring vma_lock BEFORE
			 * i_mmap_rwsem.  We can only try lock here and fail
			 * if unsuccessful.
			 */
			if (!anon) {
				struct mmu_gather tlb;

				VM_BUG_ON(!(flags & TTU_RMAP_LOCKED));
				if (!hugetlb_vma_trylock_write(vma))
					goto walk_abort;

				tlb_gather_mmu_vma(&tlb, vma);
				if (huge_pmd_unshare(&tlb, vma, address, pvmw.pte)) {
					hugetlb_vma_unlock_write(vma);
					huge_pmd_unshare_flush(&tlb, vma);
					tlb_finish_mmu(&tlb);
					/*
					 * The PMD table was unmapped,
					 * consequently unmapping the folio.
					 */
					goto walk_done;
				}
				hugetlb_vma_unlock_write(vma);
				tlb_finish_mmu(&tlb);
			}
			pteval = huge_ptep_clear_flush(vma, address, pvmw.pte);
			if (pte_dirty(pteval))
				folio_mark_dirty(folio);
		} else if (likely(pte_present(pteval)) && nr > 1) {
			/*
			 * foliotune: the branch below for a run of nr PTEs
			 * (354dffd29575, a67fe41e214f).  pteval = first PTE with
			 * the dirty/accessed bits of all nr OR-ed in.  Present
			 * vs PROT_NONE is uniform in a run, so pte_accessible()
			 * of pteval holds for each PTE.  x86's deferred flush
			 * ignores the address and flushes the whole mm later,
			 * so one set_tlb_ubc_flush_pending() covers the run;
			 * otherwise one ranged flush after clearing all nr
			 * replaces nr ptep_clear_flush() page flushes (same
			 * stride and freed_tables as flush_tlb_page()).
			 * flush_cache_range() is a no-op on x86.
			 */
			end_addr = address + nr * PAGE_SIZE;
			flush_cache_range(vma, address, end_addr);
			orig_pte = pteval;
			/* foliotune: fault-around hook, counts young file PTEs */
			if (fa_track && !folio_test_anon(folio))
				pteval = ft_fa_get_and_clear_ptes(mm, address,
						pvmw.pte, nr, &fa_young);
			else
				pteval = get_and_clear_full_ptes(mm, address,
						pvmw.pte, nr, 0);
			if (should_defer_flush(mm, flags))
				set_tlb_ubc_flush_pending(mm, pteval, address);
			else if (pte_accessible(mm, pteval))
				flush_tlb_mm_range(mm, address, end_addr,
						   PAGE_SHIFT, false);
			if (pte_dirty(pteval))
				folio_mark_dirty(folio);
		} else if (likely(pte_present(pteval))) {
			flush_cache_page(vma, address, pfn);
			/* Nuke the page table entry. */
			if (should_defer_flush(mm, flags)) {
				/*
				 * We clear the PTE but do not flush so potentially
				 * a remote CPU could still be writing to the folio.
				 * If the entry was previously clean then the
				 * architecture must guarantee that a clear->dirty
				 * transition on a cached TLB entry is written through
				 * and traps if the PTE is unmapped.
				 */
				pteval = ptep_get_and_clear(mm, address, pvmw.pte);

				set_tlb_ubc_flush_pending(mm, pteval, address);
			} else {
				pteval = ptep_clear_flush(vma, address, pvmw.pte);
			}
			if (pte_dirty(pteval))
				folio_mark_dirty(folio);
		} else {
			pte_clear(mm, address, pvmw.pte);
		}

		/*
		 * Now the pte is cleared. If this pte was uffd-wp armed,
		 * we may want to replace a none pte with a marker pte if
		 * it's file-backed, so we don't lose the tracking info.
		 */
		pte_install_uffd_wp_if_needed(vma, address, pvmw.pte, pteval);

		/* Update high watermark before we lower rss */
		update_hiwater_rss(mm);

		if (PageHWPoison(subpage) && (flags & TTU_HWPOISON)) {
			pteval = swp_entry_to_pte(make_hwpoison_entry(subpage));
			if (folio_test_hugetlb(folio)) {
				hugetlb_count_sub(folio_nr_pages(folio), mm);
				set_huge_pte_at(mm, address, pvmw.pte, pteval,
						hsz);
			} else {
				dec_mm_counter(mm, mm_counter(folio));
				set_pte_at(mm, address, pvmw.pte, pteval);
			}
		} else if (likely(pte_present(pteval)) && pte_unused(pteval) &&
			   !userfaultfd_armed(vma)) {
			/*
			 * The guest indicated that the page content is of no
			 * interest anymore. Simply discard the pte, vmscan
			 * will take care of the rest.
			 * A future reference will then fault in a new zero
			 * page. When userfaultfd is active, we must not drop
			 * this page though, as its main user (postcopy
			 * migration) will not expect userfaults on already
			 * copied pages.
			 */
			dec_mm_counter(mm, mm_counter(folio));
		} else if (folio_test_anon(folio)) {
			swp_entry_t entry = page_swap_entry(subpage);
			pte_t swp_pte;
			/*
			 * Store the swap location in the pte.
			 * See handle_pte_fault() ...
			 */
			if (unlikely(folio_test_swapbacked(folio) !=
					folio_test_swapcache(folio))) {
				WARN_ON_ONCE(1);
				goto walk_abort;
			}

			/* MADV_FREE page check */
			if (!folio_test_swapbacked(folio)) {
				int ref_count, map_count;

				/*
				 * Synchronize with gup_pte_range():
				 * - clear PTE; barrier; read refcount
				 * - inc refcount; barrier; read PTE
				 */
				smp_mb();

				ref_count = folio_ref_count(folio);
				map_count = folio_mapcount(folio);

				/*
				 * Order reads for page refcount and dirty flag
				 * (see comments in __remove_mapping()).
				 */
				smp_rmb();

				/*
				 * The only page refs must be one from isolation
				 * plus the rmap(s) (dropped by discard:).
				 */
				if (ref_count == 1 + map_count &&
				    (!folio_test_dirty(folio) ||
				     /*
				      * Unlike MADV_FREE mappings, VM_DROPPABLE
				      * ones can be dropped even if they've
				      * been dirtied.
				      */
				     (vma->vm_flags & VM_DROPPABLE))) {
					/* foliotune: was dec_mm_counter() */
					add_mm_counter(mm, MM_ANONPAGES, -nr);
					goto discard;
				}

				/*
				 * If the folio was redirtied, it cannot be
				 * discarded. Remap the page to page table.
				 */
				/* foliotune: a run is put back as a whole */
				if (nr > 1)
					ft_restore_ptes(mm, address, pvmw.pte,
							orig_pte, pteval, nr);
				else
					set_pte_at(mm, address, pvmw.pte, pteval);
				ft_add(FT_unmap_restored_ptes, nr);
				/*
				 * Unlike MADV_FREE mappings, VM_DROPPABLE ones
				 * never get swap backed on failure to drop.
				 */
				if (!(vma->vm_flags & VM_DROPPABLE))
					folio_set_swapbacked(folio);
				goto walk_abort;
			}

			if (swap_duplicate(entry) < 0) {
				set_pte_at(mm, address, pvmw.pte, pteval);
				ft_count(FT_unmap_restored_ptes); /* foliotune */
				goto walk_abort;
			}

			/*
			 * arch_unmap_one() is expected to be a NOP on
			 * architectures where we could have PFN swap PTEs,
			 * so we'll not check/care.
			 */
			if (arch_unmap_one(mm, vma, address, pteval) < 0) {
				swap_free(entry);
				set_pte_at(mm, address, pvmw.pte, pteval);
				ft_count(FT_unmap_restored_ptes); /* foliotune */
				goto walk_abort;
			}

			/* See folio_try_share_anon_rmap(): clear PTE first. */
			if (anon_exclusive &&
			    folio_try_share_anon_rmap_pte(folio, subpage)) {
				swap_free(entry);
				set_pte_at(mm, address, pvmw.pte, pteval);
				ft_count(FT_unmap_restored_ptes); /* foliotune */
				goto walk_abort;
			}
			if (list_empty(&mm->mmlist)) {
				spin_lock(&mmlist_lock);
				if (list_empty(&mm->mmlist))
					list_add(&mm->mmlist, &init_mm.mmlist);
				spin_unlock(&mmlist_lock);
			}
			dec_mm_counter(mm, MM_ANONPAGES);
			inc_mm_counter(mm, MM_SWAPENTS);
			swp_pte = swp_entry_to_pte(entry);
			if (anon_exclusive)
				swp_pte = pte_swp_mkexclusive(swp_pte);
			if (likely(pte_present(pteval))) {
				if (pte_soft_dirty(pteval))
					swp_pte = pte_swp_mksoft_dirty(swp_pte);
				if (pte_uffd_wp(pteval))
					swp_pte = pte_swp_mkuffd_wp(swp_pte);
			} else {
				if (pte_swp_soft_dirty(pteval))
					swp_pte = pte_swp_mksoft_dirty(swp_pte);
				if (pte_swp_uffd_wp(pteval))
					swp_pte = pte_swp_mkuffd_wp(swp_pte);
			}
			set_pte_at(mm, address, pvmw.pte, swp_pte);
		} else {
			/*
			 * This is a locked file-backed folio,
			 * so it cannot be removed from the page
			 * cache and replaced by a new folio before
			 * mmu_notifier_invalidate_range_end, so no
			 * concurrent thread might update its page table
			 * to point at a new folio while a device is
			 * still using this folio.
			 *
			 * See Documentation/mm/mmu_notifier.rst
			 */
			/* foliotune: was dec_mm_counter() */
			add_mm_counter(mm, mm_counter_file(folio), -nr);
			/* foliotune: fault-around hook, young/old file PTEs */
			if (fa_track)
				ft_fa_count_unmap(folio, nr, fa_young, pteval);
		}
discard:
		if (unlikely(folio_test_hugetlb(folio)))
			hugetlb_remove_rmap(folio);
		else	/* foliotune: was folio_remove_rmap_pte() */
			folio_remove_rmap_ptes(folio, subpage, nr, vma);
		if (vma->vm_flags & VM_LOCKED)
			mlock_drain_local();
		folio_put_refs(folio, nr);	/* foliotune: was folio_put() */
		/* foliotune: account the run */
		ft_account_run(nr, why);
		/*
		 * foliotune: the whole folio was one run: no PTE of it is left
		 * in this VMA (ddd05742b45b).  Otherwise the walk steps over
		 * the run's cleared (pte_none) entries itself, as upstream
		 * lets it.
		 */
		if (nr > 1 && nr == folio_nr_pages(folio))
			goto walk_done;
		continue;
walk_abort:
		ret = false;
walk_done:
		page_vma_mapped_walk_done(&pvmw);
		break;
	}

	mmu_notifier_invalidate_range_end(&range);

	if (!ret)	/* foliotune */
		ft_count(FT_unmap_aborts);

	return ret;
}

static u64 ft_unmap_batch_get(struct ft_knob *knob)
{
	return READ_ONCE(foliotune_unmap_batch);
}

static int ft_unmap_batch_set(struct ft_knob *knob, u64 val)
{
	WRITE_ONCE(foliotune_unmap_batch, val == 1);
	return 0;
}

static struct ft_knob ft_unmap_batch_knob = {
	.name = "unmap_batch",
	.min = 0,
	.max = 1,
	.get = ft_unmap_batch_get,
	.set = ft_unmap_batch_set,
};

/* Creates <dir>/unmap_batch (0600): reads "0\n"/"1\n", accepts 0 or 1. */
void foliotune_unmap_debugfs_init(struct dentry *dir)
{
	foliotune_knob_create(dir, &ft_unmap_batch_knob);
}
