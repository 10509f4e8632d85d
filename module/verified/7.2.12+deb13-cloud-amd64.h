/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel build foliotune is verified on, written by make verify-kernel
 * (docs/kernels.md, "Verified headers"); do not edit, verify again.
 *
 * Verified 2026-12-05 at commit c7f200e.
 * Copies made with module/kcopy/foliotune-7.2.patch.
 * Compiler: x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0
 */
#define FT_VERIFIED_RELEASE	"7.2.12+deb13-cloud-amd64"
#define FT_VERIFIED_VERSION	\
	"#1 SMP PREEMPT_DYNAMIC Debian 7.2.12-1~bpo13+1 (2026-11-04)"
#define FT_VERIFIED_SOURCE	"linux-source-7.2 7.2.12-1~bpo13+1"

/* Functions foliotune replaces, with their size in this build. */
#define FT_VERIFIED_SIZE_try_to_unmap_one	0x1170
#define FT_VERIFIED_SIZE_folio_referenced_one	0x4e0
#define FT_VERIFIED_SIZE_set_pte_range	0x2a0
