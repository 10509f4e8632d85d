/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FT_COMPAT_MINMAX_H
#define FT_COMPAT_MINMAX_H
#define min(a, b) ((a) < (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#endif
