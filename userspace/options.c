// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * options.c - usage text and option handling shared by the commands.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

bool ft_json_requested;

void ft_usage(FILE *f)
{
	size_t i;

	fprintf(f,
"Usage: %s [-j] COMMAND [OPTION]... [ARG]...\n"
"Inspect and control the foliotune livepatch module.\n"
"\n"
"Commands:\n"
"  status                    kernel build and support, module and livepatch\n"
"                            state, patched functions, knobs, auto-tuner state\n"
"  load [-t SECONDS] [PATH]  load the module (finit_module) and wait for the\n"
"                            livepatch transition; default PATH:\n"
"                            /lib/modules/$(uname -r)/updates/foliotune.ko,\n"
"                            else %s\n"
"  unload [-t SECONDS]       disable the livepatch, wait for the transition,\n"
"                            remove the module (delete_module)\n"
"  get KNOB                  print the value of KNOB\n"
"  set KNOB VALUE            validate VALUE and write it to KNOB\n"
"  stat [-i SECONDS [-c COUNT]]\n"
"                            print the module's counters; with -i, print the\n"
"                            deltas of every interval\n"
"  record [-o FILE] [-l LABEL] [-s KNOB=VALUE]... -- COMMAND [ARG]...\n"
"                            apply settings, run COMMAND, restore settings and\n"
"                            write the counter deltas to a record file\n"
"  compare [--only REGEX] FILE FILE...\n"
"                            compare records side by side (the first one is\n"
"                            the baseline)\n"
"\n"
"Options:\n"
"  -j, --json                JSON output (errors too, as {\"error\": ..., \"errno\": N})\n"
"  -h, --help                show this help and exit\n"
"      --version             show the version and exit\n"
"  -t, --timeout SECONDS     load/unload: transition timeout (default 60)\n"
"  -i, --interval SECONDS    stat: repeat every SECONDS and print deltas\n"
"  -c, --count COUNT         stat: stop after COUNT intervals\n"
"  -o, --output FILE         record: output file (default\n"
"                            ./foliotune-record-<UTC timestamp>.txt)\n"
"  -l, --label LABEL         record: column label for compare\n"
"  -s, --set KNOB=VALUE      record: setting for the run (repeatable)\n"
"      --only REGEX          compare: only counters matching REGEX (POSIX ERE)\n"
"\n"
"Knobs:\n", ft_prog, FOLIOTUNE_BUILD_KO);
	for (i = 0; i < ft_nr_knobs; i++)
		fprintf(f, "  %-28s %-6s %s\n", ft_knobs[i].name, ft_knobs[i].unit,
			ft_knobs[i].help);
	fprintf(f,
"\n"
"Values: bytes knobs take a number with an optional K, M or G suffix (powers\n"
"of 1024, any case: 4K, 64K, 2M); bool knobs take on/off, yes/no, true/false\n"
"or 1/0; other knobs take plain decimal numbers.\n"
"\n"
"Exit status: 0 success, 1 usage error, 2 runtime error; record exits\n"
"128+N when interrupted by signal N.\n"
"\n"
"Environment: FOLIOTUNE_SYSROOT, FOLIOTUNE_DEBUGFS, FOLIOTUNE_ASSUME_UID,\n"
"FOLIOTUNE_FAKE_MODULE_SYSCALLS (testing); see %s(8).\n", ft_prog);
}

int ft_getopt_common(int c, int argc, char **argv, const char *cmd)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

	switch (c) {
	case 'j':
		ft_json_requested = true;
		ft_set_json(true);
		return -1;
	case 'h':
		ft_set_json(false);
		ft_usage(stdout);
		return FT_EXIT_OK;
	case ':':
		return ft_usage_error(EINVAL, "%s: option '%s' requires an argument",
				      cmd, arg);
	default:
		if (optopt && optopt != c)
			return ft_usage_error(EINVAL, "%s: invalid option -- '%c'", cmd,
					      optopt);
		return ft_usage_error(EINVAL, "%s: unrecognized option '%s'", cmd, arg);
	}
}
