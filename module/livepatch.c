// SPDX-License-Identifier: GPL-2.0
/*
 * livepatch.c - which kernel functions foliotune replaces, and the check
 * that they are the ones its copies were made from.
 *
 * The patch is an ordinary livepatch (samples/livepatch style): enabling it
 * redirects every entry of the old function, including calls through
 * function pointers (rmap_walk's rwc->rmap_one), to ours; disabling it
 * (echo 0 > /sys/kernel/livepatch/foliotune/enabled) waits for every task
 * to leave our code before the module can be removed.
 *
 * Before enabling, each replaced function's size is compared with its size
 * in the verified build (module/verified/$(KVER).h): a function of another
 * size was compiled from other source, and our copy would not match it.
 * The address comes from a livepatch relocation (kernel_syms.h); it is only
 * printed with sprint_symbol(), never called.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/string.h>

#include "internal.h"
#include "fa_tuner.h"
#include "faultaround.h"
#include "kernel_syms.h"
#include "rmap_one.h"

/*
 * The functions foliotune replaces, each by foliotune_<name>, with its
 * address (kernel_syms.h) and its size in the verified build.
 */
#define FT_REPLACED(name)						\
	{ #name, foliotune_##name, name, FT_VERIFIED_SIZE_##name }
static const struct {
	const char *name;
	void *new_func;
	const void *addr;
	unsigned long size;
} ft_replaced[] = {
	FT_REPLACED(try_to_unmap_one),
	FT_REPLACED(set_pte_range),
	FT_REPLACED(folio_referenced_one),
};
#undef FT_REPLACED

/* ft_replaced[], each one once it is checked (foliotune_livepatch_verify()) */
static struct klp_func ft_funcs[ARRAY_SIZE(ft_replaced) + 1];

static struct klp_object ft_objs[] = {
	{
		/* name being NULL means vmlinux */
		.funcs = ft_funcs,
		/* fa_tuner.c: when its knobs may change the kernel */
		.callbacks = {
			.pre_patch = foliotune_fa_pre_patch,
			.post_patch = foliotune_fa_post_patch,
			.pre_unpatch = foliotune_fa_pre_unpatch,
			.post_unpatch = foliotune_fa_post_unpatch,
		},
	},
	{ }
};

static struct klp_patch ft_patch = {
	.mod = THIS_MODULE,
	.objs = ft_objs,
};

/* "name+0x0/0xSIZE": the symbol starts at addr and has the verified size. */
static int ft_check_func(const char *name, const void *addr,
				unsigned long size)
{
	char expected[KSYM_SYMBOL_LEN], found[KSYM_SYMBOL_LEN];

	snprintf(expected, sizeof(expected), "%s+0x0/%#lx", name, size);
	sprint_symbol(found, (unsigned long)addr);
	if (strcmp(expected, found)) {
		pr_err("unsupported kernel build: %s is %s, verified build has %s\n",
		       name, found, expected);
		return -ENOEXEC;
	}
	return 0;
}

int foliotune_livepatch_verify(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(ft_replaced); i++) {
		ret = ft_check_func(ft_replaced[i].name, ft_replaced[i].addr,
				    ft_replaced[i].size);
		if (ret)
			return ret;
		ft_funcs[i].old_name = ft_replaced[i].name;
		ft_funcs[i].new_func = ft_replaced[i].new_func;
	}
	return 0;
}

int foliotune_livepatch_enable(void)
{
	return klp_enable_patch(&ft_patch);
}
