/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcopy/tlbflush_hidden.h - x86 TLB-batching helpers that
 * arch/x86/include/asm/tlbflush.h hides from modules (#ifndef MODULE,
 * lines 60-420).
 *
 * Verbatim copy of arch/x86/include/asm/tlbflush.h:258-288 from
 * linux-source-6.12 6.12.117-1~deb12u1 (arch_tlbbatch_should_defer,
 * inc_mm_tlb_gen, arch_tlbbatch_add_pending).  flush_tlb_mm_range() itself
 * (tlbflush.h:248) is declared in kernel_syms.h.  Deviations are marked
 * "foliotune:".
 *
 * Non-exported symbols reached from here (see kernel_syms.h):
 *   __mmu_notifier_arch_invalidate_secondary_tlbs (through the public inline
 *   mmu_notifier_arch_invalidate_secondary_tlbs()).
 */
#ifndef FOLIOTUNE_KCOPY_TLBFLUSH_HIDDEN_H
#define FOLIOTUNE_KCOPY_TLBFLUSH_HIDDEN_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/mm_types.h>
#include <linux/mmu_notifier.h>
#include <linux/smp.h>
#include <asm/tlbbatch.h>

#ifndef CONFIG_X86_64
#error "foliotune: these copies are the x86-64 versions"
#endif

static inline bool arch_tlbbatch_should_defer(struct mm_struct *mm)
{
	bool should_defer = false;

	/* If remote CPUs need to be flushed then defer batch the flush */
	if (cpumask_any_but(mm_cpumask(mm), get_cpu()) < nr_cpu_ids)
		should_defer = true;
	put_cpu();

	return should_defer;
}

static inline u64 inc_mm_tlb_gen(struct mm_struct *mm)
{
	/*
	 * Bump the generation count.  This also serves as a full barrier
	 * that synchronizes with switch_mm(): callers are required to order
	 * their read of mm_cpumask after their writes to the paging
	 * structures.
	 */
	return atomic64_inc_return(&mm->context.tlb_gen);
}

static inline void arch_tlbbatch_add_pending(struct arch_tlbflush_unmap_batch *batch,
					     struct mm_struct *mm,
					     unsigned long uaddr)
{
	inc_mm_tlb_gen(mm);
	cpumask_or(&batch->cpumask, &batch->cpumask, mm_cpumask(mm));
	mmu_notifier_arch_invalidate_secondary_tlbs(mm, 0, -1UL);
}

#endif /* FOLIOTUNE_KCOPY_TLBFLUSH_HIDDEN_H */
