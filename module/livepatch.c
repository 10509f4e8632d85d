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
#include "referenced.h"
#include "unmap.h"

static struct klp_func ft_funcs[] = {
	{
		.old_name = "try_to_unmap_one",
		.new_func = foliotune_try_to_unmap_one,
	},
	{
		.old_name = "set_pte_range",
		.new_func = foliotune_set_pte_range,
	},
	{
		.old_name = "folio_referenced_one",
		.new_func = foliotune_folio_referenced_one,
	},
	{ }
};

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

/* Every function in ft_funcs[], with its address and verified size. */
static const struct {
	const char *name;
	const void *addr;
	unsigned long size;
} foliotune_verified_funcs[] = {
	{ "try_to_unmap_one", try_to_unmap_one, FT_VERIFIED_SIZE_try_to_unmap_one },
	{ "set_pte_range", set_pte_range, FT_VERIFIED_SIZE_set_pte_range },
	{ "folio_referenced_one", folio_referenced_one,
	  FT_VERIFIED_SIZE_folio_referenced_one },
};

int foliotune_livepatch_verify(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(foliotune_verified_funcs); i++) {
		ret = ft_check_func(foliotune_verified_funcs[i].name,
					   foliotune_verified_funcs[i].addr,
					   foliotune_verified_funcs[i].size);
		if (ret)
			return ret;
	}
	return 0;
}

int foliotune_livepatch_enable(void)
{
	return klp_enable_patch(&ft_patch);
}
