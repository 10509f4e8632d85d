// SPDX-License-Identifier: GPL-2.0
/*
 * foliotune - runtime reclaim and fault-around tuning for one verified
 * Debian 6.12 kernel build, as a livepatch module.
 *
 * Usage (or use the foliotune CLI, which wraps these steps):
 *   insmod module/foliotune.ko
 *   cat /sys/kernel/debug/foliotune/vmstat
 *   echo 0 > /sys/kernel/livepatch/foliotune/enabled   # when it is one
 *   rmmod foliotune
 *
 * Load order: verify the kernel build and the functions we replace (nothing
 * is registered on a foreign build), register the (disarmed) reclaim
 * probes, create the debugfs directory and knobs, then enable the
 * livepatch.  Every step is undone in reverse on failure;
 * at unload the livepatch core has already disabled the patch (rmmod of an
 * enabled livepatch module is refused), so only debugfs and the reclaim
 * probes are left to remove (the fault-around tuner's state was reset by
 * the patch's unpatch callbacks).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>

#include "fa_tuner.h"
#include "internal.h"

static struct dentry *ft_dir;

static int __init foliotune_init(void)
{
	int ret;

	ret = foliotune_check_kernel_build();
	if (ret)
		return ret;
	ret = foliotune_livepatch_verify();
	if (ret)
		return ret;

	/* Before debugfs: its reclaim_probes knob arms them. */
	ret = foliotune_reclaim_probes_init();
	if (ret)
		return ret;

	ft_dir = debugfs_create_dir(FOLIOTUNE_DEBUGFS_DIR, NULL);
	if (IS_ERR(ft_dir)) {
		ret = PTR_ERR(ft_dir);
		pr_err("cannot create debugfs directory: %d\n", ret);
		goto err_reclaim_probes;
	}
	foliotune_build_debugfs_init(ft_dir);
	foliotune_stats_debugfs_init(ft_dir);
	foliotune_knobs_debugfs_init(ft_dir);
	foliotune_fa_debugfs_init(ft_dir);

	ret = foliotune_livepatch_enable();
	if (ret) {
		pr_err("cannot enable the livepatch: %d\n", ret);
		goto err_fa;
	}

	ft_count(FT_loads);
	pr_info("loaded for %s\n", FT_VERIFIED_RELEASE);
	return 0;

err_fa:
	/* idempotent: a failed enable ran the unpatch callbacks already */
	foliotune_fa_exit();
	debugfs_remove_recursive(ft_dir);
err_reclaim_probes:
	foliotune_reclaim_probes_exit();
	return ret;
}

/* The reverse of init; the livepatch core disabled the patch already. */
static void __exit foliotune_exit(void)
{
	foliotune_fa_exit();
	debugfs_remove_recursive(ft_dir);
	foliotune_reclaim_probes_exit();
	pr_info("unloaded\n");
}

module_init(foliotune_init);
module_exit(foliotune_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
MODULE_DESCRIPTION("Batched rmap removal and fault-around tuning for " FT_VERIFIED_RELEASE);
