// SPDX-License-Identifier: GPL-2.0
/*
 * ft_leak_test - test-only module for the debug-kernel lane's leak check
 * (tests/guest/reliability/leaks.sh): at load it allocates one object and
 * forgets the pointer, so that a kmemleak scan must report it.  A scan
 * that finds nothing after foliotune's load/unload cycles means something
 * only if it finds this one.  Stays loaded until the scan has run: the
 * report's backtrace names ft_leak_test_init only while the module's
 * symbols exist.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>

static int __init ft_leak_test_init(void)
{
	/* An uncommon size, so the report is easy to tell apart. */
	void *leak = kmalloc(1234, GFP_KERNEL);

	if (!leak)
		return -ENOMEM;
	pr_info("deliberate leak of 1234 bytes for the kmemleak self-test\n");
	return 0;
}

static void __exit ft_leak_test_exit(void)
{
}

module_init(ft_leak_test_init);
module_exit(ft_leak_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("foliotune test: a deliberate leak for the kmemleak self-test");
