/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ab.h - the ab command (ab.c).
 */
#ifndef FT_AB_H
#define FT_AB_H

int ft_cmd_ab(int argc, char **argv);

#endif /* FT_AB_H */
