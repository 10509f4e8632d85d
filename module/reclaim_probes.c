// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim_probes.c - the 2016 fault-around thread's reclaim counters
 * (pgpgoutclean, pageref_activate, pageref_activate_vm_exec, pageref_keep)
 * on the stock kernel, by a kprobe and a kretprobe.
 *
 * Both probes fire once for every folio that reclaim frees or checks, which
 * costs even while foliotune changes nothing else (measured under TCG: an
 * order-0 memcg reclaim about 20% slower with them armed).  So they are
 * registered at load, which proves the probe points exist on this build,
 * but disarmed (KPROBE_FLAG_DISABLED: the ftrace site stays a NOP), and the
 * knob reclaim_probes arms them:
 *   reclaim_probes   0 (default): the four counters do not move;
 *                    1: they count.  `foliotune record` turns it on for
 *                    the recorded command unless told otherwise.
 * Neither function is livepatched by foliotune, so a kretprobe on
 * folio_referenced() does not collide with a livepatch ftrace handler.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/ptrace.h>
#include <linux/swap.h>

#include "internal.h"
#include "lru_gen.h"

/*
 * pgpgoutclean: workingset_eviction(folio, target_memcg) (mm/workingset.c:
 * 382) is called only by __remove_mapping() with reclaimed == true, after
 * the refcount was frozen and the folio found clean (mm/vmscan.c:770 for
 * swap cache, :797 for file LRU folios): count the page-cache ones.  Entry
 * handler only.
 */
static int ft_eviction_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct folio *folio = (struct folio *)regs_get_kernel_argument(regs, 0);

	if (!folio_test_swapcache(folio))
		ft_add(FT_pgpgoutclean, folio_nr_pages(folio));
	return 0;
}

static struct kprobe ft_eviction_kp = {
	.symbol_name = "workingset_eviction",
	.pre_handler = ft_eviction_pre,
	.flags = KPROBE_FLAG_DISABLED,
};

/*
 * pageref_*: the outcome of folio_check_references() (mm/vmscan.c:865-925,
 * static and inlined into shrink_folio_list(), so not probeable), rebuilt
 * from its folio_referenced(folio, 1, memcg, &vm_flags) call, the only one
 * with is_locked == 1 (shrink_active_list() passes 0).  On return the
 * caller has not yet run folio_test_clear_referenced() (nor, on Linux 7
 * under MGLRU, lru_gen_set_refs()), so PG_referenced and PG_workingset
 * are what it will see.  Counted, in pages, for file LRU folios as the
 * 2016 counters were ("mapped file pages activated and retained"):
 *   referenced > 0, not VM_LOCKED, the classic LRU (and 6.12 always):
 *     PG_referenced || referenced > 1   pageref_activate
 *     else VM_EXEC                      pageref_activate and
 *                                       pageref_activate_vm_exec
 *     else                              pageref_keep
 *   referenced > 0, not VM_LOCKED, Linux 7 under MGLRU (lru_gen_set_refs()):
 *     PG_referenced || PG_workingset    pageref_activate
 *     else VM_EXEC (7.3 on)             pageref_activate and
 *                                       pageref_activate_vm_exec
 *     else                              pageref_keep
 * Not counted: VM_LOCKED (activated to become unevictable, not for its
 * references), -1 (rmap lock contention: kept, not referenced), 0
 * (reclaimed).  The flags come back as vm_flags (6.12, 7.2) or, from 7.3
 * on, as a vma_flags_t bitmap.
 */
struct ft_pageref_data {
	struct folio *folio;
#if FT_LINUX7_3
	vma_flags_t *vma_flags;
#else
	unsigned long *vm_flags;
#endif
};

/* The VMAs' VM_LOCKED and VM_EXEC, as folio_referenced() collected them. */
static void ft_pageref_flags(const struct ft_pageref_data *d, bool *locked,
			     bool *exec)
{
#if FT_LINUX7_3
	*locked = vma_flags_test(d->vma_flags, VMA_LOCKED_BIT);
	*exec = vma_flags_test(d->vma_flags, VMA_EXEC_BIT);
#else
	*locked = *d->vm_flags & VM_LOCKED;
	*exec = *d->vm_flags & VM_EXEC;
#endif
}

static int ft_pageref_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ft_pageref_data *d = (struct ft_pageref_data *)ri->data;

	/* int is_locked: only the low 32 bits of the register are defined */
	if ((int)regs_get_kernel_argument(regs, 1) != 1)
		return 1;	/* not folio_check_references(): no return hook */
	d->folio = (struct folio *)regs_get_kernel_argument(regs, 0);
#if FT_LINUX7_3
	d->vma_flags = (vma_flags_t *)regs_get_kernel_argument(regs, 3);
#else
	d->vm_flags = (unsigned long *)regs_get_kernel_argument(regs, 3);
#endif
	return 0;
}

static int ft_pageref_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ft_pageref_data *d = (struct ft_pageref_data *)ri->data;
	int referenced = (int)regs_return_value(regs);
	struct folio *folio = d->folio;
	bool locked, exec;
	long nr;

	ft_pageref_flags(d, &locked, &exec);
	if (referenced <= 0 || locked || !folio_is_file_lru(folio))
		return 0;
	nr = folio_nr_pages(folio);
	if (FT_LINUX7 && ft_lru_gen_walk()) {
		if (folio_test_referenced(folio) ||
		    folio_test_workingset(folio)) {
			ft_add(FT_pageref_activate, nr);
		} else if (FT_LINUX7_3 && exec) {
			ft_add(FT_pageref_activate, nr);
			ft_add(FT_pageref_activate_vm_exec, nr);
		} else {
			ft_add(FT_pageref_keep, nr);
		}
		return 0;
	}
	if (folio_test_referenced(folio) || referenced > 1) {
		ft_add(FT_pageref_activate, nr);
	} else if (exec) {
		ft_add(FT_pageref_activate, nr);
		ft_add(FT_pageref_activate_vm_exec, nr);
	} else {
		ft_add(FT_pageref_keep, nr);
	}
	return 0;
}

static struct kretprobe ft_pageref_krp = {
	.kp.symbol_name = "folio_referenced",
	.kp.flags = KPROBE_FLAG_DISABLED,
	.entry_handler = ft_pageref_entry,
	.handler = ft_pageref_ret,
	.data_size = sizeof(struct ft_pageref_data),
};

/* ---- the knob; its writers are serialised by knob->lock ---- */

/* registered disarmed: a default of 1 would need arming at init */
static_assert(FT_KNOB_DEFAULT_reclaim_probes == 0);
static bool ft_reclaim_probes_armed;

static u64 ft_reclaim_probes_get(struct ft_knob *knob)
{
	return READ_ONCE(ft_reclaim_probes_armed);
}

static int ft_reclaim_probes_set(struct ft_knob *knob, u64 val)
{
	int ret;

	if (val == ft_reclaim_probes_armed)
		return 0;
	if (!val) {
		disable_kretprobe(&ft_pageref_krp);
		disable_kprobe(&ft_eviction_kp);
		WRITE_ONCE(ft_reclaim_probes_armed, false);
		return 0;
	}
	ret = enable_kprobe(&ft_eviction_kp);
	if (ret) {
		pr_err("cannot arm the workingset_eviction probe: %d\n", ret);
		return ret;
	}
	ret = enable_kretprobe(&ft_pageref_krp);
	if (ret) {
		pr_err("cannot arm the folio_referenced probe: %d\n", ret);
		disable_kprobe(&ft_eviction_kp);
		return ret;
	}
	WRITE_ONCE(ft_reclaim_probes_armed, true);
	return 0;
}

/* <dir>/reclaim_probes: the probes are registered before debugfs exists. */
struct ft_knob foliotune_knob_reclaim_probes = {
	.min = FT_KNOB_MIN_reclaim_probes,
	.max = FT_KNOB_MAX_reclaim_probes,
	.get = ft_reclaim_probes_get,
	.set = ft_reclaim_probes_set,
};

/* Registers both probes, disarmed; nothing is left registered on failure. */
int foliotune_reclaim_probes_init(void)
{
	int ret;

	ret = register_kprobe(&ft_eviction_kp);
	if (ret) {
		pr_err("cannot probe workingset_eviction: %d\n", ret);
		return ret;
	}
	ft_pageref_krp.maxactive = max_t(int, 64, 4 * num_possible_cpus());
	ret = register_kretprobe(&ft_pageref_krp);
	if (ret) {
		pr_err("cannot probe folio_referenced: %d\n", ret);
		goto err_eviction;
	}
	return 0;

err_eviction:
	unregister_kprobe(&ft_eviction_kp);
	return ret;
}

/* After debugfs is gone: no knob write can race with the unregistering. */
void foliotune_reclaim_probes_exit(void)
{
	unregister_kretprobe(&ft_pageref_krp);
	unregister_kprobe(&ft_eviction_kp);
	if (ft_pageref_krp.nmissed)
		pr_info("folio_referenced probe missed %d calls\n",
			ft_pageref_krp.nmissed);
}
