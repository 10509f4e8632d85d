/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcopy/memory_static.h - static helpers of mm/memory.c that the replacement
 * set_pte_range() (module/faultaround.c) needs and that a module cannot
 * reach: both are static inlines of the .c file, absent from vmlinux.
 *
 * Copied from linux-source-6.12 6.12.117-1~deb12u1:
 *   mm/memory.c:112-124  vmf_orig_pte_uffd_wp()
 *   mm/memory.c:147-156  arch_wants_old_prefaulted_pte() (the generic
 *                        fallback; x86 does not define its own, so it is
 *                        "return false" here exactly as in vmlinux)
 * Names are kept (none clashes with a public header), so each block diffs
 * cleanly against the kernel.  Every deviation is marked "foliotune:".
 */
#ifndef FOLIOTUNE_KCOPY_MEMORY_STATIC_H
#define FOLIOTUNE_KCOPY_MEMORY_STATIC_H

#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/swapops.h>
#include <linux/userfaultfd_k.h>

/* ---- mm/memory.c:112-124 ---- */

/*
 * Return true if the original pte was a uffd-wp pte marker (so the pte was
 * wr-protected).
 */
static __always_inline bool vmf_orig_pte_uffd_wp(struct vm_fault *vmf)
{
	if (!userfaultfd_wp(vmf->vma))
		return false;
	if (!(vmf->flags & FAULT_FLAG_ORIG_PTE_VALID))
		return false;

	return pte_marker_uffd_wp(vmf->orig_pte);
}

/* ---- mm/memory.c:147-156 ---- */

#ifndef arch_wants_old_prefaulted_pte
static inline bool arch_wants_old_prefaulted_pte(void)
{
	/*
	 * Transitioning a PTE from 'old' to 'young' can be expensive on
	 * some architectures, even if it's performed in hardware. By
	 * default, "false" means prefaulted entries will be 'young'.
	 */
	return false;
}
#else
/* foliotune: an architecture with its own version is not what we copied */
#error "foliotune: copied from the generic arch_wants_old_prefaulted_pte()"
#endif

#endif /* FOLIOTUNE_KCOPY_MEMORY_STATIC_H */
