/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-ins for the kernel headers module/fa_policy.c includes. */
#ifndef FT_COMPAT_TYPES_H
#define FT_COMPAT_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#endif
