/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * output.h - text or JSON output, error reports and exit codes (output.c).
 */
#ifndef FT_OUTPUT_H
#define FT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

struct json_writer;

#define FT_EXIT_OK	0
#define FT_EXIT_USAGE	1
#define FT_EXIT_RUNTIME	2

#define FT_MSG_MAX	1024

extern bool ft_json;			/* -j/--json */
extern struct json_writer *ft_jw;	/* valid when ft_json */
extern const char *ft_prog;
extern const char *ft_cmd_name;		/* the command running, or NULL */

void ft_set_json(bool on);
/* Report an error (text on stderr, or a JSON object on stdout); returns code. */
int ft_fail(int code, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, with a callback adding fields to the JSON object / lines to stderr. */
int ft_fail_ex(int code, int err, void (*extra)(void *arg), void *arg,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define ft_usage_error(err, ...) ft_fail(FT_EXIT_USAGE, (err), __VA_ARGS__)
#define ft_runtime_error(err, ...) ft_fail(FT_EXIT_RUNTIME, (err), __VA_ARGS__)
/* snprintf for messages: silently truncates (no -Wformat-truncation). */
void ft_msg(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Informational message: stdout, suppressed in JSON mode. */
void ft_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress note: stderr, suppressed in JSON mode. */
void ft_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warning: stderr, always. */
void ft_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* FT_OUTPUT_H */
