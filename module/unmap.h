/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unmap.h - the batched try_to_unmap_one() replacement (unmap.c).
 */
#ifndef FOLIOTUNE_UNMAP_H
#define FOLIOTUNE_UNMAP_H

#include <linux/types.h>

struct folio;
struct vm_area_struct;

/*
 * Livepatch replacement for mm/rmap.c's static try_to_unmap_one()
 * (klp_func .old_name = "try_to_unmap_one"); same prototype.
 */
bool foliotune_try_to_unmap_one(struct folio *folio,
				struct vm_area_struct *vma,
				unsigned long address, void *arg);

#endif /* FOLIOTUNE_UNMAP_H */
