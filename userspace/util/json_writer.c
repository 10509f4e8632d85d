// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * json_writer.c - a tiny streaming JSON writer (API modelled on bpftool's).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

#define JSONW_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	unsigned int depth;
	char sep;			/* ',' once a container has an element */
	char stack[JSONW_MAX_DEPTH];	/* '}' or ']' per open container */
};

json_writer_t *jsonw_new(FILE *f)
{
	json_writer_t *self = calloc(1, sizeof(*self));

	if (self)
		self->out = f;
	return self;
}

void jsonw_destroy(json_writer_t **self_p)
{
	json_writer_t *self = *self_p;

	if (!self)
		return;
	jsonw_close_all(self);
	fflush(self->out);
	free(self);
	*self_p = NULL;
}

unsigned int jsonw_depth(const json_writer_t *self)
{
	return self->depth;
}

/* Separator before a new element. */
static void jsonw_eor(json_writer_t *self)
{
	if (self->sep != '\0')
		putc(self->sep, self->out);
	self->sep = ',';
}

/* After a complete value: end a top-level value with a newline. */
static void jsonw_value_done(json_writer_t *self)
{
	if (self->depth == 0) {
		putc('\n', self->out);
		self->sep = '\0';
	}
}

static size_t utf8_seq_len(const unsigned char *s)
{
	unsigned int c = s[0];
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong 3/4-byte forms, surrogates, > U+10FFFF */
	if (c == 0xe0 && s[1] < 0xa0)
		return 0;
	if (c == 0xed && s[1] >= 0xa0)
		return 0;
	if (c == 0xf0 && s[1] < 0x90)
		return 0;
	if (c == 0xf4 && s[1] >= 0x90)
		return 0;
	return n;
}

static void jsonw_puts(json_writer_t *self, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc('"', self->out);
	while (*s) {
		size_t n;

		switch (*s) {
		case '"':
			fputs("\\\"", self->out);
			break;
		case '\\':
			fputs("\\\\", self->out);
			break;
		case '\b':
			fputs("\\b", self->out);
			break;
		case '\f':
			fputs("\\f", self->out);
			break;
		case '\n':
			fputs("\\n", self->out);
			break;
		case '\r':
			fputs("\\r", self->out);
			break;
		case '\t':
			fputs("\\t", self->out);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(self->out, "\\u%04x", *s);
				break;
			}
			n = utf8_seq_len(s);
			if (n == 0) {
				/* invalid UTF-8: U+FFFD */
				fputs("\\ufffd", self->out);
				break;
			}
			fwrite(s, 1, n, self->out);
			s += n - 1;
			break;
		}
		s++;
	}
	putc('"', self->out);
}

void jsonw_name(json_writer_t *self, const char *name)
{
	jsonw_eor(self);
	self->sep = '\0';
	jsonw_puts(self, name);
	putc(':', self->out);
}

static void jsonw_begin(json_writer_t *self, char open, char close)
{
	jsonw_eor(self);
	putc(open, self->out);
	if (self->depth < JSONW_MAX_DEPTH)
		self->stack[self->depth] = close;
	self->depth++;
	self->sep = '\0';
}

static void jsonw_end(json_writer_t *self)
{
	char close;

	if (self->depth == 0)
		return;
	self->depth--;
	close = self->depth < JSONW_MAX_DEPTH ? self->stack[self->depth] : '}';
	putc(close, self->out);
	self->sep = ',';
	jsonw_value_done(self);
}

void jsonw_close_all(json_writer_t *self)
{
	while (self->depth > 0)
		jsonw_end(self);
}

void jsonw_start_object(json_writer_t *self)
{
	jsonw_begin(self, '{', '}');
}

void jsonw_end_object(json_writer_t *self)
{
	jsonw_end(self);
}

void jsonw_start_array(json_writer_t *self)
{
	jsonw_begin(self, '[', ']');
}

void jsonw_end_array(json_writer_t *self)
{
	jsonw_end(self);
}

void jsonw_string(json_writer_t *self, const char *value)
{
	jsonw_eor(self);
	jsonw_puts(self, value ? value : "");
	jsonw_value_done(self);
}

void jsonw_uint(json_writer_t *self, uint64_t value)
{
	jsonw_eor(self);
	fprintf(self->out, "%" PRIu64, value);
	jsonw_value_done(self);
}

void jsonw_int(json_writer_t *self, int64_t value)
{
	jsonw_eor(self);
	fprintf(self->out, "%" PRId64, value);
	jsonw_value_done(self);
}

void jsonw_float_fmt(json_writer_t *self, const char *fmt, double value)
{
	jsonw_eor(self);
	if (isfinite(value)) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		fprintf(self->out, fmt, value);
#pragma GCC diagnostic pop
	} else {
		fputs("null", self->out);
	}
	jsonw_value_done(self);
}

void jsonw_bool(json_writer_t *self, bool value)
{
	jsonw_eor(self);
	fputs(value ? "true" : "false", self->out);
	jsonw_value_done(self);
}

void jsonw_null(json_writer_t *self)
{
	jsonw_eor(self);
	fputs("null", self->out);
	jsonw_value_done(self);
}

void jsonw_string_field(json_writer_t *self, const char *name, const char *value)
{
	jsonw_name(self, name);
	jsonw_string(self, value);
}

void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t value)
{
	jsonw_name(self, name);
	jsonw_uint(self, value);
}

void jsonw_int_field(json_writer_t *self, const char *name, int64_t value)
{
	jsonw_name(self, name);
	jsonw_int(self, value);
}

void jsonw_float_field_fmt(json_writer_t *self, const char *name,
			   const char *fmt, double value)
{
	jsonw_name(self, name);
	jsonw_float_fmt(self, fmt, value);
}

void jsonw_bool_field(json_writer_t *self, const char *name, bool value)
{
	jsonw_name(self, name);
	jsonw_bool(self, value);
}

void jsonw_null_field(json_writer_t *self, const char *name)
{
	jsonw_name(self, name);
	jsonw_null(self);
}

void jsonw_string_or_null_field(json_writer_t *self, const char *name, const char *value)
{
	if (value)
		jsonw_string_field(self, name, value);
	else
		jsonw_null_field(self, name);
}

void jsonw_int_or_null_field(json_writer_t *self, const char *name, long long value)
{
	if (value >= 0)
		jsonw_int_field(self, name, value);
	else
		jsonw_null_field(self, name);
}

void jsonw_bool_or_null_field(json_writer_t *self, const char *name, long long value)
{
	if (value >= 0)
		jsonw_bool_field(self, name, value != 0);
	else
		jsonw_null_field(self, name);
}
