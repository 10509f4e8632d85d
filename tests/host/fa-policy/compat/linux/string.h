/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FT_COMPAT_STRING_H
#define FT_COMPAT_STRING_H
#include <string.h>
#include <stdio.h>
#define strscpy(d, s, n) snprintf(d, n, "%s", s)
#endif
