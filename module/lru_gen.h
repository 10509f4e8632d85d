/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lru_gen.h - which LRU reclaim walks, read as data: the reference walk
 * (referenced.c) and the reclaim probes (reclaim_probes.c) follow the
 * kernel's choice of MGLRU or the classic LRU without its static branches.
 */
#ifndef FOLIOTUNE_LRU_GEN_H
#define FOLIOTUNE_LRU_GEN_H

#include <linux/jump_label.h>
#include <linux/mmzone.h>

#include "internal.h"
#include "kernel_syms.h"

/*
 * lru_gen_enabled() without its static branch.  A module's jump
 * table cannot name vmlinux's lru_gen_caps (not exported; klp-convert
 * refuses it), so read the key's state as data.  Both forms can be stale by
 * one flip of /sys/kernel/mm/lru_gen/enabled, as stock's can.
 */
static inline bool ft_lru_gen_enabled(void)
{
#ifdef CONFIG_LRU_GEN
	return static_key_enabled(&lru_gen_caps[LRU_GEN_CORE]);
#else
	return false;
#endif
}

/*
 * Linux 7's lru_gen_switching() the same way: its key lru_switch
 * is set while /sys/kernel/mm/lru_gen/enabled flips, and the walk then
 * takes the classic branch.  6.12 has no such key.
 */
static inline bool ft_lru_gen_switching(void)
{
#if FT_LINUX7 && defined(CONFIG_LRU_GEN)
	return static_key_enabled(&lru_switch);
#else
	return false;
#endif
}

/* The walk that tests a PTE: MGLRU's look-around, or the classic one. */
static inline bool ft_lru_gen_walk(void)
{
	return ft_lru_gen_enabled() && !ft_lru_gen_switching();
}

#endif /* FOLIOTUNE_LRU_GEN_H */
