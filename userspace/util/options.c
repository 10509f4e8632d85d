// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * options.c - usage texts (one table: the global help lists the commands,
 * "COMMAND --help" prints one of them) and option handling shared by the
 * commands.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foliotune.h"
#include "knobs.h"
#include "options.h"
#include "output.h"

bool ft_json_requested;

struct ft_help {
	const char *name;
	const char *args;	/* after the command name */
	const char *summary;	/* global help: the lines after the synopsis */
	const char *text;	/* COMMAND --help: what it does */
	const char *options;	/* COMMAND --help: its own options */
	bool knobs;		/* COMMAND --help: name the knobs */
};

static const struct ft_help ft_helps[] = {
	{ "status", "",
	  "kernel build and support, module and livepatch\n"
	  "state, patched functions, knobs, auto-tuner state",
	  "Print the running kernel's build and whether foliotune supports it, whether\n"
	  "the module is loaded, the livepatch state and patched functions, every knob\n"
	  "and the auto-tuner's state.  Exits 2 on a locked-down kernel.\n",
	  NULL, false },
	{ "support", "[-l] [RELEASE VERSION]",
	  "does foliotune support this kernel? one line,\n"
	  "with the next step when it does not",
	  "Check the running kernel (or the build RELEASE VERSION, as uname -r and\n"
	  "uname -v print them) as the module does: its release and version string must\n"
	  "be those of a build verified in the source tree, or on this machine by\n"
	  "make verify-kernel.  Prints where it was verified and exits 0, or prints\n"
	  "why not and the next step on standard error, the verified builds one per\n"
	  "line on standard output, and exits 2.\n",
	  "  -l, --list                the verified builds, one per line, and nothing else\n",
	  false },
	{ "load", "[-t SECONDS] [PATH]",
	  "load the module and wait for the livepatch\n"
	  "transition",
	  "Load the module (finit_module) and wait until the livepatch transition is\n"
	  "complete.  Without PATH the module is found as modprobe finds it: the file\n"
	  "/lib/modules/$(uname -r)/modules.dep names (make install puts it in updates/\n"
	  "and runs depmod), else updates/foliotune.ko there if depmod has not indexed\n"
	  "it yet, else the module of the source tree this program was built from.\n"
	  "On a timeout the tasks not yet patched are listed.  Loading turns batching\n"
	  "on at once (unmap_batch and referenced_batch start at 1).\n",
	  "  -t, --timeout SECONDS     how long to wait for the transition (default 60)\n",
	  false },
	{ "unload", "[-t SECONDS]",
	  "disable the livepatch, wait for the transition,\n"
	  "remove the module",
	  "Disable the livepatch, wait for the transition, then remove the module\n"
	  "(delete_module).\n",
	  "  -t, --timeout SECONDS     how long to wait for the whole unload (default 60)\n",
	  false },
	{ "get", "[KNOB]",
	  "print the value of KNOB, or of every knob",
	  "Print the current value of KNOB; without KNOB, one \"name value\" line per\n"
	  "knob the loaded module provides (status lists the others).\n",
	  NULL, true },
	{ "set", "KNOB VALUE | KNOB=VALUE",
	  "check VALUE against the knob's range and write it",
	  "Check VALUE against the knob's kind and range and write it to KNOB; the\n"
	  "module may still refuse it (its error is reported, exit status 2).\n",
	  NULL, true },
	{ "counters", "[-i SECONDS [-c COUNT]]",
	  "print the module's counters; with -i, the deltas\n"
	  "of every interval (was: stat)",
	  "Print the module's counters as \"name value\" lines; with -i, print the\n"
	  "change of every counter during each interval.  (Its old name, stat, works\n"
	  "until the next release, with a warning.)\n",
	  "  -i, --interval SECONDS    repeat every SECONDS and print the deltas\n"
	  "  -c, --count COUNT         stop after COUNT intervals (needs -i)\n",
	  false },
	{ "record", "[-o FILE] [-l LABEL] [-s KNOB=VALUE]... -- COMMAND [ARG]...",
	  "apply settings, run COMMAND, restore settings and\n"
	  "write the counter deltas to a record file",
	  "Apply the settings, run COMMAND, restore the settings and write the deltas\n"
	  "of the module's counters and of /proc/vmstat, the wall time and the exit\n"
	  "status to a record file (format: foliotune(8), RECORD FILES).  As root it\n"
	  "also arms reclaim_probes for the run unless -s reclaim_probes=0 is given.\n"
	  "Knobs and counters are machine-wide: the deltas include every process, not\n"
	  "just COMMAND; the record notes the machine's load.  A COMMAND that fails\n"
	  "is recorded too: record then exits with COMMAND's exit status (128+N if\n"
	  "signal N killed it), as perf stat does.\n",
	  "  -o, --output FILE         record file to create (default\n"
	  "                            ./foliotune-record-<UTC timestamp>.txt)\n"
	  "  -l, --label LABEL         column label for compare\n"
	  "  -s, --set KNOB=VALUE      setting for the run (repeatable)\n",
	  true },
	{ "compare", "[--only REGEX] FILE FILE...",
	  "compare records side by side (the first one is\n"
	  "the baseline)",
	  "Print two or more record files side by side: wall time, exit status, the\n"
	  "knobs, then every counter that moved, with the change against the first\n"
	  "record in percent.  Warns when the records come from different machines or\n"
	  "settings (their env lines: kernel, CPUs, knobs no record set).  One run per\n"
	  "setting shows no spread: whether B differs from A is what ab answers.  One\n"
	  "ab file instead: its report, as ab printed it.\n",
	  "      --only REGEX          only counters matching REGEX (POSIX ERE); a REGEX\n"
	  "                            that matches no counter is an error\n",
	  false },
	{ "ab", "(-k KNOB=VA,VB | -a KNOB=V... -b KNOB=V... | --aa -a KNOB=V...) [-n PAIRS]\n"
	  "       [-w RUNS] [--random[=SEED]] [-p CMD] [-m REGEX] [-f FILE] [-N NAME] [-t]\n"
	  "       [-o FILE] -- COMMAND [ARG]...",
	  "run COMMAND in pairs under settings A and B, and\n"
	  "say whether B differs, with statistics",
	  "Run COMMAND in PAIRS pairs, once with the settings of arm A and once with\n"
	  "those of arm B in each pair, in ABBA order (or a random order per pair), after\n"
	  "RUNS unrecorded warm-up runs.  Every run is recorded as record records it\n"
	  "(counter deltas, wall time, exit status) into one ab file, with a fingerprint\n"
	  "of the machine; a line per run says how many are left and the time that\n"
	  "takes.  Then, for the wall time, the metric and every counter whose deltas\n"
	  "differ between the arms: per arm the median, IQR, minimum and maximum; the\n"
	  "Hodges-Lehmann estimate of B against A with its interval (95% or just above,\n"
	  "below with fewer than 6 pairs: the exact level, which depends on PAIRS, is\n"
	  "printed with it); the exact Wilcoxon signed-rank test of the pairs; and a\n"
	  "verdict (B faster or slower, higher or lower, or no difference and the\n"
	  "smallest effect these runs could show).  The knobs are checked before any\n"
	  "run and restored after the last.  A run whose COMMAND (or -p CMD) fails\n"
	  "stops ab: the knobs are restored, the runs done so far stay in the file,\n"
	  "and ab exits 2; so does SIGINT/SIGTERM/SIGHUP, with 128+N.\n"
	  "Knobs and counters are machine-wide: the deltas and wall times include every\n"
	  "process, not just COMMAND; the file records the other CPU time and load.\n"
	  "As root; reclaim_probes is armed in both arms unless an arm sets it.\n",
	  "  -k, --knob KNOB=VA,VB     one knob, VA in arm A and VB in arm B\n"
	  "  -a, --arm-a KNOB=VALUE    a setting of arm A (repeatable)\n"
	  "  -b, --arm-b KNOB=VALUE    a setting of arm B (repeatable); a knob only one\n"
	  "                            arm sets keeps in the other the value found\n"
	  "      --aa                  A/A: arm B runs arm A's settings (the noise floor)\n"
	  "  -n, --pairs PAIRS         pairs of runs (default 8, at least 3; 6 or more\n"
	  "                            for the test to be able to reach p < 0.05)\n"
	  "  -w, --warmup RUNS         unrecorded warm-up runs first (default 1)\n"
	  "  -r, --random[=SEED]       random order within each pair (seed printed)\n"
	  "  -p, --prepare CMD         run CMD (sh -c) before every run, untimed and out\n"
	  "                            of the counter deltas: drop caches, recreate a file\n"
	  "  -m, --metric REGEX        a metric from COMMAND's output (captured): the\n"
	  "                            last matching line's first group, or first number\n"
	  "  -f, --metric-file FILE    read the metric from FILE after each run instead\n"
	  "  -N, --metric-name NAME    the metric's name (default \"metric\")\n"
	  "  -t, --metric-time         the metric is a time: B faster or slower\n"
	  "  -o, --output FILE         ab file to create (default\n"
	  "                            ./foliotune-ab-<UTC timestamp>.txt)\n",
	  true },
	{ "analyze", "[-t] [FILE]",
	  "the statistics of ab on values measured\n"
	  "elsewhere: samples and pairs read from FILE\n"
	  "(was: stats)",
	  "Read \"NAME VALUE\" lines (samples) and \"NAME A B\" lines (pairs, A and B\n"
	  "measured together) from FILE or, without FILE or with \"-\", standard input;\n"
	  "run nothing, so neither the module nor root is needed.  Input without a\n"
	  "value is an error.  For each NAME, in first-seen order, print one\n"
	  "tab-separated line: for samples the count, median, quartiles, minimum,\n"
	  "maximum and the outliers (by position: 4x off the median, with 3 values or\n"
	  "more); for pairs the statistics of ab (per-arm medians, the Hodges-Lehmann\n"
	  "estimate of B against A with its interval, on a log scale when every value\n"
	  "is positive, the exact Wilcoxon signed-rank p), its verdict: higher, lower,\n"
	  "none (with the smallest effect these pairs could show) or few (fewer than 6\n"
	  "differing pairs: no difference can be shown at p < 0.05), and the interval's\n"
	  "exact confidence level (0.95 or just above; below with fewer than 6 pairs).\n"
	  "The benchmark reports (bench/) take their figures from here.  (Its old\n"
	  "name, stats, works until the next release, with a warning.)\n",
	  "  -t, --time                the values are times: B faster or slower\n",
	  false },
	{ "help", "[COMMAND]",
	  "this help, or one command's (as COMMAND --help)",
	  "Print the usage of foliotune, or of COMMAND.  The usage is text, with -j\n"
	  "too; -j makes an error JSON.\n",
	  NULL, false },
};

#define FT_NR_HELPS (sizeof(ft_helps) / sizeof(ft_helps[0]))

static const struct ft_help *ft_help_find(const char *cmd)
{
	size_t i;

	for (i = 0; cmd && i < FT_NR_HELPS; i++)
		if (!strcmp(ft_helps[i].name, cmd))
			return &ft_helps[i];
	return NULL;
}

/* Words of text from column col, wrapped before column 80. */
static void ft_print_wrapped(FILE *f, const char *text, int col)
{
	int pos = col, n;

	fprintf(f, "%*s", col, "");
	while (*text) {
		n = (int)strcspn(text, " ");
		if (pos > col && pos + 1 + n >= 80) {
			fprintf(f, "\n%*s", col, "");
			pos = col;
		}
		pos += fprintf(f, "%s%.*s", pos > col ? " " : "", n, text);
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

static void ft_usage_knobs(FILE *f)
{
	char range[64], def[32];
	size_t i;

	fprintf(f, "\nKnobs (name, values, default, meaning):\n");
	for (i = 0; i < ft_nr_knobs; i++) {
		const struct ft_knob *k = &ft_knobs[i];

		if (k->kind == FT_KIND_BYTES)
			ft_format_bytes(k->def, def, sizeof(def));
		else
			snprintf(def, sizeof(def), "%" PRIu64, k->def);
		if (k->kind == FT_KIND_BYTES || k->kind == FT_KIND_UINT) {
			ft_knob_range(k, range, sizeof(range));
			fprintf(f, "  %-28s %s %s, default %s\n", k->name,
				k->unit, range, def);
		} else {
			fprintf(f, "  %-28s %s, default %s\n", k->name, k->unit,
				def);
		}
		ft_print_wrapped(f, k->help, 31);
	}
	fprintf(f,
"\n"
"Values: bytes knobs take a number with an optional K, M or G suffix (powers\n"
"of 1024, any case: 4K, 64K, 2M); bool knobs take on/off, yes/no, true/false\n"
"or 1/0, and so do 0|1|2 knobs for 0 and 1; other knobs take plain decimal\n"
"numbers.  A value outside the range is a usage error.\n");
}

/*
 * A command's help names the knobs; their table is the global help's
 * (one place to read it, not one copy per command).
 */
static void ft_usage_knob_names(FILE *f)
{
	char names[FT_NR_KNOBS * 64] = "";
	size_t i, used = 0;
	int n;

	for (i = 0; i < ft_nr_knobs; i++) {
		n = snprintf(names + used, sizeof(names) - used, "%s%s", ft_knobs[i].name,
			     i + 1 < ft_nr_knobs ? ", " : ".");
		if (n < 0 || (size_t)n >= sizeof(names) - used)
			break;	/* no room left: the list stops there */
		used += (size_t)n;
	}
	fprintf(f, "\nKnobs (values, ranges and meanings: '%s --help'):\n", ft_prog);
	ft_print_wrapped(f, names, 2);
}

/* Print text, its lines after the first indented to column col. */
static void ft_print_indented(FILE *f, const char *text, int col)
{
	for (; *text; text++) {
		fputc(*text, f);
		if (*text == '\n' && text[1])
			fprintf(f, "%*s", col, "");
	}
	fputc('\n', f);
}

void ft_usage(FILE *f)
{
	size_t i;

	fprintf(f,
"Usage: %s [-j] COMMAND [OPTION]... [ARG]...\n"
"Inspect and control the foliotune livepatch module.\n"
"\n"
"Commands:\n", ft_prog);
	for (i = 0; i < FT_NR_HELPS; i++) {
		const struct ft_help *h = &ft_helps[i];
		int n = fprintf(f, "  %s%s%s", h->name, *h->args ? " " : "", h->args);

		if (n > 28)
			fprintf(f, "\n%28s", "");
		else
			fprintf(f, "%*s", 28 - n, "");
		ft_print_indented(f, h->summary, 28);
	}
	fprintf(f,
"\n"
"Options:\n"
"  -j, --json                JSON output (errors too, as {\"error\": ..., \"errno\": N})\n"
"  -h, --help                show this help (after a command: that command's)\n"
"  -V, --version             show the version (the kernel: support, status)\n");
	ft_usage_knobs(f);
	fprintf(f,
"\n"
"Exit status: 0 success, 1 usage error, 2 runtime error; record and ab\n"
"exit 128+N when interrupted by signal N, and record exits with COMMAND's\n"
"status when COMMAND fails.\n"
"\n"
"'%s COMMAND --help' shows one command's options; see %s(8).\n",
		ft_prog, ft_prog);
}

int ft_command_usage(const char *cmd, FILE *f)
{
	const struct ft_help *h = ft_help_find(cmd);

	if (!h)
		return -ENOENT;
	fprintf(f, "Usage: %s [-j] %s%s%s\n", ft_prog, h->name, *h->args ? " " : "",
		h->args);
	fprintf(f, "%s", h->text);
	fprintf(f, "\nOptions:\n%s", h->options ? h->options : "");
	fprintf(f,
"  -j, --json                JSON output (errors too)\n"
"  -h, --help                show this help and exit\n");
	if (h->knobs)
		ft_usage_knob_names(f);
	fprintf(f, "\nSee %s(8).\n", ft_prog);
	return 0;
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
		if (ft_command_usage(cmd, stdout))
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

int ft_getopt_plain(int argc, char **argv, const char *cmd)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, ret;

	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		ret = ft_getopt_common(c, argc, argv, cmd);
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	return -1;
}
