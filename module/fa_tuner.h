/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa_tuner.h - fa_tuner.c's interface: the fault-around modes it owns, and
 * its place in the module's lifecycle.  Only the tuner writes the modes
 * (under its lock, from the knobs, the auto mode and the klp callbacks);
 * the fault path (faultaround.c) and the unmap path (unmap.c) read them.
 */
#ifndef FOLIOTUNE_FA_TUNER_H
#define FOLIOTUNE_FA_TUNER_H

#include <linux/jump_label.h>
#include <linux/types.h>

struct dentry;
struct klp_object;

/*
 * Read once per set_pte_range() call (READ_ONCE): fault_around_mkold, and
 * whether the auto mode's usefulness sample runs.
 */
extern int foliotune_fa_mkold;
extern bool foliotune_fa_sampling;

/*
 * The unmap path's young/old counting (pte_run.h) is on while
 * fault-around tuning is: mkold or auto, with the tuner live.
 */
DECLARE_STATIC_KEY_FALSE(foliotune_fa_unmap_key);

static __always_inline bool ft_fa_unmap_tracking(void)
{
	return static_branch_unlikely(&foliotune_fa_unmap_key);
}

/*
 * Module lifecycle (main.c): the auto-state file at load (fa_auto.c; the
 * knobs are knobs.c's); everything undone at unload.
 */
void foliotune_fa_debugfs_init(struct dentry *dir);
void foliotune_fa_exit(void);

/*
 * klp callbacks of the vmlinux object (livepatch.c).  The tuner is live
 * from pre_patch to pre_unpatch (or post_unpatch, when an enable is
 * reverted): only then do its knobs change the kernel.  Leaving that state
 * stops the auto mode, undoes foliotune's change of fault_around_pages and
 * switches the unmap counting off.
 */
int foliotune_fa_pre_patch(struct klp_object *obj);
void foliotune_fa_post_patch(struct klp_object *obj);
void foliotune_fa_pre_unpatch(struct klp_object *obj);
void foliotune_fa_post_unpatch(struct klp_object *obj);

#endif /* FOLIOTUNE_FA_TUNER_H */
