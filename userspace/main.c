// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * main.c - foliotune CLI: global options and command dispatch.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ab.h"
#include "compare.h"
#include "counters.h"
#include "getset.h"
#include "json_writer.h"
#include "lifecycle.h"
#include "options.h"
#include "output.h"
#include "record.h"
#include "stats_cmd.h"
#include "status.h"
#include "support.h"

struct ft_command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static int ft_cmd_help(int argc, char **argv);

static const struct ft_command ft_commands[] = {
	{ "status", ft_cmd_status },
	{ "support", ft_cmd_support },
	{ "load", ft_cmd_load },
	{ "unload", ft_cmd_unload },
	{ "get", ft_cmd_get },
	{ "set", ft_cmd_set },
	{ "stat", ft_cmd_stat },
	{ "record", ft_cmd_record },
	{ "compare", ft_cmd_compare },
	{ "ab", ft_cmd_ab },
	{ "stats", ft_cmd_stats },
	{ "help", ft_cmd_help },
};

static const struct option ft_help_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * help [-j] [COMMAND]: the global usage, or one command's.  The usage is
 * text even with -j, as with COMMAND --help; -j makes its errors JSON, as
 * for every command.
 */
static int ft_cmd_help(int argc, char **argv)
{
	const char *cmd;
	int ch, ret;

	while ((ch = getopt_long(argc, argv, ":jh", ft_help_opts, NULL)) != -1) {
		ret = ft_getopt_common(ch, argc, argv, "help");
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	if (argc - optind > 1)
		return ft_usage_error(EINVAL, "help: expected at most one COMMAND");
	cmd = optind < argc ? argv[optind] : NULL;
	if (!cmd) {
		ft_usage(stdout);
		return FT_EXIT_OK;
	}
	if (ft_command_usage(cmd, stdout))
		return ft_usage_error(EINVAL, "help: unknown command '%s'", cmd);
	return FT_EXIT_OK;
}

/* -j before "--" anywhere: JSON for option errors too */
static void ft_prescan_json(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			ft_set_json(true);
}

static const struct option ft_global_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

int main(int argc, char **argv)
{
	const char *cmd;
	int c, ret;
	size_t i;

	opterr = 0;
	ft_prescan_json(argc, argv);
	while ((c = getopt_long(argc, argv, "+:jhV", ft_global_opts, NULL)) != -1) {
		if (c == 'V') {
			ft_set_json(ft_json_requested);
			ret = ft_print_version();
			goto out;
		}
		ret = ft_getopt_common(c, argc, argv, ft_prog);
		if (ret >= 0)
			goto out;
	}
	if (optind >= argc) {
		ft_set_json(ft_json_requested);
		if (!ft_json)
			ft_usage(stderr);
		ret = ft_usage_error(EINVAL, "missing COMMAND");
		goto out;
	}
	cmd = argv[optind];
	for (i = 0; i < sizeof(ft_commands) / sizeof(ft_commands[0]); i++) {
		if (!strcmp(cmd, ft_commands[i].name)) {
			int sub_argc = argc - optind;
			char **sub_argv = argv + optind;

			optind = 0;	/* reinitialise getopt for the command */
			ft_cmd_name = ft_commands[i].name;
			ret = ft_commands[i].fn(sub_argc, sub_argv);
			goto out;
		}
	}
	ft_set_json(ft_json_requested);
	ret = ft_usage_error(EINVAL, "unknown command '%s'", cmd);
out:
	jsonw_destroy(&ft_jw);
	if ((fflush(stdout) || ferror(stdout)) && ret == FT_EXIT_OK) {
		fprintf(stderr, "%s: write error on standard output: %s\n", ft_prog,
			strerror(errno));
		ret = FT_EXIT_RUNTIME;
	}
	return ret;
}
