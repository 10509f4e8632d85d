/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcopy/rmap_static.h - static kernel helpers that the replacements
 * try_to_unmap_one() (module/unmap.c) and folio_referenced_one()
 * (module/referenced.c) need and that a module cannot reach:
 * static functions of mm/rmap.c (set_tlb_ubc_flush_pending() exists in
 * vmlinux only as the ENDBR-less local clone set_tlb_ubc_flush_pending.isra.0,
 * should_defer_flush() is inlined) and inline helpers of mm/internal.h, which
 * linux-headers does not ship.
 *
 * As this build's source has them (scripts/kernels/kcopy.py, generated
 * into build/kcopy/KVER/; module/kcopy/sources.list):
 *   kcopy-gen/rmap_static.c      mm/rmap.c: TLB_FLUSH_BATCH_*,
 *                                set_tlb_ubc_flush_pending(),
 *                                should_defer_flush() (the
 *                                CONFIG_ARCH_WANT_BATCHED_UNMAP_TLB_FLUSH=y
 *                                branch; x86 always selects it), struct
 *                                folio_referenced_arg (folio_referenced()
 *                                passes it to folio_referenced_one())
 *   kcopy-gen/internal_static.c  mm/internal.h: fpb_t, FPB_*,
 *                                __pte_batch_clear_ignored(),
 *                                folio_pte_batch() (Linux 7:
 *                                folio_pte_batch_flags()),
 *                                mlock_vma_folio() (mlock_folio() is
 *                                declared in kernel_syms.h),
 *                                vma_address_end(), and 6.12's
 *                                folio_within_range(), folio_within_vma()
 *                                or Linux 7's mm_prepare_for_swap_entries(),
 *                                clear_flush_young_ptes_notify(),
 *                                pmdp_clear_flush_young_notify()
 * Names are kept (none clashes with a public header).  Which definitions
 * a generation copies: its sources list (module/kcopy/patches.list).
 *
 * Needs kernel_syms.h (mlock_folio) and kcopy/tlbflush_hidden.h
 * (arch_tlbbatch_should_defer, arch_tlbbatch_add_pending) included first.
 */
#ifndef FOLIOTUNE_KCOPY_RMAP_STATIC_H
#define FOLIOTUNE_KCOPY_RMAP_STATIC_H

#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/rmap.h>
#include <linux/sched.h>

#include "internal.h"

#ifndef CONFIG_ARCH_WANT_BATCHED_UNMAP_TLB_FLUSH
#error "foliotune: copied from the CONFIG_ARCH_WANT_BATCHED_UNMAP_TLB_FLUSH=y branch"
#endif

#include "kcopy-gen/rmap_static.c"

#if !FT_LINUX7
/*
 * FPB_RESPECT_WRITE does not exist in 6.12, whose folio_pte_batch()
 * always ignores the writable bit.  Same meaning as upstream's later flag:
 * compare PTEs without pte_wrprotect(), so that a batch never mixes writable
 * and write-protected PTEs.  Required wherever a batch may be put back with
 * set_ptes() (the lazyfree restore path; upstream fix 29f40594a281).  Used
 * by the patched __pte_batch_clear_ignored(); defined before it, fpb_t
 * comes with it.
 */
#define FPB_RESPECT_WRITE		((__force fpb_t)BIT(2))
#endif

#include "kcopy-gen/internal_static.c"

#endif /* FOLIOTUNE_KCOPY_RMAP_STATIC_H */
