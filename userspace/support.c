// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * support.c - the support command: the support check's verdict (verified.c)
 * in one line, and the builds to boot.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "foliotune.h"
#include "json_writer.h"
#include "options.h"
#include "output.h"
#include "sysinfo.h"
#include "verified.h"

/*
 * The verdict: where the build was verified (supported), or why not and the
 * next step, then the builds to boot.
 */
static void ft_support_print(const char *rel, const char *ver, const char *where,
			     const char *why)
{
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "release", rel);
		jsonw_string_field(ft_jw, "version", ver);
		jsonw_bool_field(ft_jw, "supported", where != NULL);
		jsonw_string_or_null_field(ft_jw, "verified", where);
		jsonw_string_or_null_field(ft_jw, "next_step", why);
		jsonw_name(ft_jw, "verified_builds");
		jsonw_start_array(ft_jw);
		ft_verified_list(stdout);
		jsonw_end_array(ft_jw);
		jsonw_end_object(ft_jw);
	} else if (where) {
		printf("%s supports %s (%s): verified %s\n", FOLIOTUNE_NAME, rel, ver, where);
	} else {
		fprintf(stderr, "%s does not support %s (%s): %s\n", FOLIOTUNE_NAME, rel, ver, why);
		ft_verified_list(stdout);
	}
}

static const struct option ft_support_opts[] = {
	{ "list", no_argument, NULL, 'l' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * support [-l] [RELEASE VERSION]: the verdict in one line, for the running
 * kernel or the given build: "foliotune supports REL (VER): verified ..."
 * on standard output and exit 0, or "foliotune does not support REL (VER):
 * why; the next step" on standard error, then the verified builds one per
 * line on standard output, and exit 2.  -l: only that list, exit 0.
 */
int ft_cmd_support(int argc, char **argv)
{
	char rel[256], ver[512], why[FT_MSG_MAX], where[FT_MSG_MAX];
	bool ok, list = false;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":ljh", ft_support_opts, NULL)) != -1) {
		if (c == 'l') {
			list = true;
			continue;
		}
		ret = ft_getopt_common(c, argc, argv, "support");
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	if (list) {
		if (argc != optind)
			return ft_usage_error(EINVAL, "support: -l/--list takes no RELEASE VERSION");
		if (ft_json) {
			jsonw_start_object(ft_jw);
			jsonw_name(ft_jw, "verified_builds");
			jsonw_start_array(ft_jw);
		}
		ft_verified_list(stdout);
		if (ft_json) {
			jsonw_end_array(ft_jw);
			jsonw_end_object(ft_jw);
		}
		return FT_EXIT_OK;
	}
	if (argc - optind == 2) {
		if (!*argv[optind] || !*argv[optind + 1])
			return ft_usage_error(EINVAL, "support: RELEASE and VERSION must not be empty");
		if (strlen(argv[optind]) >= sizeof(rel) || strlen(argv[optind + 1]) >= sizeof(ver))
			return ft_usage_error(EINVAL, "support: RELEASE or VERSION too long (at most %zu and %zu bytes)",
					      sizeof(rel) - 1, sizeof(ver) - 1);
		ft_msg(rel, sizeof(rel), "%s", argv[optind]);
		ft_msg(ver, sizeof(ver), "%s", argv[optind + 1]);
	} else if (argc != optind) {
		return ft_usage_error(EINVAL, "support: expected no argument or RELEASE VERSION");
	} else if (ft_kernel_release(rel, sizeof(rel)) || ft_kernel_version(ver, sizeof(ver))) {
		return ft_runtime_error(EIO, "support: cannot read the kernel's release and version");
	}
	ok = ft_support_check(rel, ver, why, sizeof(why));
	if (ok)
		ft_support_where(rel, ver, where, sizeof(where));
	ft_support_print(rel, ver, ok ? where : NULL, ok ? NULL : why);
	return ok ? FT_EXIT_OK : FT_EXIT_RUNTIME;
}
