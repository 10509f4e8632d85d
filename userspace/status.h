/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * status.h - the status command (status.c).
 */
#ifndef FT_STATUS_H
#define FT_STATUS_H

int ft_cmd_status(int argc, char **argv);

#endif /* FT_STATUS_H */
