/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * counters.h - snapshots of "name value" counter files, the counters command
 * (counters.c).
 */
#ifndef FT_COUNTERS_H
#define FT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ft_counter {
	char *name;
	uint64_t value;
};
struct ft_snapshot {
	struct ft_counter *v;
	size_t n, cap;
};
int ft_snapshot_parse(const char *buf, struct ft_snapshot *s);
int ft_snapshot_read(const char *path, struct ft_snapshot *s);
void ft_snapshot_free(struct ft_snapshot *s);
/* Value of name in s (hint: expected index); false if absent. */
bool ft_snapshot_lookup(const struct ft_snapshot *s, const char *name,
			size_t hint, uint64_t *out);
int ft_module_vmstat_path(char *buf, size_t len, char *msg, size_t msglen);
int ft_cmd_counters(int argc, char **argv);

#endif /* FT_COUNTERS_H */
