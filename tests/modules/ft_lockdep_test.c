// SPDX-License-Identifier: GPL-2.0
/*
 * ft_lockdep_test - test-only module for the debug-kernel lane's gate
 * self-test: at load it makes the debug kernel's checkers report, so that
 * tests/run.sh can check that the console gate fails on what they really
 * print.  what=lockdep takes two mutexes in both orders (lockdep: "possible
 * circular locking dependency"); what=atomic_sleep calls might_sleep()
 * with preemption off (DEBUG_ATOMIC_SLEEP: "sleeping function called from
 * invalid context").  Nothing deadlocks: one thread takes the locks.
 * On a kernel without those checkers it reports nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/string.h>

static char *what = "lockdep";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "lockdep or atomic_sleep");

static DEFINE_MUTEX(ft_lock_a);
static DEFINE_MUTEX(ft_lock_b);

static int __init ft_lockdep_test_init(void)
{
	if (!strcmp(what, "lockdep")) {
		mutex_lock(&ft_lock_a);
		mutex_lock(&ft_lock_b);
		mutex_unlock(&ft_lock_b);
		mutex_unlock(&ft_lock_a);
		/* The inverse order: a deadlock if two threads did this. */
		mutex_lock(&ft_lock_b);
		mutex_lock(&ft_lock_a);
		mutex_unlock(&ft_lock_a);
		mutex_unlock(&ft_lock_b);
	} else if (!strcmp(what, "atomic_sleep")) {
		preempt_disable();
		might_sleep();
		preempt_enable();
	} else {
		return -EINVAL;
	}
	pr_info("deliberate %s report for the console-gate self-test\n", what);
	return 0;
}

static void __exit ft_lockdep_test_exit(void)
{
}

module_init(ft_lockdep_test_init);
module_exit(ft_lockdep_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("foliotune test: deliberate lockdep/atomic-sleep reports for the console gate");
