/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcopy/memory_static.h - static helpers of mm/memory.c that the replacement
 * set_pte_range() (module/faultaround.c) needs and that a module cannot
 * reach: both are static inlines of the .c file, absent from vmlinux.
 *
 * kcopy-gen/memory_static.c holds vmf_orig_pte_uffd_wp() and
 * arch_wants_old_prefaulted_pte() (the generic fallback; x86 does not
 * define its own, so it is "return false" here exactly as in vmlinux) as
 * this build's mm/memory.c has them (scripts/kernels/kcopy.py, generated
 * into build/kcopy/KVER/; module/kcopy/sources.list).  Names are kept (none
 * clashes with a public header).
 */
#ifndef FOLIOTUNE_KCOPY_MEMORY_STATIC_H
#define FOLIOTUNE_KCOPY_MEMORY_STATIC_H

#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/swapops.h>
#include <linux/userfaultfd_k.h>

/* The copy is the generic arch_wants_old_prefaulted_pte() (mm/memory.c). */
#ifdef arch_wants_old_prefaulted_pte
#error "foliotune: an architecture with its own arch_wants_old_prefaulted_pte()"
#endif

#include "kcopy-gen/memory_static.c"

#endif /* FOLIOTUNE_KCOPY_MEMORY_STATIC_H */
