/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmap_one.h - the two rmap_walk() callbacks (rwc->rmap_one) of mm/rmap.c
 * that foliotune replaces with batched ones, with the same prototypes:
 * try_to_unmap_one() by unmap.c's, folio_referenced_one() by
 * referenced.c's (livepatch.c's FT_REPLACED()).
 */
#ifndef FOLIOTUNE_RMAP_ONE_H
#define FOLIOTUNE_RMAP_ONE_H

#include <linux/types.h>

struct folio;
struct vm_area_struct;

bool foliotune_try_to_unmap_one(struct folio *folio,
				struct vm_area_struct *vma,
				unsigned long address, void *arg);
bool foliotune_folio_referenced_one(struct folio *folio,
				    struct vm_area_struct *vma,
				    unsigned long address, void *arg);

#endif /* FOLIOTUNE_RMAP_ONE_H */
