// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * counters.c - snapshots of "name value" counter files (the module's vmstat
 * and /proc/vmstat) and the counters command.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "counters.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "xalloc.h"

void ft_snapshot_free(struct ft_snapshot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* Parse "name value" lines; malformed lines are skipped. */
int ft_snapshot_parse(const char *buf, struct ft_snapshot *s)
{
	const char *line = buf;

	s->v = NULL;
	s->n = s->cap = 0;
	while (*line) {
		const char *eol = strchr(line, '\n'), *p = line, *name;
		size_t nlen;
		char num[32], *end;
		size_t k = 0;
		uint64_t v;

		if (!eol)
			eol = line + strlen(line);
		while (p < eol && isblank((unsigned char)*p))
			p++;
		name = p;
		while (p < eol && !isspace((unsigned char)*p))
			p++;
		nlen = (size_t)(p - name);
		while (p < eol && isblank((unsigned char)*p))
			p++;
		while (p < eol && !isspace((unsigned char)*p) && k < sizeof(num) - 1)
			num[k++] = *p++;
		num[k] = '\0';
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (nlen && k && p == eol && (isdigit((unsigned char)num[0]) ||
					      (num[0] == '-' && isdigit((unsigned char)num[1])))) {
			errno = 0;
			if (num[0] == '-')
				v = (uint64_t)strtoll(num, &end, 10);
			else
				v = strtoull(num, &end, 10);
			if (!errno && !*end) {
				if (s->n == s->cap) {
					s->cap = s->cap ? s->cap * 2 : 64;
					s->v = ft_xrealloc(s->v, s->cap * sizeof(*s->v));
				}
				s->v[s->n].name = ft_xrealloc(NULL, nlen + 1);
				memcpy(s->v[s->n].name, name, nlen);
				s->v[s->n].name[nlen] = '\0';
				s->v[s->n].value = v;
				s->n++;
			}
		}
		line = *eol ? eol + 1 : eol;
	}
	return 0;
}

int ft_snapshot_read(const char *path, struct ft_snapshot *s)
{
	char *buf;
	int err;

	err = ft_read_file(path, &buf, NULL);
	if (err)
		return err;
	err = ft_snapshot_parse(buf, s);
	free(buf);
	return err;
}

bool ft_snapshot_lookup(const struct ft_snapshot *s, const char *name,
			size_t hint, uint64_t *out)
{
	size_t i;

	if (hint < s->n && !strcmp(s->v[hint].name, name)) {
		*out = s->v[hint].value;
		return true;
	}
	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->v[i].name, name)) {
			*out = s->v[i].value;
			return true;
		}
	}
	return false;
}

int ft_module_vmstat_path(char *buf, size_t len, char *msg, size_t msglen)
{
	char dir[FT_PATH_MAX];
	int err;

	err = ft_find_debugfs_dir(dir, sizeof(dir), msg, msglen);
	if (err)
		return err;
	err = ft_join(buf, len, dir, FOLIOTUNE_VMSTAT_FILE);
	if (err)
		ft_msg(msg, msglen, "path too long");
	return err;
}

static int ft_read_module_counters(const char *path, struct ft_snapshot *s)
{
	char msg[FT_MSG_MAX];
	int err = ft_snapshot_read(path, s);

	if (!err)
		return 0;
	if (err == -ENOENT)
		return ft_runtime_error(ENOENT, "%s: the module provides no counters file",
					path);
	ft_explain_debugfs_errno(-err, path, msg, sizeof(msg));
	return ft_runtime_error(-err, "%s", msg);
}

static const struct option ft_stat_opts[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int ft_cmd_counters(int argc, char **argv)
{
	struct ft_snapshot prev = { 0 }, cur = { 0 };
	char path[FT_PATH_MAX], msg[FT_MSG_MAX];
	double interval = 0, t_prev, t_cur;
	uint64_t count = 0;
	bool have_interval = false, have_count = false;
	int c, ret;
	size_t i;
	uint64_t n;

	while ((c = getopt_long(argc, argv, ":i:c:jh", ft_stat_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (ft_parse_seconds(optarg, &interval) || interval <= 0)
				return ft_usage_error(EINVAL, "invalid interval '%s': expected a positive number of seconds",
						      optarg);
			have_interval = true;
			break;
		case 'c':
			if (ft_parse_u64(optarg, false, INT_MAX, &count) || !count)
				return ft_usage_error(EINVAL, "invalid count '%s': expected a positive integer",
						      optarg);
			have_count = true;
			break;
		default:
			ret = ft_getopt_common(c, argc, argv, "counters");
			if (ret >= 0)
				return ret;
		}
	}
	ft_set_json(ft_json_requested);
	if (optind != argc)
		return ft_usage_error(EINVAL, "counters: unexpected argument '%s'", argv[optind]);
	if (have_count && !have_interval)
		return ft_usage_error(EINVAL, "counters: -c/--count needs -i/--interval");

	ret = ft_module_vmstat_path(path, sizeof(path), msg, sizeof(msg));
	if (ret)
		return ft_runtime_error(-ret, "%s", msg);
	ret = ft_read_module_counters(path, &prev);
	if (ret)
		return ret;
	t_prev = ft_now();

	if (!have_interval) {
		if (ft_json) {
			jsonw_start_object(ft_jw);
			jsonw_name(ft_jw, "counters");
			jsonw_start_object(ft_jw);
			for (i = 0; i < prev.n; i++)
				jsonw_uint_field(ft_jw, prev.v[i].name, prev.v[i].value);
			jsonw_end_object(ft_jw);
			jsonw_end_object(ft_jw);
		} else {
			for (i = 0; i < prev.n; i++)
				printf("%s %" PRIu64 "\n", prev.v[i].name, prev.v[i].value);
		}
		ft_snapshot_free(&prev);
		return FT_EXIT_OK;
	}

	for (n = 1; !have_count || n <= count; n++) {
		double next = t_prev + interval;

		while ((t_cur = ft_now()) < next)
			ft_sleep(next - t_cur);
		ret = ft_read_module_counters(path, &cur);
		if (ret)
			break;
		t_cur = ft_now();
		if (ft_json) {
			jsonw_start_object(ft_jw);
			jsonw_uint_field(ft_jw, "interval", n);
			jsonw_float_field_fmt(ft_jw, "seconds", "%.3f", t_cur - t_prev);
			jsonw_name(ft_jw, "deltas");
			jsonw_start_object(ft_jw);
		} else {
			printf("%s# interval %" PRIu64 " (%.3f s)\n", n > 1 ? "\n" : "",
			       n, t_cur - t_prev);
		}
		for (i = 0; i < cur.n; i++) {
			uint64_t before = 0;
			int64_t d;

			ft_snapshot_lookup(&prev, cur.v[i].name, i, &before);
			d = (int64_t)(cur.v[i].value - before);
			if (ft_json)
				jsonw_int_field(ft_jw, cur.v[i].name, d);
			else
				printf("%s %" PRId64 "\n", cur.v[i].name, d);
		}
		if (ft_json) {
			jsonw_end_object(ft_jw);
			jsonw_end_object(ft_jw);
		}
		fflush(stdout);
		ft_snapshot_free(&prev);
		prev = cur;
		cur.v = NULL;
		cur.n = cur.cap = 0;
		t_prev = t_cur;
	}
	ft_snapshot_free(&prev);
	ft_snapshot_free(&cur);
	return ret;
}
