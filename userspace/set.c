// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * set.c - the set command: a value checked against the knob's kind and
 * range (knobs.c) before it is written, the module's refusal reported with
 * its errno.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "privilege.h"

/* The result: the knob, its value before, what was written, what it reads. */
struct ft_set {
	const struct ft_knob *knob;
	struct ft_knob_value old, now;
	bool have_old;
	uint64_t val;
	char text[32];
};

/* "knob: old -> new", a warning when it reads back otherwise; -j: an object. */
static void ft_set_print(const struct ft_set *r)
{
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "knob", r->knob->name);
		if (r->have_old)
			ft_knob_value_json("old", &r->old);
		else
			jsonw_null_field(ft_jw, "old");
		ft_knob_value_json("value", &r->now);
		jsonw_string_field(ft_jw, "unit", r->knob->unit);
		jsonw_end_object(ft_jw);
		return;
	}
	ft_info("%s: %s -> %s", r->knob->name, r->have_old ? r->old.text : "?", r->now.text);
	if (!r->now.numeric || r->now.value != r->val)
		ft_warn("%s reads back as %s (wrote %s)", r->knob->name, r->now.text, r->text);
}

int ft_cmd_set(int argc, char **argv)
{
	struct ft_set r = { 0 };
	const struct ft_knob *k;
	char dir[FT_PATH_MAX], msg[FT_MSG_MAX];
	uint64_t val;
	int i, ret;

	/* "set KNOB -5": report a negative value, not an unknown option */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (argv[i][0] == '-' && isdigit((unsigned char)argv[i][1]))
			return ft_usage_error(EINVAL, "invalid value '%s': negative values are not allowed",
					      argv[i]);
	ret = ft_getopt_plain(argc, argv, "set");
	if (ret >= 0)
		return ret;
	/* KNOB=VALUE as well, the sysctl habit */
	if (argc - optind == 1 && strchr(argv[optind], '=')) {
		ret = ft_parse_assignment(argv[optind], &k, &val, msg, sizeof(msg));
		if (ret)
			return ft_usage_error(-ret, "%s", msg);
	} else if (argc - optind != 2 || strchr(argv[optind], '=')) {
		return ft_usage_error(EINVAL, "set: expected KNOB VALUE or KNOB=VALUE");
	} else {
		k = ft_knob_find(argv[optind]);
		if (!k)
			return ft_usage_error(EINVAL, "unknown knob '%s'", argv[optind]);
		ret = ft_parse_value(k, argv[optind + 1], &val, msg, sizeof(msg));
		if (ret)
			return ft_usage_error(-ret, "%s", msg);
	}
	ret = ft_require_root("set");
	if (ret)
		return ret;
	ret = ft_open_debugfs_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	r.knob = k;
	r.val = val;
	ret = ft_knob_read(dir, k, &r.old);
	if (ret == -ENOENT)
		return ft_knob_fail(dir, k, ENOENT, "write");
	r.have_old = ret == 0;
	snprintf(r.text, sizeof(r.text), "%" PRIu64, val);
	ret = ft_knob_write(dir, k, r.text);
	if (ret)
		return ft_knob_fail(dir, k, -ret, "write");
	if (ft_knob_read(dir, k, &r.now)) {
		r.now.numeric = true;
		r.now.value = val;
		snprintf(r.now.text, sizeof(r.now.text), "%s", r.text);
	}
	ft_set_print(&r);
	return FT_EXIT_OK;
}
