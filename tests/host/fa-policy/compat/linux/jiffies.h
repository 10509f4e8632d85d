/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FT_COMPAT_JIFFIES_H
#define FT_COMPAT_JIFFIES_H
/* include/linux/jiffies.h, without its typecheck() */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#endif
