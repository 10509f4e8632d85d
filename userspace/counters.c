// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * counters.c - the counters command: the module's counters, or their
 * deltas every interval.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "commands.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "snapshot.h"

static int ft_module_vmstat_path(char *buf, size_t len, char *msg, size_t msglen)
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

/*
 * The counters (prev NULL), or interval n's deltas against prev: "name
 * value" lines, an interval's headed by "# interval N (S s)"; -j one JSON
 * object ({"counters": {...}}, or per interval {"interval", "seconds",
 * "deltas"}).
 */
static void ft_counters_print(const struct ft_snapshot *cur, const struct ft_snapshot *prev,
			      uint64_t n, double secs)
{
	size_t i;

	if (ft_json) {
		jsonw_start_object(ft_jw);
		if (prev) {
			jsonw_uint_field(ft_jw, "interval", n);
			jsonw_float_field_fmt(ft_jw, "seconds", "%.3f", secs);
		}
		jsonw_name(ft_jw, prev ? "deltas" : "counters");
		jsonw_start_object(ft_jw);
	} else if (prev) {
		printf("%s# interval %" PRIu64 " (%.3f s)\n", n > 1 ? "\n" : "", n, secs);
	}
	for (i = 0; i < cur->n; i++) {
		uint64_t before = 0;
		int64_t d;

		if (!prev) {
			if (ft_json)
				jsonw_uint_field(ft_jw, cur->v[i].name, cur->v[i].value);
			else
				printf("%s %" PRIu64 "\n", cur->v[i].name, cur->v[i].value);
			continue;
		}
		ft_snapshot_lookup(prev, cur->v[i].name, i, &before);
		d = (int64_t)(cur->v[i].value - before);
		if (ft_json)
			jsonw_int_field(ft_jw, cur->v[i].name, d);
		else
			printf("%s %" PRId64 "\n", cur->v[i].name, d);
	}
	if (ft_json) {
		jsonw_end_object(ft_jw);
		jsonw_end_object(ft_jw);
	}
}

static const struct option ft_counters_opts[] = {
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
	uint64_t n;

	while ((c = getopt_long(argc, argv, ":i:c:jh", ft_counters_opts, NULL)) != -1) {
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
		ft_counters_print(&prev, NULL, 0, 0);
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
		ft_counters_print(&cur, &prev, n, t_cur - t_prev);
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
