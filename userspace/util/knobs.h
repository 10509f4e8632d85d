/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * knobs.h - the knob table, value parsing and formatting (knobs.c).
 */
#ifndef FT_KNOBS_H
#define FT_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ft_kind { FT_KIND_BOOL, FT_KIND_BYTES, FT_KIND_ENUM, FT_KIND_UINT };

struct ft_knob {
	const char *name;
	enum ft_kind kind;
	const char *kind_name;
	const char *unit;
	uint64_t min, max;	/* documented range (foliotune.h) */
	uint64_t def;		/* value when the module loads */
	const char *help;
};
extern const struct ft_knob ft_knobs[];
extern const size_t ft_nr_knobs;

struct ft_knob_value {
	char text[64];		/* file content, trimmed */
	bool numeric;
	uint64_t value;
};

const struct ft_knob *ft_knob_find(const char *name);
int ft_parse_bool(const char *s, bool *out);
/* Decimal with optional K/M/G (1024 powers) when units; 0/-EINVAL/-ERANGE */
int ft_parse_u64(const char *s, bool units, uint64_t max, uint64_t *out);
/* Validate a value for a knob; msg gets the reason on failure. */
int ft_parse_value(const struct ft_knob *k, const char *s, uint64_t *out,
		   char *msg, size_t msglen);
int ft_parse_assignment(const char *arg, const struct ft_knob **k,
			uint64_t *val, char *msg, size_t msglen);
void ft_format_bytes(uint64_t v, char *buf, size_t len);
int ft_knob_read(const char *dir, const struct ft_knob *k,
		 struct ft_knob_value *out);
int ft_knob_write(const char *dir, const struct ft_knob *k, const char *text);
/* Write a knob's old value back; on failure warn how to do it by hand. */
int ft_knob_restore(const char *dir, const struct ft_knob *k, const char *old);

/* field: the value, a number when it reads as one (-j of get and set) */
void ft_knob_value_json(const char *field, const struct ft_knob_value *v);

/* "4K..2M", "100..60000": a knob's documented range */
void ft_knob_range(const struct ft_knob *k, char *buf, size_t len);

#endif /* FT_KNOBS_H */
