/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FT_COMPAT_KERNEL_H
#define FT_COMPAT_KERNEL_H
#include <stdarg.h>
#include <stdio.h>
#include "types.h"
#define __printf(a, b) __attribute__((format(printf, a, b)))
/* vscnprintf() returns what it wrote, vsnprintf() what it wanted: unused here */
#define vscnprintf vsnprintf
#endif
