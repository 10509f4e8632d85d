// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * output.c - how the CLI talks: text or JSON (-j), errors as text on
 * stderr or as a JSON object on stdout, notes and warnings.  Every command
 * reports through these, so that -j changes every message in one place.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "foliotune.h"
#include "json_writer.h"
#include "output.h"

bool ft_json;
json_writer_t *ft_jw;
const char *ft_prog = FOLIOTUNE_NAME;
const char *ft_cmd_name;

void ft_set_json(bool on)
{
	if (on && !ft_jw) {
		ft_jw = jsonw_new(stdout);
		if (!ft_jw) {
			fprintf(stderr, "%s: out of memory\n", ft_prog);
			exit(FT_EXIT_RUNTIME);
		}
	}
	ft_json = on;
}

static int ft_vfail(int code, int err, void (*extra)(void *), void *arg,
		    const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

static int ft_vfail(int code, int err, void (*extra)(void *), void *arg,
		    const char *fmt, va_list ap)
{
	char msg[FT_MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (ft_json) {
		jsonw_close_all(ft_jw);
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "error", msg);
		jsonw_int_field(ft_jw, "errno", err);
		if (extra)
			extra(arg);
		jsonw_end_object(ft_jw);
		fflush(stdout);
	} else {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", ft_prog, msg);
		if (extra)
			extra(arg);
		if (code == FT_EXIT_USAGE)
			fprintf(stderr, "Try '%s%s%s --help' for more information.\n",
				ft_prog, ft_cmd_name ? " " : "",
				ft_cmd_name ? ft_cmd_name : "");
	}
	return code;
}

int ft_fail(int code, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ft_vfail(code, err, NULL, NULL, fmt, ap);
	va_end(ap);
	return ret;
}

int ft_fail_ex(int code, int err, void (*extra)(void *), void *arg,
	       const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ft_vfail(code, err, extra, arg, fmt, ap);
	va_end(ap);
	return ret;
}

void ft_msg(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void ft_info(const char *fmt, ...)
{
	va_list ap;

	if (ft_json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void ft_note(const char *fmt, ...)
{
	va_list ap;

	if (ft_json)
		return;
	fflush(stdout);
	fprintf(stderr, "%s: ", ft_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
}

void ft_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: warning: ", ft_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
}
