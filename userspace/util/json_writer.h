/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * json_writer.h - a tiny streaming JSON writer (API modelled on bpftool's).
 *
 * Output is compact; every top-level value is followed by a newline, so a
 * sequence of top-level objects is valid JSON Lines.
 */
#ifndef FT_JSON_WRITER_H
#define FT_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json_writer json_writer_t;

json_writer_t *jsonw_new(FILE *f);
void jsonw_destroy(json_writer_t **self_p);
unsigned int jsonw_depth(const json_writer_t *self);
/* Close every open array/object (used when an error interrupts output). */
void jsonw_close_all(json_writer_t *self);

void jsonw_name(json_writer_t *self, const char *name);
void jsonw_start_object(json_writer_t *self);
void jsonw_end_object(json_writer_t *self);
void jsonw_start_array(json_writer_t *self);
void jsonw_end_array(json_writer_t *self);

void jsonw_string(json_writer_t *self, const char *value);
void jsonw_uint(json_writer_t *self, uint64_t value);
void jsonw_int(json_writer_t *self, int64_t value);
/* NaN and infinities are written as null. */
void jsonw_float_fmt(json_writer_t *self, const char *fmt, double value);
void jsonw_bool(json_writer_t *self, bool value);
void jsonw_null(json_writer_t *self);

void jsonw_string_field(json_writer_t *self, const char *name, const char *value);
void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t value);
void jsonw_int_field(json_writer_t *self, const char *name, int64_t value);
void jsonw_float_field_fmt(json_writer_t *self, const char *name,
			   const char *fmt, double value);
void jsonw_bool_field(json_writer_t *self, const char *name, bool value);
void jsonw_null_field(json_writer_t *self, const char *name);
/* The value, or null for an absent one: a NULL string, a negative number. */
void jsonw_string_or_null_field(json_writer_t *self, const char *name, const char *value);
void jsonw_int_or_null_field(json_writer_t *self, const char *name, long long value);
void jsonw_bool_or_null_field(json_writer_t *self, const char *name, long long value);

#endif /* FT_JSON_WRITER_H */
