// SPDX-License-Identifier: GPL-2.0
/*
 * build_check.c - refuse to run on a kernel build we were not verified on.
 *
 * foliotune replaces kernel functions with copies of their exact source
 * (see kcopy/).  Loaded into any other build, those copies could silently
 * disagree with the kernel around them, so the module checks, before it
 * registers anything, that the running kernel is the verified build:
 * same release, same version string (which carries the Debian package
 * version and build date).  The sizes of the replaced functions are checked
 * separately once their addresses are known (livepatch.c).
 *
 * A build is verified either in the tree (module/verified/REL.h) or on the
 * machine that runs it (make verify-kernel there writes
 * /var/lib/foliotune/verified/REL.h, which defines FT_VERIFIED_BY: the
 * machine and the time); the refusal line and debugfs "build" say which.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "internal.h"

/*
 * The fault-around hook keeps a per-CPU record that is only consistent
 * because set_pte_range() runs with preemption off under the page-table
 * lock; PREEMPT_RT makes that lock a sleeping lock.
 */
#ifdef CONFIG_PREEMPT_RT
#error "foliotune: PREEMPT_RT is not supported (the per-CPU fault-around record assumes preemption is off under the page-table lock)"
#endif

#ifdef FT_TEST_WRONG_BUILD
/* Test-only build (tests/guest/test-build-check.sh): expects another build. */
static const char ft_expected_version[] =
	"#0 foliotune test: a build nobody verified";
#else
static const char ft_expected_version[] = FT_VERIFIED_VERSION;
#endif
static const char ft_expected_release[] = FT_VERIFIED_RELEASE;

#ifdef FT_VERIFIED_BY
#define FT_VERIFIED_WHERE "locally " FT_VERIFIED_BY
#else
#define FT_VERIFIED_WHERE "in the tree"
#endif

int foliotune_check_kernel_build(void)
{
	const struct new_utsname *uts = init_utsname();

	if (strstr(uts->version, "PREEMPT_RT")) {
		pr_err("unsupported kernel build %s: PREEMPT_RT (the per-CPU fault-around record assumes preemption is off under the page-table lock)\n",
		       uts->release);
		return -ENOEXEC;
	}
	if (strcmp(uts->release, ft_expected_release) ||
	    strcmp(uts->version, ft_expected_version)) {
		pr_err("unsupported kernel build: expected %s %s (verified %s), found %s %s; verify it with make verify-kernel KVER=%s and build for it\n",
		       ft_expected_release, ft_expected_version,
		       FT_VERIFIED_WHERE, uts->release, uts->version,
		       uts->release);
		return -ENOEXEC;
	}
	return 0;
}

/* debugfs "build": the build this module was made and verified for. */
static int ft_build_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "release %s\nversion %s\nsource %s\nverified %s\n",
		   ft_expected_release, ft_expected_version,
		   FT_VERIFIED_SOURCE, FT_VERIFIED_WHERE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ft_build);

void foliotune_build_debugfs_init(struct dentry *dir)
{
	debugfs_create_file(FOLIOTUNE_BUILD_FILE, 0444, dir, NULL,
			    &ft_build_fops);
}
