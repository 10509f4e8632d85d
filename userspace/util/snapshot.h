/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * snapshot.h - snapshots of "name value" counter files, and their deltas
 * as a record's counters (snapshot.c).
 */
#ifndef FT_SNAPSHOT_H
#define FT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ft_record;

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
/* Append after - before of every counter of after, as SOURCE counters. */
void ft_record_add_deltas(struct ft_record *r, const char *source,
			  const struct ft_snapshot *before,
			  const struct ft_snapshot *after);

#endif /* FT_SNAPSHOT_H */
