// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * main.c - foliotune CLI: global options and command dispatch.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "build_info.h"
#include "commands.h"
#include "foliotune.h"
#include "json_writer.h"
#include "options.h"
#include "output.h"

struct ft_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	/* the name it had before (still accepted, with a warning, until the next release) */
	const char *old;
};

static int ft_cmd_help(int argc, char **argv);

static const struct ft_command ft_commands[] = {
	{ "status", ft_cmd_status, NULL },
	{ "support", ft_cmd_support, NULL },
	{ "load", ft_cmd_load, NULL },
	{ "unload", ft_cmd_unload, NULL },
	{ "get", ft_cmd_get, NULL },
	{ "set", ft_cmd_set, NULL },
	{ "counters", ft_cmd_counters, "stat" },
	{ "record", ft_cmd_record, NULL },
	{ "compare", ft_cmd_compare, NULL },
	{ "ab", ft_cmd_ab, NULL },
	{ "analyze", ft_cmd_analyze, "stats" },
	{ "help", ft_cmd_help, NULL },
};

#define FT_NR_COMMANDS (sizeof(ft_commands) / sizeof(ft_commands[0]))

/* Edit distance with adjacent transpositions ("stauts" is 1 from "status"). */
static size_t ft_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d[32][32];

	if (la >= 32 || lb >= 32)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;

			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

/*
 * The commands nearest to an unknown one, as " (did you mean 'a' or
 * 'b'?)", or "": those one started to type, else those within two edits
 * (one for a word of three letters or fewer).
 */
static void ft_suggest(const char *cmd, char *buf, size_t len)
{
	const char *best[FT_NR_COMMANDS];
	size_t i, n = 0, bestd = SIZE_MAX, maxd = strlen(cmd) <= 3 ? 1 : 2, pos;
	bool prefix;

	for (i = 0; strlen(cmd) >= 2 && i < FT_NR_COMMANDS; i++)
		if (!strncmp(ft_commands[i].name, cmd, strlen(cmd)))
			best[n++] = ft_commands[i].name;
	prefix = n > 0;
	for (i = 0; i < FT_NR_COMMANDS && !prefix; i++) {
		size_t d = ft_distance(cmd, ft_commands[i].name);

		if (d > maxd || d > bestd)
			continue;
		if (d < bestd)
			n = 0;
		bestd = d;
		best[n++] = ft_commands[i].name;
	}
	buf[0] = '\0';
	for (i = 0, pos = 0; i < n && pos < len; i++)
		pos += (size_t)snprintf(buf + pos, len - pos, "%s'%s'%s",
					i == 0 ? " (did you mean " : i + 1 < n ? ", " : " or ",
					best[i], i + 1 == n ? "?)" : "");
}

/* The command named cmd, by its name or its old one (*old set). */
static const struct ft_command *ft_command_find(const char *cmd, bool *old)
{
	size_t i;

	for (i = 0; i < FT_NR_COMMANDS; i++) {
		*old = ft_commands[i].old && !strcmp(cmd, ft_commands[i].old);
		if (!strcmp(cmd, ft_commands[i].name) || *old)
			return &ft_commands[i];
	}
	return NULL;
}

/*
 * help [-j] [COMMAND]: the global usage, or one command's.  The usage is
 * text even with -j, as with COMMAND --help; -j makes its errors JSON, as
 * for every command.
 */
static int ft_cmd_help(int argc, char **argv)
{
	const char *cmd;
	char hint[256];
	bool old;
	int ret;

	ret = ft_getopt_plain(argc, argv, "help");
	if (ret >= 0)
		return ret;
	if (argc - optind > 1)
		return ft_usage_error(EINVAL, "help: expected at most one COMMAND");
	cmd = optind < argc ? argv[optind] : NULL;
	if (!cmd) {
		ft_usage(stdout);
		return FT_EXIT_OK;
	}
	if (ft_command_find(cmd, &old))
		cmd = ft_command_find(cmd, &old)->name;
	if (ft_command_usage(cmd, stdout)) {
		ft_suggest(cmd, hint, sizeof(hint));
		return ft_usage_error(EINVAL, "help: unknown command '%s'%s", cmd, hint);
	}
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
	const struct ft_command *c;
	const char *cmd;
	char hint[256];
	bool old;
	int ch, ret;

	opterr = 0;
	ft_prescan_json(argc, argv);
	while ((ch = getopt_long(argc, argv, "+:jhV", ft_global_opts, NULL)) != -1) {
		if (ch == 'V') {
			/* this program's version; the kernel's: support and status */
			ft_set_json(ft_json_requested);
			if (ft_json) {
				jsonw_start_object(ft_jw);
				jsonw_string_field(ft_jw, "version", FOLIOTUNE_VERSION);
				jsonw_end_object(ft_jw);
			} else {
				printf("%s %s\n", FOLIOTUNE_NAME, FOLIOTUNE_VERSION);
			}
			ret = FT_EXIT_OK;
			goto out;
		}
		ret = ft_getopt_common(ch, argc, argv, ft_prog);
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
	c = ft_command_find(cmd, &old);
	if (!c) {
		ft_set_json(ft_json_requested);
		ft_suggest(cmd, hint, sizeof(hint));
		ret = ft_usage_error(EINVAL, "unknown command '%s'%s", cmd, hint);
		goto out;
	}
	if (old)
		ft_warn("'%s' is now '%s'; the old name goes in the next release",
			c->old, c->name);
	argc -= optind;
	argv += optind;
	optind = 0;	/* reinitialise getopt for the command */
	ft_cmd_name = c->name;
	ret = c->fn(argc, argv);
out:
	jsonw_destroy(&ft_jw);
	if ((fflush(stdout) || ferror(stdout)) && ret == FT_EXIT_OK) {
		fprintf(stderr, "%s: write error on standard output: %s\n", ft_prog,
			strerror(errno));
		ret = FT_EXIT_RUNTIME;
	}
	return ret;
}
