/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcopy/tlbflush_hidden.h - x86 TLB-batching helpers that
 * arch/x86/include/asm/tlbflush.h hides from modules (#ifndef MODULE,
 * lines 60-420).
 *
 * kcopy-gen/tlbflush_hidden.c holds arch_tlbbatch_should_defer(),
 * inc_mm_tlb_gen() and arch_tlbbatch_add_pending() as this build's
 * arch/x86/include/asm/tlbflush.h has them (scripts/kernels/kcopy.py,
 * generated into build/kcopy/KVER/; module/kcopy/sources.list).
 * flush_tlb_mm_range() itself is declared in kernel_syms.h.
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

#include "kcopy-gen/tlbflush_hidden.c"

#endif /* FOLIOTUNE_KCOPY_TLBFLUSH_HIDDEN_H */
