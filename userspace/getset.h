/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * getset.h - the get and set commands (getset.c).
 */
#ifndef FT_GETSET_H
#define FT_GETSET_H

int ft_cmd_get(int argc, char **argv);
int ft_cmd_set(int argc, char **argv);

#endif /* FT_GETSET_H */
