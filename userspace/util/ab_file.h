/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ab_file.h - an ab file read back (ab_file.c): its header, its runs'
 * records, the complete pairs, and the results the report prints.
 */
#ifndef FT_AB_FILE_H
#define FT_AB_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "record_file.h"
#include "statistics.h"

/* An ab file's first line: this, then the format's version (ab.c writes it). */
#define FT_AB_MAGIC	"# foliotune ab v"
#define FT_AB_VERSION	1

enum ft_ab_kind { FT_AB_WALL, FT_AB_METRIC, FT_AB_METRIC_TIME, FT_AB_COUNTER };

/* One result of the report: what A and B are compared on, and how. */
struct ft_ab_res {
	char name[160];
	enum ft_ab_kind kind;
	struct ft_paired cmp;
};

struct ft_ab_rec {
	struct ft_record r;
	unsigned int seq, pair;
	int arm;
	bool has_metric, has_other;
	double metric, other;
	char la0[64], la1[64];
};

struct ft_ab_kv {
	char *key, *value;
};

struct ft_ab_data {
	const char *path;
	char *command, *order, *metric_name, *arm[2], *interrupted, *prepare;
	unsigned int pairs, warmup;
	bool aa, metric_time;
	struct ft_ab_kv *env;
	size_t nenv;
	struct ft_ab_rec *rec;
	size_t nrec;
	/* the complete pairs: indexes into rec */
	size_t *ia, *ib;
	size_t npairs;
};

/* Whether the file at path starts as an ab file does. */
bool ft_ab_sniff(const char *path);
/* Parse buf, the file at path, into d; 0, or -errno with msg. */
int ft_ab_parse(const char *path, char *buf, struct ft_ab_data *d, char *msg,
		size_t msglen);
void ft_ab_data_free(struct ft_ab_data *d);
/* An env line's value, or "?" */
const char *ft_ab_env_or(const struct ft_ab_data *d, const char *key);
/*
 * All results: the wall time, the metric, then every counter whose deltas
 * differ between the arms (by verdict, then p); *nfixed: the first two.
 */
struct ft_ab_res *ft_ab_results(const struct ft_ab_data *d, size_t *nres,
				size_t *nfixed);

#endif /* FT_AB_FILE_H */
