/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ft.h - internal interfaces of the foliotune CLI.
 */
#ifndef FT_H
#define FT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "foliotune.h"
#include "json_writer.h"

/* The kernel build this CLI serves: userspace/Makefile passes it. */
#ifndef FOLIOTUNE_KVER
#error "FOLIOTUNE_KVER undefined: build with userspace/Makefile"
#endif
#ifndef FOLIOTUNE_BUILD_KO
#define FOLIOTUNE_BUILD_KO "module/foliotune.ko"
#endif
#ifndef FOLIOTUNE_VERSION
#define FOLIOTUNE_VERSION "0.1"
#endif
/* Optional debugfs file of the auto-tuner (free-form text). */
#ifndef FOLIOTUNE_AUTO_STATE_FILE
#define FOLIOTUNE_AUTO_STATE_FILE "fault_around_auto_state"
#endif

#define FT_EXIT_OK	0
#define FT_EXIT_USAGE	1
#define FT_EXIT_RUNTIME	2

#define FT_PATH_MAX	4096
#define FT_MSG_MAX	1024

/* ---- util.c: output, errors, paths, files, time ---- */
extern bool ft_json;			/* -j/--json */
extern json_writer_t *ft_jw;		/* valid when ft_json */
extern const char *ft_prog;
extern const char *ft_cmd_name;		/* the command running, or NULL */

void ft_set_json(bool on);
/* Report an error (text on stderr, or a JSON object on stdout); returns code. */
int ft_fail(int code, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, with a callback adding fields to the JSON object / lines to stderr. */
int ft_fail_ex(int code, int err, void (*extra)(void *arg), void *arg,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define ft_usage_error(err, ...) ft_fail(FT_EXIT_USAGE, (err), __VA_ARGS__)
#define ft_runtime_error(err, ...) ft_fail(FT_EXIT_RUNTIME, (err), __VA_ARGS__)
/* snprintf for messages: silently truncates (no -Wformat-truncation). */
void ft_msg(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Informational message: stdout, suppressed in JSON mode. */
void ft_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress note: stderr, suppressed in JSON mode. */
void ft_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warning: stderr, always. */
void ft_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

const char *ft_sysroot(void);
/* snprintf of FOLIOTUNE_SYSROOT + formatted path; -ENAMETOOLONG on overflow */
int ft_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ft_debugfs_root(char *buf, size_t len);
int ft_join(char *buf, size_t len, const char *dir, const char *name);

/* Whole file, NUL terminated (max 64 MiB); 0 or -errno. */
int ft_read_file(const char *path, char **out, size_t *len);
/* First line, trimmed of trailing whitespace; 0 or -errno. */
int ft_read_line(const char *path, char *buf, size_t len);
int ft_read_int(const char *path, long long *out);
/* Write a string (no O_TRUNC on pseudo file systems); 0 or -errno. */
int ft_write_file(const char *path, const char *s);
bool ft_exists(const char *path);
bool ft_is_dir(const char *path);
char *ft_strdup(const char *s);		/* aborts on OOM */
void *ft_xrealloc(void *p, size_t n);	/* exits on OOM */
void *ft_xcalloc(size_t n, size_t size);	/* exits on OOM; n may be 0 */
void ft_rtrim(char *s);

double ft_now(void);			/* CLOCK_MONOTONIC seconds */
void ft_sleep(double seconds);
/* Non-negative seconds ("1", "0.5"); 0 or -EINVAL/-ERANGE */
int ft_parse_seconds(const char *s, double *out);

int ft_kernel_release(char *buf, size_t len);
int ft_kernel_version(char *buf, size_t len);
/* Current lockdown mode ("none", "integrity", ...) or "" if unknown. */
void ft_lockdown_mode(char *buf, size_t len);
int ft_parse_lockdown(const char *content, char *buf, size_t len);
uid_t ft_euid(void);			/* honours FOLIOTUNE_ASSUME_UID */
/*
 * A file foliotune created under sudo(8) goes to the user who ran sudo
 * (SUDO_UID, SUDO_GID), mode unchanged, so that their next command
 * (compare, plot) can read it; a warning if it cannot.
 */
void ft_give_to_sudo_user(int fd, const char *path);
/* Returns 0 if root, else reports "must be root" and returns 2. */
int ft_require_root(const char *what);

/* ---- support.c: the support check (a module/verified/ build) ---- */
/* Release and version of a verified build?  If not, why, and what to do. */
bool ft_support_check(const char *rel, const char *ver, char *why, size_t len);
bool ft_running_supported(char *why, size_t len);

/* ---- knobs.c: knob table, value parsing and formatting ---- */
enum ft_kind { FT_KIND_BOOL, FT_KIND_BYTES, FT_KIND_ENUM, FT_KIND_UINT };

struct ft_knob {
	const char *name;
	enum ft_kind kind;
	const char *kind_name;
	const char *unit;
	uint64_t min, max;	/* documented range (foliotune.h) */
	uint64_t def;		/* value when the module loads */
	const char *help;
};
extern const struct ft_knob ft_knobs[];
extern const size_t ft_nr_knobs;

struct ft_knob_value {
	char text[64];		/* file content, trimmed */
	bool numeric;
	uint64_t value;
};

const struct ft_knob *ft_knob_find(const char *name);
int ft_parse_bool(const char *s, bool *out);
/* Decimal with optional K/M/G (1024 powers) when units; 0/-EINVAL/-ERANGE */
int ft_parse_u64(const char *s, bool units, uint64_t max, uint64_t *out);
/* Validate a value for a knob; msg gets the reason on failure. */
int ft_parse_value(const struct ft_knob *k, const char *s, uint64_t *out,
		   char *msg, size_t msglen);
int ft_parse_assignment(const char *arg, const struct ft_knob **k,
			uint64_t *val, char *msg, size_t msglen);
void ft_format_bytes(uint64_t v, char *buf, size_t len);
int ft_knob_read(const char *dir, const struct ft_knob *k,
		 struct ft_knob_value *out);
int ft_knob_write(const char *dir, const struct ft_knob *k, const char *text);

/* "4K..2M", "100..60000": a knob's documented range */
void ft_knob_range(const struct ft_knob *k, char *buf, size_t len);

/* ---- getset.c: the get and set commands ---- */
int ft_cmd_get(int argc, char **argv);
int ft_cmd_set(int argc, char **argv);

/* ---- counters.c: snapshots of "name value" files, stat ---- */
struct ft_counter {
	char *name;
	uint64_t value;
};
struct ft_snapshot {
	struct ft_counter *v;
	size_t n, cap;
};
int ft_snapshot_parse(const char *buf, struct ft_snapshot *s);
int ft_snapshot_read(const char *path, struct ft_snapshot *s);
void ft_snapshot_free(struct ft_snapshot *s);
/* Value of name in s (hint: expected index); false if absent. */
bool ft_snapshot_lookup(const struct ft_snapshot *s, const char *name,
			size_t hint, uint64_t *out);
int ft_module_vmstat_path(char *buf, size_t len, char *msg, size_t msglen);
int ft_cmd_stat(int argc, char **argv);

/* ---- module_path.c: the module on disk and in the running kernel ---- */
#include "module_path.h"

/* ---- lifecycle.c: build file, load/unload ---- */
struct ft_build {
	char release[256];
	char version[512];
};
int ft_parse_build(const char *content, struct ft_build *b);
int ft_cmd_load(int argc, char **argv);
int ft_cmd_unload(int argc, char **argv);

/* ---- status.c: status, and the support part of --version ---- */
int ft_cmd_status(int argc, char **argv);
int ft_print_version(void);

/* ---- record_file.c: the record file format ---- */
#include "record_file.h"

/* ---- record.c: the record command ---- */
void ft_quote_command(char **argv, char *buf, size_t len);
int ft_cmd_record(int argc, char **argv);
/*
 * The workload of record and ab: SIGINT, SIGTERM and SIGHUP set
 * ft_stop_sig and are passed on to the running child
 * (ft_install_signals()).  ft_run_child() runs @cmd, its stdout on
 * @out_fd unless that is negative, and waits for it: 0 with its wait
 * status, wall time and (if @ru) resource usage, or the exit code of an
 * error it reported (pipe, fork, waitpid, exec).
 */
struct rusage;
extern volatile sig_atomic_t ft_stop_sig;
void ft_install_signals(void);
int ft_run_child(char **cmd, int out_fd, int *status, double *wall,
		 struct rusage *ru);
/* Append after - before of every counter of after, as SOURCE counters. */
void ft_record_add_deltas(struct ft_record *r, const char *source,
			  const struct ft_snapshot *before,
			  const struct ft_snapshot *after);

/* ---- compare.c ---- */
int ft_cmd_compare(int argc, char **argv);

/* ---- stats.c: the statistics of ab ---- */
struct ft_summary {
	size_t n;
	double median, q1, q3, min, max;	/* quartiles: linear interpolation */
};
double ft_quantile(const double *sorted, size_t n, double p);
void ft_summarise(const double *x, size_t n, struct ft_summary *s);
bool ft_outlier(double x, const struct ft_summary *s);
struct ft_wilcoxon {
	size_t n;		/* non-zero differences tested */
	size_t nzero;		/* zero differences dropped */
	bool ties;		/* tied |differences| (mid-ranks) */
	double w_plus;		/* rank sum of the positive differences */
	double p;		/* exact two-sided p-value */
	double p_min;		/* the smallest p-value these ranks allow */
};
void ft_wilcoxon(const double *d, size_t n, struct ft_wilcoxon *w);
struct ft_hl {
	double est, lo, hi;	/* estimate and interval of the centre */
	double level;		/* the interval's exact confidence */
};
void ft_hodges_lehmann(const double *d, size_t n, double level,
		       struct ft_hl *hl);

/* ---- ab.c: the ab command, ab files ---- */
#include <regex.h>
int ft_cmd_ab(int argc, char **argv);
int ft_cmd_stats(int argc, char **argv);
bool ft_is_ab_file(const char *buf);
/* Whether the file at path starts as an ab file does. */
bool ft_ab_sniff(const char *path);
/* Print the report of an ab file (text or JSON); 0 or an exit code. */
int ft_ab_report_file(const char *path);
bool ft_ab_parse_metric(const regex_t *re, const char *text, double *out);
/* The machine's fingerprint, "env KEY VALUE" lines; dir: debugfs or NULL. */
void ft_env_write(FILE *f, const char *dir);
void ft_env_write_after(FILE *f);	/* env loadavg_after */
void ft_env_warn_busy(void);

/* ---- options.c: usage and option helpers ---- */
void ft_usage(FILE *f);
/* One command's usage; -ENOENT if cmd is not a command. */
int ft_command_usage(const char *cmd, FILE *f);
/*
 * Common getopt_long handling: -j, -h, option errors.  Returns -1 to go on,
 * else the exit code (help printed: 0; bad option: 1).
 */
int ft_getopt_common(int c, int argc, char **argv, const char *cmd);
/* Record that -j was given (applied once options are parsed). */
extern bool ft_json_requested;

#endif /* FT_H */
