/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel_syms.h - every non-exported vmlinux symbol foliotune uses.
 *
 * THE IBT RULE.  Debian's 6.12 kernel is built with CONFIG_X86_KERNEL_IBT:
 * objtool seals the ENDBR of every function whose address is never taken,
 * and an indirect call to a sealed function BUG()s on an IBT-capable CPU.
 * So these symbols are reached by *direct calls and direct data references
 * only*: never through kallsyms_lookup_name(), never through a function
 * pointer, never declared __weak.  The module is built with
 * KBUILD_MODPOST_WARN=1 and the post-link converter turns each undefined
 * reference to a name below into a livepatch relocation
 * (.klp.sym.vmlinux.<name>,<sympos> in a .klp.rela.vmlinux.* section), which
 * the livepatch core resolves at load time into a plain rel32 call.
 *
 * Every symbol declared here must also be listed in module/klp-symbols.list
 * (the converter refuses undefined symbols that are neither on that list nor
 * exported in the build's Module.symvers), and the list should not name
 * symbols nothing references.
 *
 * Prototypes are copied from linux-source-6.12 6.12.117-1~deb12u1 and, for
 * Linux 7 (FT_LINUX7), linux-source-7.3 7.3.4-1~bpo13+1; each carries the
 * definition site.  A symbol of one generation only is declared under its
 * #if and qualified in klp-symbols.list the same way ("<7", ">=7.3").
 * Where a public header already declares the symbol, the declaration is
 * repeated on purpose so that the compiler checks it against the header.  Some symbols are only reached through inline
 * helpers of public headers (mm counters, mmu notifiers, swap_free()); they
 * are declared here anyway so that this file is the complete inventory.
 */
#ifndef FOLIOTUNE_KERNEL_SYMS_H
#define FOLIOTUNE_KERNEL_SYMS_H

#include <linux/types.h>
#include <linux/mm_types.h>
#include <linux/mm.h>
#include <linux/jump_label.h>
#include <linux/mmu_notifier.h>
#include <linux/mmzone.h>
#include <linux/rmap.h>
#include <linux/spinlock.h>
#include <linux/swap.h>

#include "internal.h"

struct mmu_gather;

/* ---- x86 TLB: hidden from modules by #ifndef MODULE in asm/tlbflush.h ---- */

/*
 * arch/x86/mm/tlb.c:1043, prototype arch/x86/include/asm/tlbflush.h:248.
 * Must be declared before <asm/tlb.h> is included: its tlb_flush() calls it.
 */
extern void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
				unsigned long end, unsigned int stride_shift,
				bool freed_tables);

/* ---- mm/internal.h (not shipped in linux-headers) ---- */

/* mm/mlock.c:242, prototype mm/internal.h:955 (used by mlock_vma_folio()) */
void mlock_folio(struct folio *folio);

/* mm/mlock.c:212, prototype mm/internal.h:990 */
void mlock_drain_local(void);

/* ---- declared in public headers, defined without EXPORT_SYMBOL ---- */

/* mm/page_vma_mapped.c:184, include/linux/rmap.h:730 */
bool page_vma_mapped_walk(struct page_vma_mapped_walk *pvmw);

/* mm/rmap.c:1613, include/linux/rmap.h:254 (parameter names added) */
void folio_remove_rmap_ptes(struct folio *folio, struct page *page,
		int nr_pages, struct vm_area_struct *vma);

#if FT_LINUX7
/* mm/huge_memory.c:3475, include/linux/huge_mm.h:594 (7.3.4; 7.2: the same) */
void split_huge_pmd_locked(struct vm_area_struct *vma, unsigned long address,
			   pmd_t *pmd, bool freeze);
#else
/* mm/huge_memory.c:2938, include/linux/huge_mm.h:472 */
void split_huge_pmd_locked(struct vm_area_struct *vma, unsigned long address,
			   pmd_t *pmd, bool freeze, struct folio *folio);
#endif

/*
 * mm/huge_memory.c:3151, include/linux/huge_mm.h:474 (6.12.118); called by
 * try_to_unmap_one() of 6.12.111 to 6.12.116 and of 7.2 only, so by their
 * copies.
 */
bool unmap_huge_pmd_locked(struct vm_area_struct *vma, unsigned long addr,
			   pmd_t *pmdp, struct folio *folio);

/* (called by 6.12's try_to_unmap_one() and 7.2's huge_ptep_clear_flush()) */
#if !FT_LINUX7_3
/* mm/pgtable-generic.c:94, include/linux/pgtable.h:798 */
extern pte_t ptep_clear_flush(struct vm_area_struct *vma,
			      unsigned long address,
			      pte_t *ptep);
#endif

/* mm/memory.c:181, include/linux/mm.h:2657 (via add/inc/dec_mm_counter()) */
void mm_trace_rss_stat(struct mm_struct *mm, int member);

/* mm/mmu_notifier.c:521, include/linux/mmu_notifier.h:386 */
extern int __mmu_notifier_invalidate_range_start(struct mmu_notifier_range *r);
/* mm/mmu_notifier.c:559, include/linux/mmu_notifier.h:387 */
extern void __mmu_notifier_invalidate_range_end(struct mmu_notifier_range *r);
/* mm/mmu_notifier.c:573, include/linux/mmu_notifier.h:388 */
extern void __mmu_notifier_arch_invalidate_secondary_tlbs(struct mm_struct *mm,
					unsigned long start, unsigned long end);

/*
 * hugetlb: only reached for HWPoison'ed hugetlb folios, by the copies of
 * 6.12 and 7.2 (7.3 unmaps them in try_to_unmap_poisoned_hugetlb_one())
 */
/* mm/hugetlb.c:7206, include/linux/hugetlb.h:241 */
void adjust_range_if_pmd_sharing_possible(struct vm_area_struct *vma,
				unsigned long *start, unsigned long *end);
/* mm/hugetlb.c:333, include/linux/hugetlb.h:267 */
int hugetlb_vma_trylock_write(struct vm_area_struct *vma);
/* mm/hugetlb.c:320, include/linux/hugetlb.h:266 */
void hugetlb_vma_unlock_write(struct vm_area_struct *vma);
/* mm/hugetlb.c:7323, include/linux/hugetlb.h:238 */
int huge_pmd_unshare(struct mmu_gather *tlb, struct vm_area_struct *vma,
		unsigned long addr, pte_t *ptep);
/* mm/hugetlb.c:7340, include/linux/hugetlb.h:240 */
void huge_pmd_unshare_flush(struct mmu_gather *tlb, struct vm_area_struct *vma);
/* mm/mmu_gather.c:448, include/linux/mm_types.h:1281 */
void tlb_gather_mmu_vma(struct mmu_gather *tlb, struct vm_area_struct *vma);
/* mm/mmu_gather.c:464, include/linux/mm_types.h:1282 */
extern void tlb_finish_mmu(struct mmu_gather *tlb);

/* swap: only reached for swap-backed anonymous folios */
#if FT_LINUX7
/* mm/swapfile.c:1804, mm/swap.h:247 (7.3.4; not shipped in the headers) */
int folio_dup_swap(struct folio *folio, struct page *page);
/* mm/swapfile.c:1830, mm/swap.h:248 */
void folio_put_swap(struct folio *folio, struct page *page);
#else
/* mm/swapfile.c:3751, include/linux/swap.h:497 (parameter name added) */
extern int swap_duplicate(swp_entry_t entry);
/* mm/swapfile.c:1631, include/linux/swap.h:499 (via swap_free()) */
extern void swap_free_nr(swp_entry_t entry, int nr_pages);
#endif

#if FT_LINUX7_3
/* mm/memory.c:1705, mm/internal.h:276: uffd-wp markers for a cleared run */
bool cond_install_uffd_wp_ptes(struct vm_area_struct *vma,
		unsigned long addr, pte_t *ptep, pte_t pte,
		unsigned long nr_ptes);
#endif

/* ---- the replaced function itself (livepatch.c) ---- */

/*
 * mm/rmap.c:1642, static (a local symbol: klp relocations resolve it through
 * kallsyms like the globals).  Only its address is taken, for the size check
 * in livepatch.c; never call it.
 */
bool try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
		      unsigned long address, void *arg);

/* ---- faultaround.c: foliotune_set_pte_range(), copied from set_pte_range() ---- */

/* mm/rmap.c:1504, include/linux/rmap.h:248 (parameter names added) */
void folio_add_file_rmap_ptes(struct folio *folio, struct page *page,
		int nr_pages, struct vm_area_struct *vma);
/* mm/rmap.c:1422, include/linux/rmap.h:246 (parameter names added) */
void folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma,
		unsigned long address, rmap_t flags);
/*
 * mm/swap.c:526, include/linux/swap.h:381 (parameter names added; 7.3:
 * mm/folio.c:501, mm/internal.h:44)
 */
void folio_add_lru_vma(struct folio *folio, struct vm_area_struct *vma);
/* arch/x86/mm/pgtable.c:902, arch/x86/include/asm/pgtable.h:509 (via maybe_mkwrite()) */
pte_t pte_mkwrite(pte_t pte, struct vm_area_struct *vma);

/*
 * mm/memory.c:5015, include/linux/mm.h:1345: the replaced function.  Only
 * its address is taken, for the size check in livepatch.c; never call it.
 */
void set_pte_range(struct vm_fault *vmf, struct folio *folio,
		struct page *page, unsigned int nr, unsigned long addr);

/* ---- referenced.c: foliotune_folio_referenced_one() ---- */

#if FT_LINUX7
/* arch/x86/mm/pgtable.c:474, arch/x86/include/asm/pgtable.h:1235 (7.3.4) */
extern bool ptep_clear_flush_young(struct vm_area_struct *vma,
				   unsigned long address, pte_t *ptep);
/* arch/x86/mm/pgtable.c:494, arch/x86/include/asm/pgtable.h:1312 */
extern bool pmdp_clear_flush_young(struct vm_area_struct *vma,
				   unsigned long address, pmd_t *pmdp);
/* mm/mmu_notifier.c:393, include/linux/mmu_notifier.h:421 */
bool __mmu_notifier_clear_flush_young(struct mm_struct *mm,
				      unsigned long start, unsigned long end);
/*
 * mm/util.c:1567, mm/internal.h:467: the kernel's own run of a large
 * folio's PTEs (flags 0), out of line; its folio_referenced_one() calls it
 */
unsigned int folio_pte_batch(struct folio *folio, pte_t *ptep, pte_t pte,
			     unsigned int max_nr);
#else
/* arch/x86/mm/pgtable.c:597, arch/x86/include/asm/pgtable.h:1313 */
extern int ptep_clear_flush_young(struct vm_area_struct *vma,
				  unsigned long address, pte_t *ptep);
/* arch/x86/mm/pgtable.c:617, arch/x86/include/asm/pgtable.h:1380 */
extern int pmdp_clear_flush_young(struct vm_area_struct *vma,
				  unsigned long address, pmd_t *pmdp);
/* mm/mmu_notifier.c:367, include/linux/mmu_notifier.h:378 */
extern int __mmu_notifier_clear_flush_young(struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end);
#endif
#ifdef CONFIG_LRU_GEN
#if FT_LINUX7
/* mm/vmscan.c:4255, include/linux/mmzone.h:692: one call per run of nr */
bool lru_gen_look_around(struct page_vma_mapped_walk *pvmw, unsigned int nr);
/*
 * mm/vmscan.c:2693, as include/linux/mm_inline.h:102 declares it inside
 * lru_gen_switching(); referenced.c reads it as data (no static branch).
 */
DECLARE_STATIC_KEY_FALSE(lru_switch);
#else
/* mm/vmscan.c:4065, include/linux/mmzone.h:560 */
bool lru_gen_look_around(struct page_vma_mapped_walk *pvmw);
#endif
/*
 * mm/vmscan.c:2607, as include/linux/mm_inline.h:108 declares it inside
 * lru_gen_enabled(); referenced.c reads it as data (no static branch).
 */
#ifdef CONFIG_LRU_GEN_ENABLED
DECLARE_STATIC_KEY_TRUE(lru_gen_caps[NR_LRU_GEN_CAPS]);
#else
DECLARE_STATIC_KEY_FALSE(lru_gen_caps[NR_LRU_GEN_CAPS]);
#endif
#endif

/*
 * mm/rmap.c:846, static: the replaced function.  Only its address is taken,
 * for the size check in livepatch.c; never call it.
 */
bool folio_referenced_one(struct folio *folio, struct vm_area_struct *vma,
			  unsigned long address, void *arg);

/* ---- data ---- */

/*
 * mm/memory.c:5195, static ("d" in kallsyms): the kernel's fault-around
 * window in pages, read by do_fault_around() and should_fault_around().
 * Written by fa_tuner.c with the rules of fault_around_bytes_set().
 */
extern unsigned long fault_around_pages;

/* kernel/fork.c:1237, include/linux/sched/task.h:56 */
extern spinlock_t mmlist_lock;
/* mm/init-mm.c:32, include/linux/mm_types.h:1095 */
extern struct mm_struct init_mm;

#endif /* FOLIOTUNE_KERNEL_SYMS_H */
