// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * get.c - the get command: one knob's value, or every knob's the module
 * provides.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"

/* The result: the value of each knob asked for that the module provides. */
struct ft_get {
	struct ft_knob_value v[FT_NR_KNOBS];
	bool shown[FT_NR_KNOBS];
	bool all;		/* no KNOB given: name each */
};

/*
 * One knob, or every knob the module provides (all: the others are not
 * shown; status lists them).  All are read before anything is printed: an
 * error is the only output.  0 or the exit code.
 */
static int ft_get_read(const char *dir, const struct ft_knob *only, struct ft_get *g)
{
	size_t i;
	int ret;

	for (i = 0; i < ft_nr_knobs; i++) {
		if (only && only != &ft_knobs[i])
			continue;
		ret = ft_knob_read(dir, &ft_knobs[i], &g->v[i]);
		if (ret == -ENOENT && g->all)
			continue;
		if (ret)
			return ft_knob_fail(dir, &ft_knobs[i], -ret, "read");
		g->shown[i] = true;
	}
	return 0;
}

/* Text: the value, or "name value" lines; -j: {"knob", "value", "unit"}, in {"knobs": [...]} for all. */
static void ft_get_print(const struct ft_get *g)
{
	size_t i;

	if (ft_json && g->all) {
		jsonw_start_object(ft_jw);
		jsonw_name(ft_jw, "knobs");
		jsonw_start_array(ft_jw);
	}
	for (i = 0; i < ft_nr_knobs; i++) {
		const struct ft_knob *k = &ft_knobs[i];

		if (!g->shown[i])
			continue;
		if (ft_json) {
			jsonw_start_object(ft_jw);
			jsonw_string_field(ft_jw, "knob", k->name);
			ft_knob_value_json("value", &g->v[i]);
			jsonw_string_field(ft_jw, "unit", k->unit);
			jsonw_end_object(ft_jw);
		} else if (g->all) {
			printf("%s %s\n", k->name, g->v[i].text);
		} else {
			printf("%s\n", g->v[i].text);
		}
	}
	if (ft_json && g->all) {
		jsonw_end_array(ft_jw);
		jsonw_end_object(ft_jw);
	}
}

int ft_cmd_get(int argc, char **argv)
{
	const struct ft_knob *k = NULL;
	struct ft_get g = { 0 };
	char dir[FT_PATH_MAX];
	int ret;

	ret = ft_getopt_plain(argc, argv, "get");
	if (ret >= 0)
		return ret;
	if (argc - optind > 1)
		return ft_usage_error(EINVAL, "get: expected at most one KNOB");
	g.all = argc == optind;
	if (!g.all) {
		k = ft_knob_find(argv[optind]);
		if (!k)
			return ft_usage_error(EINVAL, "unknown knob '%s'", argv[optind]);
	}
	ret = ft_open_debugfs_dir(dir, sizeof(dir));
	if (!ret)
		ret = ft_get_read(dir, k, &g);
	if (ret)
		return ret;
	ft_get_print(&g);
	return FT_EXIT_OK;
}
