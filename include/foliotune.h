/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * foliotune.h - names shared by the kernel module and the CLI.
 *
 * One source of truth: the debugfs layout, every knob and every counter
 * are spelled here once.  A counter name, once published, is never renamed
 * or removed (users diff these files like /proc/vmstat); new ones are
 * appended at the end of FOLIOTUNE_COUNTERS.
 *
 * This header must compile both in the kernel and in plain C11 userspace,
 * so it uses no kernel or libc types.  X-macros are why checkpatch runs on
 * this one file with --ignore COMPLEX_MACRO,MACRO_ARG_UNUSED (an X-macro
 * takes every column and uses some; Makefile: check-style).
 */
#ifndef FOLIOTUNE_H
#define FOLIOTUNE_H

#define FOLIOTUNE_NAME			"foliotune"
#define FOLIOTUNE_DEBUGFS_DIR		"foliotune"	/* under /sys/kernel/debug */
#define FOLIOTUNE_VMSTAT_FILE		"vmstat"	/* 0444, "name value" lines */
#define FOLIOTUNE_BUILD_FILE		"build"		/* 0444, verified kernel build */
#define FOLIOTUNE_AUTO_STATE_FILE	"fault_around_auto_state" /* 0444, tuner state */

/*
 * Knobs: X(name, kind, unit, min, max, default, help).  Every knob is a
 * 0600 debugfs file in FOLIOTUNE_DEBUGFS_DIR holding one decimal value.
 * "default" is its value when the module loads (fault_around_bytes: the
 * kernel's own default; loading leaves the window as it finds it).
 * "kind" tells the CLI how to parse a value: BOOL accepts 0/1/on/off,
 * BYTES accepts unit suffixes (4K, 64K, 2M), ENUM and UINT plain
 * decimals (an ENUM whose list has 0 and 1 also off and on: the walk
 * knobs were BOOL before they had a third arm).  min..max is the
 * documented range: the CLI refuses values outside it, and so does the
 * module (FT_KNOB_MIN_ and FT_KNOB_MAX_ below) but for the BYTES knobs,
 * whose values it takes by the kernel's own rules (module/fa_tuner.c);
 * the module's errno has the last word on what the CLI passes.  A knob the
 * loaded module does not provide yet simply has no file.  New knobs go at
 * the end.  The module names its files from this list and fails to link
 * until a file defines foliotune_knob_NAME for a knob added here
 * (module/internal.h); the CLI, the man page's and docs' tables follow
 * from it too.
 */
#define FOLIOTUNE_FA_BYTES_MIN		4096		/* one page (x86-64) */
#define FOLIOTUNE_FA_BYTES_MAX		2097152		/* PTRS_PER_PTE pages */
#define FOLIOTUNE_FA_PERIOD_MIN_MS	100
#define FOLIOTUNE_FA_PERIOD_MAX_MS	60000

/*
 * The arms of a walk (knobs unmap_batch, referenced_batch): which code
 * decides how many PTEs of a large folio one step of try_to_unmap_one() or
 * folio_referenced_one() handles.  X(value, name, what).  On Linux 6.12
 * the kernel's own code is one PTE at a time, so 0 and 2 run the same
 * code there (docs/batching.md has the table).
 */
#define FOLIOTUNE_ARM_KERNEL		0
#define FOLIOTUNE_ARM_FOLIOTUNE		1
#define FOLIOTUNE_ARM_PTE		2
#define FOLIOTUNE_ARMS(X)						\
	X(FOLIOTUNE_ARM_KERNEL, kernel, "the kernel's own code")	\
	X(FOLIOTUNE_ARM_FOLIOTUNE, foliotune, "foliotune's batching")	\
	X(FOLIOTUNE_ARM_PTE, pte, "one PTE at a time")

/* The knobs whose value is an arm (of try_to_unmap_one's, folio_referenced_one's walk). */
#define FOLIOTUNE_ARM_KNOBS(X)	X(unmap_batch) X(referenced_batch)

#define FOLIOTUNE_KNOBS(X)						\
	X(unmap_batch, ENUM, "0|1|2", 0, 2, 1,				\
	  "try_to_unmap_one's PTE runs: 0 the kernel's own code, 1 foliotune's batching, 2 one PTE at a time (on 6.12 the kernel's own code is one at a time)") \
	X(fault_around_bytes, BYTES, "bytes",				\
	  FOLIOTUNE_FA_BYTES_MIN, FOLIOTUNE_FA_BYTES_MAX, 65536,	\
	  "kernel fault-around window (rounded down to a power of two, as the kernel does; its default is the kernel's, which loading leaves as found)") \
	X(fault_around_mkold, ENUM, "0|1|2", 0, 2, 0,			\
	  "pre-mapped PTEs: 0 young (stock), 1 old except the faulting run, 2 old except the faulting page") \
	X(fault_around_auto, BOOL, "bool", 0, 1, 0,			\
	  "let the tuner pick fault_around_bytes from feedback (it maps 1 in 8 pre-mapped windows old to sample their use)") \
	X(fault_around_auto_max_bytes, BYTES, "bytes",			\
	  FOLIOTUNE_FA_BYTES_MIN, FOLIOTUNE_FA_BYTES_MAX, 65536,	\
	  "largest window the tuner may choose")			\
	X(fault_around_auto_period_ms, UINT, "ms",			\
	  FOLIOTUNE_FA_PERIOD_MIN_MS, FOLIOTUNE_FA_PERIOD_MAX_MS, 1000,	\
	  "tuner period")						\
	X(reclaim_probes, BOOL, "bool", 0, 1, 0,				\
	  "count pgpgoutclean and pageref_* (kprobes on reclaim; record arms them)") \
	X(fault_around_auto_age, BOOL, "bool", 0, 1, 0,			\
	  "let the tuner also decide the age of pre-mapped PTEs: old (as mkold=2) under file reclaim pressure, young otherwise") \
	X(referenced_batch, ENUM, "0|1|2", 0, 2, 1,			\
	  "folio_referenced_one's PTE runs: 0 the kernel's own code, 1 foliotune's one-pass test, 2 one PTE at a time (on 6.12 the kernel's own code is one at a time)")

/*
 * Counters: X(name, help).  Per-cpu in the module, summed on read.
 */
#define FOLIOTUNE_COUNTERS(X)						\
	X(loads, "times this module instance was initialised (always 1)") \
	X(unmap_calls, "calls of the replacement try_to_unmap_one")	\
	X(unmap_batches, "PTE runs unmapped in one batch (nr >= 2)")	\
	X(unmap_batched_ptes, "PTEs unmapped inside batches")		\
	X(unmap_single_ptes, "PTEs unmapped one at a time")		\
	X(unmap_nobatch_off, "large-folio PTEs done singly: unmap_batch=2 (and 0 on 6.12)") \
	X(unmap_nobatch_small, "order-0 folio PTEs (nothing to batch)") \
	X(unmap_nobatch_hugetlb, "hugetlb PTEs (never batched)")	\
	X(unmap_nobatch_swap, "anon PTEs going to swap (per-PTE by design)") \
	X(unmap_nobatch_uffd_wp, "PTEs in uffd-wp VMAs")		\
	X(unmap_nobatch_hwpoison, "HWPoison pages or TTU_HWPOISON walks") \
	X(unmap_nobatch_nonpresent, "non-present (device-exclusive) entries") \
	X(unmap_nobatch_partial, "run of one PTE: neighbour absent, other folio or boundary") \
	X(unmap_nobatch_mlock, "VM_LOCKED VMAs (per PTE; mlock walk aborts: unmap_aborts)") \
	X(unmap_batch_order0, "large-folio runs of 1 PTE")	\
	X(unmap_batch_order1, "batches of 2-3 PTEs")			\
	X(unmap_batch_order2, "batches of 4-7 PTEs")			\
	X(unmap_batch_order3, "batches of 8-15 PTEs")			\
	X(unmap_batch_order4, "batches of 16-31 PTEs")			\
	X(unmap_batch_order5, "batches of 32-63 PTEs")			\
	X(unmap_batch_order6, "batches of 64-127 PTEs")			\
	X(unmap_batch_order7, "batches of 128-255 PTEs")		\
	X(unmap_batch_order8, "batches of 256-511 PTEs")		\
	X(unmap_batch_order9, "batches of 512 PTEs")			\
	X(unmap_aborts, "calls that returned false (mlock, lazyfree kept, swap error, hugetlb lock)") \
	X(unmap_restored_ptes, "PTEs cleared then put back by an aborting walk (not counted as unmapped)") \
	X(fa_events, "fault-around calls (->map_pages) that mapped at least one PTE") \
	X(fa_pages_mapped, "PTEs fault-around mapped for pages other than the faulting one") \
	X(fa_pages_mapped_old, "of fa_pages_mapped: mapped old (fault_around_mkold)") \
	X(fa_unmap_old_ptes, "file PTEs try_to_unmap_one cleared while old (tuning on)") \
	X(fa_unmap_young_ptes, "file PTEs try_to_unmap_one cleared while young (tuning on)") \
	X(pgpgoutclean, "clean page-cache pages reclaim freed (kprobe workingset_eviction)") \
	X(pageref_activate, "mapped file pages reclaim activated for references (folio_referenced)") \
	X(pageref_activate_vm_exec, "of pageref_activate: only because the VMA is VM_EXEC") \
	X(pageref_keep, "mapped file pages reclaim kept inactive for one reference") \
	X(fa_read_faults, "read faults on file mappings that mapped PTEs (set_pte_range)") \
	X(fa_read_faults_near, "of fa_read_faults: next to the previous one's pages on this CPU") \
	X(fa_auto_changes, "fault_around_bytes changes made by fault_around_auto") \
	X(fa_sample_used, "auto mode: sampled pre-mapped PTEs used by the next fault in their table") \
	X(fa_sample_unused, "auto mode: sampled pre-mapped PTEs still unused then") \
	X(fa_auto_age_changes, "pre-mapped PTE age changes made by fault_around_auto_age") \
	X(fa_read_faults_exec, "of fa_read_faults: on executable mappings (the auto mode leaves them out)") \
	X(referenced_calls, "calls of the replacement folio_referenced_one") \
	X(referenced_batches, "PTE runs whose accessed bits were tested in one pass (nr >= 2)") \
	X(referenced_batched_ptes, "PTEs tested inside batches")	\
	X(referenced_single_ptes, "PTEs tested (or, mlocked, skipped) one at a time") \
	X(referenced_nobatch_off, "large-folio PTEs done singly: referenced_batch=2 (and 0 on 6.12)") \
	X(referenced_nobatch_small, "order-0 folio PTEs (nothing to batch)") \
	X(referenced_nobatch_hugetlb, "hugetlb PTEs (never batched)")	\
	X(referenced_nobatch_lru_gen, "large-folio PTEs done singly: MGLRU on, the mm has MMU notifiers") \
	X(referenced_nobatch_mlock, "large-folio PTEs in VM_LOCKED VMAs (skipped untested, as stock)") \
	X(referenced_nobatch_partial, "run of one PTE: neighbour absent, other folio or boundary") \
	X(referenced_batch_order0, "large-folio runs of 1 PTE")	\
	X(referenced_batch_order1, "batches of 2-3 PTEs")		\
	X(referenced_batch_order2, "batches of 4-7 PTEs")		\
	X(referenced_batch_order3, "batches of 8-15 PTEs")		\
	X(referenced_batch_order4, "batches of 16-31 PTEs")		\
	X(referenced_batch_order5, "batches of 32-63 PTEs")		\
	X(referenced_batch_order6, "batches of 64-127 PTEs")		\
	X(referenced_batch_order7, "batches of 128-255 PTEs")		\
	X(referenced_batch_order8, "batches of 256-511 PTEs")		\
	X(referenced_batch_order9, "batches of 512 PTEs")		\
	X(referenced_pmds, "PMD mappings tested (one entry: nothing to batch)") \
	X(referenced_young_ptes, "PTEs found young (accessed bit; alone, also a secondary MMU's report)") \
	X(referenced_lru_gen_batches, "of referenced_batches: MGLRU runs (lru_gen_look_around at their young PTEs)") \
	X(unmap_calls_kernel, "of unmap_calls: with unmap_batch=0 (the kernel's own code)") \
	X(unmap_calls_pte, "of unmap_calls: with unmap_batch=2 (one PTE at a time)") \
	X(unmap_kernel_batches, "Linux 7, unmap_batch=0: PTE runs the kernel unmapped in one batch") \
	X(unmap_kernel_batched_ptes, "Linux 7, unmap_batch=0: PTEs unmapped inside the kernel's batches") \
	X(unmap_kernel_single_ptes, "Linux 7, unmap_batch=0: PTEs the kernel unmapped one at a time") \
	X(unmap_kernel_nobatch_small, "of unmap_kernel_single_ptes: order-0 folios") \
	X(unmap_kernel_nobatch_swap, "of unmap_kernel_single_ptes: anon folios going to swap") \
	X(unmap_kernel_nobatch_hwpoison, "of unmap_kernel_single_ptes: TTU_HWPOISON walks") \
	X(unmap_kernel_nobatch_nonpresent, "of unmap_kernel_single_ptes: non-present (device-exclusive) entries") \
	X(unmap_kernel_nobatch_uffd_wp, "of unmap_kernel_single_ptes: uffd-wp VMAs (7.2; 7.3 batches them)") \
	X(unmap_kernel_nobatch_hugetlb, "of unmap_kernel_single_ptes: hugetlb (7.2; 7.3 has its own rmap_one)") \
	X(unmap_kernel_nobatch_partial, "of unmap_kernel_single_ptes: a run of one PTE of a large folio") \
	X(unmap_kernel_batch_order0, "Linux 7, unmap_batch=0: large-folio runs of 1 PTE") \
	X(unmap_kernel_batch_order1, "Linux 7, unmap_batch=0: kernel batches of 2-3 PTEs") \
	X(unmap_kernel_batch_order2, "Linux 7, unmap_batch=0: kernel batches of 4-7 PTEs") \
	X(unmap_kernel_batch_order3, "Linux 7, unmap_batch=0: kernel batches of 8-15 PTEs") \
	X(unmap_kernel_batch_order4, "Linux 7, unmap_batch=0: kernel batches of 16-31 PTEs") \
	X(unmap_kernel_batch_order5, "Linux 7, unmap_batch=0: kernel batches of 32-63 PTEs") \
	X(unmap_kernel_batch_order6, "Linux 7, unmap_batch=0: kernel batches of 64-127 PTEs") \
	X(unmap_kernel_batch_order7, "Linux 7, unmap_batch=0: kernel batches of 128-255 PTEs") \
	X(unmap_kernel_batch_order8, "Linux 7, unmap_batch=0: kernel batches of 256-511 PTEs") \
	X(unmap_kernel_batch_order9, "Linux 7, unmap_batch=0: kernel batches of 512 PTEs") \
	X(referenced_calls_kernel, "of referenced_calls: with referenced_batch=0 (the kernel's own code)") \
	X(referenced_calls_pte, "of referenced_calls: with referenced_batch=2 (one PTE at a time)") \
	X(referenced_kernel_batches, "Linux 7, referenced_batch=0: PTE runs the kernel tested in one batch") \
	X(referenced_kernel_batched_ptes, "Linux 7, referenced_batch=0: PTEs tested inside the kernel's batches") \
	X(referenced_kernel_single_ptes, "Linux 7, referenced_batch=0: PTEs the kernel tested (or, mlocked, skipped) one at a time") \
	X(referenced_kernel_nobatch_mlock, "of referenced_kernel_single_ptes: VM_LOCKED VMAs (skipped untested)") \
	X(referenced_kernel_nobatch_small, "of referenced_kernel_single_ptes: order-0 folios") \
	X(referenced_kernel_nobatch_partial, "of referenced_kernel_single_ptes: a run of one PTE of a large folio") \
	X(referenced_kernel_batch_order0, "Linux 7, referenced_batch=0: large-folio runs of 1 PTE") \
	X(referenced_kernel_batch_order1, "Linux 7, referenced_batch=0: kernel batches of 2-3 PTEs") \
	X(referenced_kernel_batch_order2, "Linux 7, referenced_batch=0: kernel batches of 4-7 PTEs") \
	X(referenced_kernel_batch_order3, "Linux 7, referenced_batch=0: kernel batches of 8-15 PTEs") \
	X(referenced_kernel_batch_order4, "Linux 7, referenced_batch=0: kernel batches of 16-31 PTEs") \
	X(referenced_kernel_batch_order5, "Linux 7, referenced_batch=0: kernel batches of 32-63 PTEs") \
	X(referenced_kernel_batch_order6, "Linux 7, referenced_batch=0: kernel batches of 64-127 PTEs") \
	X(referenced_kernel_batch_order7, "Linux 7, referenced_batch=0: kernel batches of 128-255 PTEs") \
	X(referenced_kernel_batch_order8, "Linux 7, referenced_batch=0: kernel batches of 256-511 PTEs") \
	X(referenced_kernel_batch_order9, "Linux 7, referenced_batch=0: kernel batches of 512 PTEs") \
	X(referenced_kernel_lru_gen_batches, "of referenced_kernel_batches: MGLRU runs (one lru_gen_look_around per run)") \
	X(referenced_kernel_young_runs, "Linux 7, referenced_batch=0: runs and lone PTEs the kernel found referenced") \
	X(fa_fault_folio_pages, "PTEs a read fault mapped beside the faulting page, its large folio's (finish_fault; not fault-around)") \
	X(fa_pages_beyond_window, "of fa_pages_mapped: outside the fault-around window (whole large folios, Linux 7)")

/*
 * The auto mode's inputs, as the "input NAME DELTA" lines of
 * FOLIOTUNE_AUTO_STATE_FILE show them, in that order: C(input, counter), a
 * counter above; K(input, name), one of the kernel's events (vmstat).
 */
#define FOLIOTUNE_FA_AUTO_INPUTS(C, K)					\
	C(faults, fa_read_faults)					\
	C(near, fa_read_faults_near)					\
	C(events, fa_events)						\
	C(mapped, fa_pages_mapped)					\
	C(mapped_old, fa_pages_mapped_old)				\
	C(unmap_young, fa_unmap_young_ptes)				\
	C(unmap_old, fa_unmap_old_ptes)					\
	K(pgscan_file, pgscan_file)					\
	K(pgsteal_file, pgsteal_file)					\
	K(allocstall, allocstall)					\
	K(refault_file, workingset_refault_file)			\
	C(pgpgoutclean, pgpgoutclean)					\
	C(sample_used, fa_sample_used)					\
	C(sample_unused, fa_sample_unused)				\
	C(exec, fa_read_faults_exec)					\
	C(beyond, fa_pages_beyond_window)

#define FOLIOTUNE_COUNTER_ENUM(name, ...)	FT_##name,
enum foliotune_counter {
	FOLIOTUNE_COUNTERS(FOLIOTUNE_COUNTER_ENUM)
	FT_NR_COUNTERS
};
#undef FOLIOTUNE_COUNTER_ENUM

/* For name tables: { FOLIOTUNE_COUNTERS(FOLIOTUNE_NAME_STRING) } */
#define FOLIOTUNE_NAME_STRING(name, ...)	#name,

#define FOLIOTUNE_KNOB_ENUM(name, ...)	FT_KNOB_##name,
enum foliotune_knob {
	FOLIOTUNE_KNOBS(FOLIOTUNE_KNOB_ENUM)
	FT_NR_KNOBS
};
#undef FOLIOTUNE_KNOB_ENUM

/* FT_KNOB_DEFAULT_<name>: a knob's value when the module loads */
#define FOLIOTUNE_KNOB_DEFAULT(name, kind, unit, min, max, def, ...)	\
	FT_KNOB_DEFAULT_##name = (def),
enum foliotune_knob_default {
	FOLIOTUNE_KNOBS(FOLIOTUNE_KNOB_DEFAULT)
};
#undef FOLIOTUNE_KNOB_DEFAULT

/* FT_KNOB_MIN_<name>, FT_KNOB_MAX_<name>: a knob's documented range */
#define FOLIOTUNE_KNOB_RANGE(name, kind, unit, min, max, ...)		\
	FT_KNOB_MIN_##name = (min), FT_KNOB_MAX_##name = (max),
enum foliotune_knob_range {
	FOLIOTUNE_KNOBS(FOLIOTUNE_KNOB_RANGE)
};
#undef FOLIOTUNE_KNOB_RANGE

#endif /* FOLIOTUNE_H */
