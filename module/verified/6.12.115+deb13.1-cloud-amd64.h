/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel build foliotune is verified on, written by make verify-kernel
 * (docs/kernels.md, "Verified headers"); do not edit, verify again.
 *
 * Verified 2026-12-03 at commit ef5cd7b.
 * Copies made with module/kcopy/foliotune.patch.
 * Compiler: x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0
 */
#define FT_VERIFIED_RELEASE	"6.12.115+deb13.1-cloud-amd64"
#define FT_VERIFIED_VERSION	\
	"#1 SMP PREEMPT_DYNAMIC Debian 6.12.115-2 (2026-11-01)"
#define FT_VERIFIED_SOURCE	"linux-source-6.12 6.12.115-2"

/* Functions foliotune replaces, with their size in this build. */
#define FT_VERIFIED_SIZE_try_to_unmap_one	0xd30
#define FT_VERIFIED_SIZE_folio_referenced_one	0x460
#define FT_VERIFIED_SIZE_set_pte_range	0x250
