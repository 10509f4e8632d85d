/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faultaround.h - faultaround.c's interface: the replacement
 * set_pte_range().  The modes it follows are fa_tuner.h's.
 */
#ifndef FOLIOTUNE_FAULTAROUND_H
#define FOLIOTUNE_FAULTAROUND_H

#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/types.h>

#include "internal.h"
#include "fa_tuner.h"

/*
 * Livepatch replacement for mm/memory.c's set_pte_range() (global, not
 * exported; klp_func .old_name = "set_pte_range"); same prototype.
 */
void foliotune_set_pte_range(struct vm_fault *vmf, struct folio *folio,
			     struct page *page, unsigned int nr,
			     unsigned long addr);

#endif /* FOLIOTUNE_FAULTAROUND_H */
