/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel build foliotune is verified on, written by make verify-kernel
 * (docs/kernels.md, "Verified headers"); do not edit, verify again.
 *
 * Verified 2026-12-05 at commit c7f200e.
 * Copies made with module/kcopy/foliotune-7.2.patch.
 * Compiler: x86_64-linux-gnu-gcc-16 (Debian 16.2.0-4) 16.2.0
 */
#define FT_VERIFIED_RELEASE	"7.2.13+deb14-amd64"
#define FT_VERIFIED_VERSION	\
	"#1 SMP PREEMPT_DYNAMIC Debian 7.2.13-1 (2026-10-28)"
#define FT_VERIFIED_SOURCE	"linux-source-7.2 7.2.13-1"

/* Functions foliotune replaces, with their size in this build. */
#define FT_VERIFIED_SIZE_try_to_unmap_one	0x1260
#define FT_VERIFIED_SIZE_folio_referenced_one	0x510
#define FT_VERIFIED_SIZE_set_pte_range	0x270
