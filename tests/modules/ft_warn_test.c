// SPDX-License-Identifier: GPL-2.0
/*
 * ft_warn_test - test-only module that emits one kernel warning at load.
 *
 * The console-log gate (harness/vm/console-gate.sh) must fail any test-box
 * run whose kernel log shows a warning.  tests/run.sh loads this module in
 * the test box and expects vmrun.sh to report the gate failure (exit 252):
 * a gate that cannot fail would prove nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/module.h>

static int __init ft_warn_test_init(void)
{
	WARN(1, "deliberate warning for the console-gate self-test\n");
	return 0;
}

static void __exit ft_warn_test_exit(void)
{
}

module_init(ft_warn_test_init);
module_exit(ft_warn_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("foliotune test: deliberate WARN for the console gate");
