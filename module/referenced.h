/* SPDX-License-Identifier: GPL-2.0 */
/*
 * referenced.h - the batched folio_referenced_one() replacement
 * (referenced.c).
 */
#ifndef FOLIOTUNE_REFERENCED_H
#define FOLIOTUNE_REFERENCED_H

#include <linux/types.h>

struct folio;
struct vm_area_struct;

/*
 * Livepatch replacement for mm/rmap.c's static folio_referenced_one()
 * (klp_func .old_name = "folio_referenced_one"); same prototype.
 */
bool foliotune_folio_referenced_one(struct folio *folio,
				    struct vm_area_struct *vma,
				    unsigned long address, void *arg);

#endif /* FOLIOTUNE_REFERENCED_H */
