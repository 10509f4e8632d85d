/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one kernel build foliotune's copied code was verified against.
 *
 * Selected at build time by KVER (Makefile: -include verified/$(KVER).h).
 * The module refuses to load unless the running kernel reports exactly this
 * release and version, and the functions it replaces have exactly the sizes
 * they have in this build (sprint_symbol() "name+0x0/0xSIZE").
 *
 * The size is kallsyms' view: the distance to the next symbol, which
 * includes the 16-byte call padding (__pfx_) that follows each function.
 * try_to_unmap_one's ELF st_size in the -dbg vmlinux is 0xd03; kallsyms,
 * and so this check, says 0xd10.  Measured in the test box.
 */
#define FT_VERIFIED_RELEASE	"6.12.117+deb12-amd64"
#define FT_VERIFIED_VERSION	\
	"#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-14)"
#define FT_VERIFIED_SOURCE	"linux-source-6.12 6.12.117-1~deb12u1"

/* Functions foliotune replaces, with their size in this build. */
#define FT_VERIFIED_SIZE_try_to_unmap_one	0xd10
/*
 * set_pte_range: kallsyms puts __pfx_finish_fault 0x240 after it (build/
 * kallsyms-$(KVER).txt), and the module's sprint_symbol() check passes in
 * the test box with this value.
 */
#define FT_VERIFIED_SIZE_set_pte_range		0x240
