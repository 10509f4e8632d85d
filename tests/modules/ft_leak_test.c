// SPDX-License-Identifier: GPL-2.0
/*
 * ft_leak_test - test-only module for the debug-kernel lane's leak check
 * (tests/guest/reliability/leaks.sh): at load it allocates one object and
 * forgets the pointer, so that a kmemleak scan must report it.  A scan
 * that finds nothing after foliotune's load/unload cycles means something
 * only if it finds this one.  Stays loaded until the scan has run: the
 * report's backtrace names ft_leak_test_plant only while the module's
 * symbols exist.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

/* In the report's hex dump of the object's first bytes. */
#define FT_LEAK_MARK "ft-leak-test"

/*
 * Not __init: the report's backtrace names the function only while its
 * text exists, and init text is freed once the module is live.
 */
static noinline int ft_leak_test_plant(void)
{
	char *leak = kmalloc(64, GFP_KERNEL);

	if (!leak)
		return -ENOMEM;
	strscpy(leak, FT_LEAK_MARK, 64);
	/* The stores are otherwise dead to the compiler: kmalloc is __malloc. */
	barrier_data(leak);
	return 0;
}

static int __init ft_leak_test_init(void)
{
	int ret = ft_leak_test_plant();

	if (!ret)
		pr_info("deliberate leak of 64 bytes for the kmemleak self-test\n");
	return ret;
}

static void __exit ft_leak_test_exit(void)
{
}

module_init(ft_leak_test_init);
module_exit(ft_leak_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("foliotune test: a deliberate leak for the kmemleak self-test");
