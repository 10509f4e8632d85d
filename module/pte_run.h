/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pte_run.h - the PTE-run helpers of the batched try_to_unmap_one()
 * (unmap.c's patched copy calls them): clearing a run while counting its
 * young entries, and the fault-around tuner's unmap counters.
 */
#ifndef FOLIOTUNE_PTE_RUN_H
#define FOLIOTUNE_PTE_RUN_H

#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/types.h>

#include "internal.h"
#include "fa_tuner.h"

/*
 * fa_unmap_young_ptes / fa_unmap_old_ptes count the file (page cache and
 * shmem) PTEs that try_to_unmap_one() clears, by the accessed bit each one
 * had when it was cleared.  Enabled (static key) only while fault-around
 * tuning is on: fault_around_mkold != 0 or fault_around_auto = 1
 * (ft_fa_unmap_tracking(), fa_tuner.h).  Off, the hook is a NOP in the
 * unmap path.
 *
 * A batch clears nr PTEs with get_and_clear_full_ptes(), which ORs their
 * accessed bits into one pteval: the per-PTE information is gone.  So for
 * a file run of nr >= 2 the caller clears with ft_fa_get_and_clear_ptes()
 * instead, the same loop that also counts the young entries it cleared
 * (exact: each count comes from the atomic xchg that cleared the PTE, no
 * extra PTE reads and no race with the hardware setting the bit); for
 * nr == 1 the cleared pteval itself is exact.
 *
 * What the young bit means here: accessed since the PTE was mapped (a
 * pre-mapped PTE is mapped old when fault_around_mkold is on) or since
 * something last cleared it.  LRU reclaim clears and tests the bits
 * (folio_referenced(), MGLRU aging) before it decides to unmap, and unmaps
 * only folios it found unreferenced: under reclaim every counted PTE is
 * old.  Young counts come from unmaps without that check: MADV_PAGEOUT
 * and the try_to_unmap() of a folio split.
 */
/*
 * get_and_clear_full_ptes() (include/linux/pgtable.h:681-697 of
 * linux-source-6.12 6.12.117-1~deb12u1; x86 uses this generic version)
 * with full = 0, plus: *young = how many of the nr cleared PTEs were young.
 */
static inline pte_t ft_fa_get_and_clear_ptes(struct mm_struct *mm,
					     unsigned long addr, pte_t *ptep,
					     unsigned int nr,
					     unsigned int *young)
{
	pte_t pte, tmp_pte;

	pte = ptep_get_and_clear_full(mm, addr, ptep, 0);
	*young = !!pte_young(pte);	/* foliotune: x86 returns the flag bit */
	while (--nr) {
		ptep++;
		addr += PAGE_SIZE;
		tmp_pte = ptep_get_and_clear_full(mm, addr, ptep, 0);
		if (pte_dirty(tmp_pte))
			pte = pte_mkdirty(pte);
		if (pte_young(tmp_pte)) {
			pte = pte_mkyoung(pte);
			(*young)++;	/* foliotune */
		}
	}
	return pte;
}

/*
 * A run of @nr PTEs of the file folio @folio was unmapped.  @young_batched:
 * young count from ft_fa_get_and_clear_ptes() (used when nr >= 2); for a
 * single PTE the cleared value @pteval tells.  hugetlb folios (reached only
 * for HWPoison) are not counted: fault-around never maps them.
 */
static inline void ft_fa_count_unmap(struct folio *folio, unsigned int nr,
				     unsigned int young_batched, pte_t pteval)
{
	unsigned int young;

	if (folio_test_hugetlb(folio))
		return;
	if (nr > 1)
		young = young_batched;
	else
		young = pte_present(pteval) && pte_young(pteval);
	ft_add(FT_fa_unmap_young_ptes, young);
	ft_add(FT_fa_unmap_old_ptes, nr - young);
}

#endif /* FOLIOTUNE_PTE_RUN_H */
