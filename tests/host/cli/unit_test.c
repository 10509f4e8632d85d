// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * unit_test.c - unit tests of the foliotune CLI's parsers and writers.
 * Prints "ok - name" / "not ok - name # reason"; exits 1 on any failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_file.h"
#include "child.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "output.h"
#include "path.h"
#include "record_file.h"
#include "snapshot.h"
#include "statistics.h"
#include "sysinfo.h"

static int failures, count;

static void check(bool cond, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check(bool cond, const char *name, const char *fmt, ...)
{
	va_list ap;

	count++;
	if (cond) {
		printf("ok - %s\n", name);
		return;
	}
	failures++;
	printf("not ok - %s # ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void t_u64(const char *s, bool units, uint64_t max, int want_err,
		  uint64_t want)
{
	char name[128];
	uint64_t v = 0;
	int err = ft_parse_u64(s, units, max, &v);

	snprintf(name, sizeof(name), "parse_u64 '%s'%s", s, units ? " units" : "");
	if (want_err)
		check(err == want_err, name, "got %d, want %d", err, want_err);
	else
		check(!err && v == want, name, "got err %d value %llu, want %llu", err,
		      (unsigned long long)v, (unsigned long long)want);
}

static void test_units(void)
{
	t_u64("0", true, UINT64_MAX, 0, 0);
	t_u64("4096", true, UINT64_MAX, 0, 4096);
	t_u64("4K", true, UINT64_MAX, 0, 4096);
	t_u64("4k", true, UINT64_MAX, 0, 4096);
	t_u64("64K", true, UINT64_MAX, 0, 65536);
	t_u64("2M", true, UINT64_MAX, 0, 2097152);
	t_u64("2m", true, UINT64_MAX, 0, 2097152);
	t_u64("1G", true, UINT64_MAX, 0, 1073741824);
	t_u64("1g", true, UINT64_MAX, 0, 1073741824);
	t_u64("0K", true, UINT64_MAX, 0, 0);
	t_u64("007", true, UINT64_MAX, 0, 7);
	t_u64("18446744073709551615", true, UINT64_MAX, 0, UINT64_MAX);
	t_u64("18446744073709551616", true, UINT64_MAX, -ERANGE, 0);
	t_u64("99999999999999999999999", true, UINT64_MAX, -ERANGE, 0);
	t_u64("17179869183G", true, UINT64_MAX, 0, 17179869183ULL << 30);
	t_u64("17179869184G", true, UINT64_MAX, -ERANGE, 0);
	t_u64("18014398509481984K", true, UINT64_MAX, -ERANGE, 0);
	t_u64("4294967295", false, 4294967295ULL, 0, 4294967295ULL);
	t_u64("4294967296", false, 4294967295ULL, -ERANGE, 0);
	t_u64("4K", false, UINT64_MAX, -EINVAL, 0);
	t_u64("", true, UINT64_MAX, -EINVAL, 0);
	t_u64("K", true, UINT64_MAX, -EINVAL, 0);
	t_u64("4KB", true, UINT64_MAX, -EINVAL, 0);
	t_u64("4KiB", true, UINT64_MAX, -EINVAL, 0);
	t_u64("4T", true, UINT64_MAX, -EINVAL, 0);
	t_u64("4 K", true, UINT64_MAX, -EINVAL, 0);
	t_u64(" 4", true, UINT64_MAX, -EINVAL, 0);
	t_u64("4 ", true, UINT64_MAX, -EINVAL, 0);
	t_u64("4.5K", true, UINT64_MAX, -EINVAL, 0);
	t_u64("0x10", true, UINT64_MAX, -EINVAL, 0);
	t_u64("+4", true, UINT64_MAX, -EINVAL, 0);
	t_u64("-4", true, UINT64_MAX, -EINVAL, 0);
	t_u64("abc", true, UINT64_MAX, -EINVAL, 0);
	t_u64("99999999999999999999999x", true, UINT64_MAX, -EINVAL, 0);
}

static void test_bools(void)
{
	static const char *const t[] = { "1", "on", "ON", "yes", "Yes", "true", "TRUE" };
	static const char *const f[] = { "0", "off", "Off", "no", "NO", "false", "False" };
	static const char *const junk[] = { "", "2", "onn", "y", "n", "t", " on", "-1", "01" };
	char name[64];
	size_t i;
	bool b;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(name, sizeof(name), "bool '%s' is true", t[i]);
		b = false;
		check(!ft_parse_bool(t[i], &b) && b, name, "not parsed as true");
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(name, sizeof(name), "bool '%s' is false", f[i]);
		b = true;
		check(!ft_parse_bool(f[i], &b) && !b, name, "not parsed as false");
	}
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		snprintf(name, sizeof(name), "bool '%s' rejected", junk[i]);
		check(ft_parse_bool(junk[i], &b) == -EINVAL, name, "accepted");
	}
}

static void t_value(const char *knob, const char *s, int want_err, uint64_t want,
		    const char *want_msg)
{
	const struct ft_knob *k = ft_knob_find(knob);
	char name[160], msg[FT_MSG_MAX];
	uint64_t v = 0;
	int err;

	snprintf(name, sizeof(name), "value %s '%s'", knob, s);
	if (!k) {
		check(false, name, "knob missing from foliotune.h");
		return;
	}
	err = ft_parse_value(k, s, &v, msg, sizeof(msg));
	if (want_err)
		check(err == want_err && (!want_msg || strstr(msg, want_msg)), name,
		      "got %d '%s', want %d '%s'", err, msg, want_err,
		      want_msg ? want_msg : "");
	else
		check(!err && v == want, name, "got %d (%s) %llu", err, msg,
		      (unsigned long long)v);
}

static void test_values(void)
{
	t_value("unmap_batch", "on", 0, 1, NULL);
	t_value("unmap_batch", "off", 0, 0, NULL);
	t_value("unmap_batch", "2", 0, 2, NULL);
	t_value("unmap_batch", "3", -EINVAL, 0, "expected one of 0|1|2");
	t_value("unmap_batch", "maybe", -EINVAL, 0, "expected one of 0|1|2");
	t_value("fault_around_bytes", "64K", 0, 65536, NULL);
	t_value("fault_around_bytes", "2M", 0, 2097152, NULL);
	t_value("fault_around_bytes", "4096", 0, 4096, NULL);
	t_value("fault_around_bytes", "-4096", -EINVAL, 0, "negative");
	t_value("fault_around_bytes", "64KB", -EINVAL, 0, "byte count");
	t_value("fault_around_bytes", "99999999999G", -ERANGE, 0, "out of range 4K..2M bytes");
	t_value("fault_around_bytes", "4M", -ERANGE, 0, "out of range 4K..2M bytes");
	t_value("fault_around_bytes", "2049K", -ERANGE, 0, "out of range 4K..2M bytes");
	t_value("fault_around_bytes", "4095", -ERANGE, 0, "out of range 4K..2M bytes");
	t_value("fault_around_bytes", "0", -ERANGE, 0, "out of range 4K..2M bytes");
	t_value("fault_around_auto_max_bytes", "4M", -ERANGE, 0, "out of range 4K..2M bytes");
	t_value("fault_around_auto_max_bytes", "2M", 0, 2097152, NULL);
	t_value("fault_around_mkold", "0", 0, 0, NULL);
	t_value("fault_around_mkold", "2", 0, 2, NULL);
	t_value("fault_around_mkold", "3", -EINVAL, 0, "one of 0|1|2");
	t_value("fault_around_mkold", "1K", -EINVAL, 0, "one of");
	t_value("fault_around_auto", "yes", 0, 1, NULL);
	t_value("fault_around_auto_max_bytes", "1m", 0, 1048576, NULL);
	t_value("fault_around_auto_period_ms", "1000", 0, 1000, NULL);
	/* the documented ranges of include/foliotune.h, edges included */
	t_value("fault_around_auto_period_ms", "100", 0, 100, NULL);
	t_value("fault_around_auto_period_ms", "60000", 0, 60000, NULL);
	t_value("fault_around_auto_period_ms", "99", -ERANGE, 0, "out of range 100..60000 ms");
	t_value("fault_around_auto_period_ms", "10", -ERANGE, 0, "out of range 100..60000 ms");
	t_value("fault_around_auto_period_ms", "60001", -ERANGE, 0, "out of range 100..60000 ms");
	t_value("fault_around_auto_period_ms", "4294967296", -ERANGE, 0, "out of range");
	t_value("fault_around_auto_period_ms", "1K", -EINVAL, 0, "decimal");
	t_value("fault_around_auto_period_ms", "-1", -EINVAL, 0, "negative");
	t_value("fault_around_auto_period_ms", "", -EINVAL, 0, NULL);
}

static void test_knobs(void)
{
	const struct ft_knob *k;
	char msg[FT_MSG_MAX];
	uint64_t v;
	size_t i;

#define T_KNOB(name, ...) \
	check(ft_knob_find(#name) != NULL, "knob " #name " known", "not found");
	FOLIOTUNE_KNOBS(T_KNOB)
#undef T_KNOB
	check(ft_nr_knobs == FT_NR_KNOBS, "knob table size", "%zu", ft_nr_knobs);
	check(!ft_knob_find("bogus"), "unknown knob", "found");
	check(!ft_knob_find(""), "empty knob name", "found");
	check(!ft_knob_find("Unmap_batch"), "knob names are case-sensitive", "found");
	for (i = 0; i < ft_nr_knobs; i++)
		check(ft_knobs[i].unit && ft_knobs[i].help && ft_knobs[i].kind_name,
		      ft_knobs[i].name, "incomplete entry");

	check(!ft_parse_assignment("fault_around_bytes=64K", &k, &v, msg, sizeof(msg)) &&
	      k == ft_knob_find("fault_around_bytes") && v == 65536,
	      "assignment ok", "%s", msg);
	check(ft_parse_assignment("bogus=1", &k, &v, msg, sizeof(msg)) == -EINVAL &&
	      strstr(msg, "unknown knob 'bogus'"), "assignment unknown knob", "%s", msg);
	check(ft_parse_assignment("=1", &k, &v, msg, sizeof(msg)) == -EINVAL,
	      "assignment without name", "%s", msg);
	check(ft_parse_assignment("unmap_batch", &k, &v, msg, sizeof(msg)) == -EINVAL &&
	      strstr(msg, "KNOB=VALUE"), "assignment without =", "%s", msg);
	check(ft_parse_assignment("unmap_batch=maybe", &k, &v, msg, sizeof(msg)) == -EINVAL,
	      "assignment bad value", "%s", msg);
}

static void test_format_bytes(void)
{
	char b[32];

	ft_format_bytes(65536, b, sizeof(b));
	check(!strcmp(b, "64K"), "format 64K", "%s", b);
	ft_format_bytes(2097152, b, sizeof(b));
	check(!strcmp(b, "2M"), "format 2M", "%s", b);
	ft_format_bytes(3ULL << 30, b, sizeof(b));
	check(!strcmp(b, "3G"), "format 3G", "%s", b);
	ft_format_bytes(1000, b, sizeof(b));
	check(!strcmp(b, "1000"), "format 1000", "%s", b);
	ft_format_bytes(0, b, sizeof(b));
	check(!strcmp(b, "0"), "format 0", "%s", b);
}

static void test_lockdown(const char *tmp)
{
	char path[FT_PATH_MAX], buf[64], msg[FT_MSG_MAX];
	FILE *f;

	check(!ft_parse_lockdown("none [integrity] confidentiality", buf, sizeof(buf)) &&
	      !strcmp(buf, "integrity"), "lockdown parse integrity", "%s", buf);
	check(!ft_parse_lockdown("[none] integrity confidentiality", buf, sizeof(buf)) &&
	      !strcmp(buf, "none"), "lockdown parse none", "%s", buf);
	check(ft_parse_lockdown("none integrity", buf, sizeof(buf)) == -EBADMSG,
	      "lockdown parse junk", "accepted");

	snprintf(path, sizeof(path), "%s/sys/kernel/security", tmp);
	if (system("true") == 0) {
		char cmd[FT_PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
		if (system(cmd))
			check(false, "mkdir", "%s", cmd);
	}
	snprintf(path, sizeof(path), "%s/sys/kernel/security/lockdown", tmp);
	f = fopen(path, "w");
	if (!f) {
		check(false, "lockdown fixture", "%s", strerror(errno));
		return;
	}
	fputs("none [integrity] confidentiality\n", f);
	fclose(f);
	setenv("FOLIOTUNE_SYSROOT", tmp, 1);
	ft_explain_debugfs_errno(EPERM, "/d/foliotune/unmap_batch", msg, sizeof(msg));
	check(!strcmp(msg, "debugfs is locked down (lockdown=integrity): cannot access /d/foliotune/unmap_batch"),
	      "EPERM under lockdown", "%s", msg);
	f = fopen(path, "w");
	if (f) {
		fputs("[none] integrity confidentiality\n", f);
		fclose(f);
	}
	setenv("FOLIOTUNE_ASSUME_UID", "1000", 1);
	ft_explain_debugfs_errno(EACCES, "/d/x", msg, sizeof(msg));
	check(!strcmp(msg, "/d/x: Permission denied (are you root?)"),
	      "EACCES not root", "%s", msg);
	ft_explain_debugfs_errno(EPERM, "/d/x", msg, sizeof(msg));
	check(!strcmp(msg, "/d/x: Operation not permitted (are you root?)"),
	      "EPERM without lockdown", "%s", msg);
	setenv("FOLIOTUNE_ASSUME_UID", "0", 1);
	ft_explain_debugfs_errno(EACCES, "/d/x", msg, sizeof(msg));
	check(!strcmp(msg, "/d/x: Permission denied"), "EACCES as root", "%s", msg);
	unsetenv("FOLIOTUNE_ASSUME_UID");
	unsetenv("FOLIOTUNE_SYSROOT");
}

static void test_build(void)
{
	struct ft_build b;

	check(!ft_parse_build("release 6.12.117+deb12-amd64\nversion #1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1 (2025-01-01)\n", &b) &&
	      !strcmp(b.release, "6.12.117+deb12-amd64") &&
	      !strcmp(b.version, "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1 (2025-01-01)"),
	      "build file key lines", "'%s' '%s'", b.release, b.version);
	check(!ft_parse_build("release=6.12.117+deb12-amd64\n", &b) &&
	      !strcmp(b.release, "6.12.117+deb12-amd64") && !b.version[0],
	      "build file release= only", "'%s' '%s'", b.release, b.version);
	check(!ft_parse_build("6.12.117+deb12-amd64\n#1 SMP x\n", &b) &&
	      !strcmp(b.release, "6.12.117+deb12-amd64") && !strcmp(b.version, "#1 SMP x"),
	      "build file bare lines", "'%s' '%s'", b.release, b.version);
	check(ft_parse_build("\n\n", &b) == -EBADMSG, "build file empty", "accepted");
}

static void test_snapshot(void)
{
	struct ft_snapshot s;
	uint64_t v = 0;

	ft_snapshot_parse("a 1\nb   22\n\nbad\nc x\nd 18446744073709551615\n e 5 \nf 1 2\ng -3\n", &s);
	check(s.n == 5, "snapshot count", "%zu", s.n);
	check(ft_snapshot_lookup(&s, "b", 1, &v) && v == 22, "snapshot lookup hint", "%llu",
	      (unsigned long long)v);
	check(ft_snapshot_lookup(&s, "e", 0, &v) && v == 5, "snapshot lookup scan", "%llu",
	      (unsigned long long)v);
	check(ft_snapshot_lookup(&s, "d", 0, &v) && v == UINT64_MAX, "snapshot u64 max", "missing");
	check(ft_snapshot_lookup(&s, "g", 0, &v) && (int64_t)v == -3, "snapshot negative", "missing");
	check(!ft_snapshot_lookup(&s, "c", 0, &v), "snapshot junk skipped", "found");
	ft_snapshot_free(&s);
	ft_snapshot_parse("", &s);
	check(s.n == 0, "snapshot empty", "%zu", s.n);
	ft_snapshot_free(&s);
}

static void test_quote(void)
{
	char *a1[] = { "make", "-j8", "CFLAGS=-O2 -g", NULL };
	char *a2[] = { "sh", "-c", "echo 'hi'; exit 3", NULL };
	char *a3[] = { "printf", "a\nb\t", "", NULL };
	char buf[256];

	ft_quote_command(a1, buf, sizeof(buf));
	check(!strcmp(buf, "make -j8 'CFLAGS=-O2 -g'"), "quote spaces", "%s", buf);
	ft_quote_command(a2, buf, sizeof(buf));
	check(!strcmp(buf, "sh -c 'echo '\\''hi'\\''; exit 3'"), "quote quotes", "%s", buf);
	ft_quote_command(a3, buf, sizeof(buf));
	check(!strcmp(buf, "printf $'a\\nb\\t' ''"), "quote control chars", "%s", buf);
	ft_quote_command(a1, buf, 8);
	check(strlen(buf) == 7, "quote truncates", "%s", buf);
}

static void test_record_roundtrip(void)
{
	struct ft_rec_knob knobs[] = { { "fault_around_mkold", "1", NULL } };
	struct ft_rec_knob sets[] = { { "fault_around_mkold", "1", "0" } };
	struct ft_rec_counter ctr[] = {
		{ "foliotune", "unmap_calls", 123 },
		{ "vmstat", "pgfault", -45 },
	};
	struct ft_record w = {
		.date = "2025-01-31T12:00:00Z", .kernel_release = "6.12.117+deb12-amd64",
		.kernel_version = "#1 SMP\nx", .module = "loaded", .label = "mk old",
		.command = "make -j8", .has_wall = true, .wall = 1.5,
		.exit_code = 3, .exit_signal = -1,
		.knobs = knobs, .nknobs = 1, .sets = sets, .nsets = 1,
		.counters = ctr, .ncounters = 2,
	};
	struct ft_record r;
	char *buf = NULL, msg[FT_MSG_MAX];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f) {
		check(false, "record roundtrip", "open_memstream");
		return;
	}
	ft_record_write(f, &w);
	fclose(f);
	check(strstr(buf, "# foliotune record v1\n") == buf, "record magic line", "%s", buf);
	check(strstr(buf, "kernel_version #1 SMP?x\n") != NULL, "record sanitises values", "%s", buf);
	check(strstr(buf, "counter vmstat pgfault -45\n") != NULL, "record counter line", "%s", buf);
	err = ft_record_parse("mem", buf, &r, msg, sizeof(msg));
	check(!err, "record parses", "%s", msg);
	if (!err) {
		check(r.version == 1 && r.has_wall && r.wall == 1.5 && r.exit_code == 3 &&
		      r.exit_signal == -1, "record header roundtrip", "v%d wall %f exit %d",
		      r.version, r.wall, r.exit_code);
		check(r.label && !strcmp(r.label, "mk old"), "record label with space", "%s",
		      r.label ? r.label : "(null)");
		check(r.ncounters == 2 && r.counters[1].delta == -45 &&
		      !strcmp(r.counters[0].source, "foliotune"), "record counters roundtrip",
		      "%zu", r.ncounters);
		check(r.nsets == 1 && !strcmp(r.sets[0].old, "0") && r.nknobs == 1,
		      "record settings roundtrip", "%zu %zu", r.nsets, r.nknobs);
		ft_record_free(&r);
	}
	free(buf);

	err = ft_record_parse("x", "hello\n", &r, msg, sizeof(msg));
	check(err == -EBADMSG && strstr(msg, "not a foliotune record"), "record bad magic", "%d %s", err, msg);
	err = ft_record_parse("x", "# foliotune record v2\n", &r, msg, sizeof(msg));
	check(err == -EPROTONOSUPPORT && strstr(msg, "v2 is newer"), "record newer version", "%d %s", err, msg);
	err = ft_record_parse("x", "# foliotune record v1\ncounter vmstat pgfault\n", &r, msg, sizeof(msg));
	check(err == -EBADMSG && strstr(msg, "x:2: malformed counter"), "record malformed counter", "%d %s", err, msg);
	err = ft_record_parse("x", "# foliotune record v1\ncounter vmstat pgfault 12x\n", &r, msg, sizeof(msg));
	check(err == -EBADMSG, "record junk delta", "%d %s", err, msg);
	err = ft_record_parse("x", "", &r, msg, sizeof(msg));
	check(err == -EBADMSG, "record empty", "%d %s", err, msg);
	err = ft_record_parse("x", "# foliotune record v1\nfuture_key 1 2 3\n# c\n\ncounter a b 1\n", &r, msg, sizeof(msg));
	check(!err && r.ncounters == 1, "record ignores unknown keys", "%d %s", err, msg);
	if (!err)
		ft_record_free(&r);
}

static void test_json(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer_t *jw;

	if (!f) {
		check(false, "json", "open_memstream");
		return;
	}
	jw = jsonw_new(f);
	jsonw_start_object(jw);
	jsonw_string_field(jw, "s", "a\"b\\c\n\t\x01\x7f\xc3\xa9\xff");
	jsonw_uint_field(jw, "u", UINT64_MAX);
	jsonw_int_field(jw, "i", INT64_MIN);
	jsonw_float_field_fmt(jw, "f", "%.1f", 1.25);
	jsonw_float_field_fmt(jw, "nan", "%.1f", 0.0 / 0.0);
	jsonw_name(jw, "a");
	jsonw_start_array(jw);
	jsonw_bool(jw, true);
	jsonw_null(jw);
	jsonw_start_object(jw);
	jsonw_end_object(jw);
	jsonw_end_array(jw);
	jsonw_end_object(jw);
	jsonw_start_object(jw);
	jsonw_name(jw, "open");
	jsonw_start_array(jw);
	jsonw_destroy(&jw);
	fclose(f);
	check(!strcmp(buf,
		      "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\xc3\xa9\\ufffd\","
		      "\"u\":18446744073709551615,\"i\":-9223372036854775808,"
		      "\"f\":1.2,\"nan\":null,\"a\":[true,null,{}]}\n"
		      "{\"open\":[]}\n"),
	      "json writer", "%s", buf);
	free(buf);
}

/*
 * "unit_test stats": for each line of stdin (a sample of paired
 * differences), print what stats.c makes of it; stats_ref.py compares that
 * with scipy and numpy.
 */
static int stats_main(void)
{
	char line[8192], *s, *end;
	double d[256];
	size_t n;

	while (fgets(line, sizeof(line), stdin)) {
		struct ft_summary sm;
		struct ft_wilcoxon w;
		struct ft_hl hl;

		for (n = 0, s = line; n < 256; s = end) {
			d[n] = strtod(s, &end);
			if (end == s)
				break;
			n++;
		}
		ft_summarise(d, n, &sm);
		ft_wilcoxon(d, n, &w);
		ft_hodges_lehmann(d, n, 0.95, &hl);
		printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %zu %zu %d %.17g %.17g %.17g %.17g\n",
		       sm.median, sm.q1, sm.q3, sm.min, sm.max, w.w_plus, w.p, w.p_min,
		       w.n, w.nzero, w.ties, hl.est, hl.lo, hl.hi, hl.level);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/foliotune-unit.XXXXXX";

	if (argc == 2 && !strcmp(argv[1], "stats"))
		return stats_main();
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_units();
	test_bools();
	test_values();
	test_knobs();
	test_format_bytes();
	test_lockdown(tmp);
	test_build();
	test_snapshot();
	test_quote();
	test_record_roundtrip();
	test_json();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", tmp);
	}
	printf("# unit: %d tests, %d failed\n", count, failures);
	return failures ? 1 : 0;
}
