/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * build_info.h - what this CLI was built as and for: its version, the kernel
 * build it serves and the in-tree module (userspace/Makefile passes them).
 * Only the files that print or look for these include it.
 */
#ifndef FT_BUILD_INFO_H
#define FT_BUILD_INFO_H

#ifndef FOLIOTUNE_KVER
#error "FOLIOTUNE_KVER undefined: build with userspace/Makefile"
#endif
#ifndef FOLIOTUNE_BUILD_KO
#define FOLIOTUNE_BUILD_KO "module/foliotune.ko"
#endif
#ifndef FOLIOTUNE_VERSION
#define FOLIOTUNE_VERSION "0.1"
#endif

#endif /* FT_BUILD_INFO_H */
