/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * record_file.h - the record file format (v1): what "foliotune record"
 * writes and "foliotune compare" reads.
 *
 *   # foliotune record v1
 *   key value                  header lines (value: rest of the line)
 *   knob NAME VALUE            every knob's value during the run
 *   set NAME VALUE OLD         settings applied by --set (and restored)
 *   counter SOURCE NAME DELTA  SOURCE is "foliotune" or "vmstat"
 *   env KEY VALUE              the machine it ran on (env.c): kernel, CPUs,
 *                              "env knob NAME VALUE" before the settings
 *
 * Lines starting with '#' are comments; unknown keys are ignored.
 */
#ifndef FT_RECORD_FILE_H
#define FT_RECORD_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ft_rec_counter {
	char *source;
	char *name;
	int64_t delta;
};
struct ft_rec_knob {
	char *name;
	char *value;
	char *old;		/* "set" lines only */
};
struct ft_record {
	char *path;
	int version;
	char *label;
	char *date;
	char *kernel_release;
	char *kernel_version;
	char *command;
	char *module;		/* "loaded", "not-loaded", ... */
	bool has_wall;
	double wall;
	int exit_code;		/* -1 if none */
	int exit_signal;	/* -1 if none */
	char *interrupted;
	struct ft_rec_knob *knobs;	/* knob lines */
	size_t nknobs;
	struct ft_rec_knob *sets;	/* set lines */
	size_t nsets;
	struct ft_rec_counter *counters;
	size_t ncounters;
	struct ft_rec_knob *env;	/* env lines: KEY ("knob NAME" for knobs), VALUE */
	size_t nenv;
};

/* Parse a record; 0, or -errno / -EBADMSG with msg. */
int ft_record_parse(const char *path, const char *buf, struct ft_record *r,
		    char *msg, size_t msglen);
int ft_record_load(const char *path, struct ft_record *r, char *msg,
		   size_t msglen);
void ft_record_free(struct ft_record *r);
int ft_record_write(FILE *f, const struct ft_record *r);
/* Append a knob or set line (old: NULL for knob lines); copies the strings. */
void ft_record_add_knob(struct ft_rec_knob **v, size_t *n, const char *name,
			const char *value, const char *old);

#endif /* FT_RECORD_FILE_H */
