// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * getset.c - the get and set commands: knob values through knobs.c, the
 * module's refusals reported with their errno.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "foliotune.h"
#include "getset.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "privilege.h"

/* Report a failed knob access: missing file, lockdown, permission, errno. */
static int ft_knob_error(const char *dir, const struct ft_knob *k, int err,
			 const char *verb)
{
	char path[FT_PATH_MAX], msg[FT_MSG_MAX];

	if (err == ENOENT)
		return ft_runtime_error(err, "knob %s is not provided by this module",
					k->name);
	if (ft_join(path, sizeof(path), dir, k->name))
		snprintf(path, sizeof(path), "%s", k->name);
	if (err == EPERM || err == EACCES) {
		ft_explain_debugfs_errno(err, path, msg, sizeof(msg));
		return ft_runtime_error(err, "cannot %s %s: %s", verb, k->name, msg);
	}
	return ft_runtime_error(err, "cannot %s %s: %s", verb, k->name, strerror(err));
}

static const struct option ft_knob_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void ft_json_knob_value(const char *field, const struct ft_knob_value *v)
{
	if (v->numeric)
		jsonw_uint_field(ft_jw, field, v->value);
	else
		jsonw_string_field(ft_jw, field, v->text);
}

/*
 * get without KNOB: "name value" per knob the module provides, in the
 * header's order (status lists the others); -j: {"knobs": [get -j's
 * objects]}.  All are read before anything is printed: an error is the
 * only output.
 */
static int ft_get_all(const char *dir)
{
	struct ft_knob_value v[FT_NR_KNOBS];
	bool provided[FT_NR_KNOBS];
	size_t i;
	int ret;

	for (i = 0; i < ft_nr_knobs; i++) {
		ret = ft_knob_read(dir, &ft_knobs[i], &v[i]);
		provided[i] = ret != -ENOENT;
		if (ret && provided[i])
			return ft_knob_error(dir, &ft_knobs[i], -ret, "read");
	}
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_name(ft_jw, "knobs");
		jsonw_start_array(ft_jw);
	}
	for (i = 0; i < ft_nr_knobs; i++) {
		const struct ft_knob *k = &ft_knobs[i];

		if (!provided[i])
			continue;
		if (ft_json) {
			jsonw_start_object(ft_jw);
			jsonw_string_field(ft_jw, "knob", k->name);
			ft_json_knob_value("value", &v[i]);
			jsonw_string_field(ft_jw, "unit", k->unit);
			jsonw_end_object(ft_jw);
		} else {
			printf("%s %s\n", k->name, v[i].text);
		}
	}
	if (ft_json) {
		jsonw_end_array(ft_jw);
		jsonw_end_object(ft_jw);
	}
	return FT_EXIT_OK;
}

int ft_cmd_get(int argc, char **argv)
{
	const struct ft_knob *k;
	struct ft_knob_value v;
	char dir[FT_PATH_MAX];
	int c, ret;

	while ((c = getopt_long(argc, argv, ":jh", ft_knob_opts, NULL)) != -1) {
		ret = ft_getopt_common(c, argc, argv, "get");
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	if (argc - optind > 1)
		return ft_usage_error(EINVAL, "get: expected at most one KNOB");
	if (argc == optind) {
		ret = ft_open_debugfs_dir(dir, sizeof(dir));
		return ret ? ret : ft_get_all(dir);
	}
	k = ft_knob_find(argv[optind]);
	if (!k)
		return ft_usage_error(EINVAL, "unknown knob '%s'", argv[optind]);
	ret = ft_open_debugfs_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	ret = ft_knob_read(dir, k, &v);
	if (ret)
		return ft_knob_error(dir, k, -ret, "read");
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "knob", k->name);
		ft_json_knob_value("value", &v);
		jsonw_string_field(ft_jw, "unit", k->unit);
		jsonw_end_object(ft_jw);
	} else {
		printf("%s\n", v.text);
	}
	return FT_EXIT_OK;
}

int ft_cmd_set(int argc, char **argv)
{
	struct ft_knob_value old, now;
	const struct ft_knob *k;
	char dir[FT_PATH_MAX], msg[FT_MSG_MAX], text[32];
	bool have_old;
	uint64_t val;
	int c, i, ret;

	/* "set KNOB -5": report a negative value, not an unknown option */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (argv[i][0] == '-' && isdigit((unsigned char)argv[i][1]))
			return ft_usage_error(EINVAL, "invalid value '%s': negative values are not allowed",
					      argv[i]);
	while ((c = getopt_long(argc, argv, ":jh", ft_knob_opts, NULL)) != -1) {
		ret = ft_getopt_common(c, argc, argv, "set");
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
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
	ret = ft_knob_read(dir, k, &old);
	if (ret == -ENOENT)
		return ft_knob_error(dir, k, ENOENT, "write");
	have_old = ret == 0;
	snprintf(text, sizeof(text), "%" PRIu64, val);
	ret = ft_knob_write(dir, k, text);
	if (ret)
		return ft_knob_error(dir, k, -ret, "write");
	if (ft_knob_read(dir, k, &now)) {
		now.numeric = true;
		now.value = val;
		snprintf(now.text, sizeof(now.text), "%s", text);
	}
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "knob", k->name);
		if (have_old)
			ft_json_knob_value("old", &old);
		else
			jsonw_null_field(ft_jw, "old");
		ft_json_knob_value("value", &now);
		jsonw_string_field(ft_jw, "unit", k->unit);
		jsonw_end_object(ft_jw);
	} else {
		ft_info("%s: %s -> %s", k->name, have_old ? old.text : "?", now.text);
		if (!now.numeric || now.value != val)
			ft_warn("%s reads back as %s (wrote %s)", k->name, now.text, text);
	}
	return FT_EXIT_OK;
}
