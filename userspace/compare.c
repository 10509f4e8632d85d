// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * compare.c - side-by-side table of records; the first one is the baseline.
 * It warns when the records were made under different conditions (their
 * env lines), and points to ab for two single runs.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_report.h"
#include "commands.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "options.h"
#include "output.h"
#include "record_file.h"
#include "xalloc.h"

#define FT_MIN_VALUE_WIDTH 8

struct ft_row {
	const char *source;
	const char *name;
	int64_t *val;
	bool *present;
	int rank;
	size_t order;
	bool dup_name;
};

struct ft_cmp {
	struct ft_record *rec;
	size_t nrec;
	char **labels;
	struct ft_row *rows;
	size_t nrows, cap;
	/* settings rows */
	const char **knob_names;
	size_t nknob_names;
	/* env keys whose values differ between records that have them */
	const char **env_diff;
	size_t nenv_diff;
};

static int ft_source_rank(const char *source)
{
	if (!strcmp(source, FOLIOTUNE_NAME))
		return 0;
	if (!strcmp(source, "vmstat"))
		return 1;
	return 2;
}

static struct ft_row *ft_row_get(struct ft_cmp *c, const char *source,
				 const char *name)
{
	struct ft_row *r;
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name) && !strcmp(c->rows[i].source, source))
			return &c->rows[i];
	if (c->nrows == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->rows = ft_xrealloc(c->rows, c->cap * sizeof(*c->rows));
	}
	r = &c->rows[c->nrows];
	memset(r, 0, sizeof(*r));
	r->source = source;
	r->name = name;
	r->val = ft_xcalloc(c->nrec, sizeof(*r->val));
	r->present = ft_xcalloc(c->nrec, sizeof(*r->present));
	r->rank = ft_source_rank(source);
	r->order = c->nrows++;
	return r;
}

static int ft_row_cmp(const void *a, const void *b)
{
	const struct ft_row *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->rank == 2) {
		int s = strcmp(x->source, y->source);

		if (s)
			return s;
	}
	return x->order < y->order ? -1 : x->order > y->order;
}

static const char *ft_basename(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void ft_make_labels(struct ft_cmp *c)
{
	size_t i, j, k;
	bool unique = true;

	c->labels = ft_xcalloc(c->nrec, sizeof(*c->labels));
	for (i = 0; i < c->nrec; i++) {
		const struct ft_record *r = &c->rec[i];
		char buf[1024];
		size_t pos = 0;

		if (r->label && *r->label) {
			c->labels[i] = ft_strdup(r->label);
			continue;
		}
		if (!r->nsets) {
			c->labels[i] = ft_strdup("stock");
			continue;
		}
		buf[0] = '\0';
		for (k = 0; k < r->nsets; k++) {
			int n = snprintf(buf + pos, sizeof(buf) - pos, "%s%s=%s", k ? "," : "",
					 r->sets[k].name, r->sets[k].value);

			if (n < 0 || (size_t)n >= sizeof(buf) - pos)
				break;
			pos += (size_t)n;
		}
		c->labels[i] = ft_strdup(buf);
	}
	for (i = 0; i < c->nrec && unique; i++)
		for (j = i + 1; j < c->nrec; j++)
			if (!strcmp(c->labels[i], c->labels[j]))
				unique = false;
	if (unique)
		return;
	for (i = 0; i < c->nrec; i++) {
		char *b = ft_strdup(ft_basename(c->rec[i].path));
		size_t n = strlen(b);

		if (n > 4 && !strcmp(b + n - 4, ".txt"))
			b[n - 4] = '\0';
		free(c->labels[i]);
		c->labels[i] = b;
	}
}

static const char *ft_knob_value_of(const struct ft_record *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nknobs; i++)
		if (!strcmp(r->knobs[i].name, name))
			return r->knobs[i].value;
	for (i = 0; i < r->nsets; i++)
		if (!strcmp(r->sets[i].name, name))
			return r->sets[i].value;
	return NULL;
}

static bool ft_knob_was_set(const struct ft_record *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nsets; i++)
		if (!strcmp(r->sets[i].name, name))
			return true;
	return false;
}

static bool ft_name_listed(const char **v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/* Knobs worth a row: set in some record, or differing between records. */
static void ft_pick_knobs(struct ft_cmp *c)
{
	const char **all = NULL;
	size_t nall = 0, i, j, k;

	for (i = 0; i < ft_nr_knobs; i++) {
		all = ft_xrealloc(all, (nall + 1) * sizeof(*all));
		all[nall++] = ft_knobs[i].name;
	}
	for (i = 0; i < c->nrec; i++) {
		const struct ft_record *r = &c->rec[i];

		for (k = 0; k < r->nknobs + r->nsets; k++) {
			const char *n = k < r->nknobs ? r->knobs[k].name :
							r->sets[k - r->nknobs].name;

			if (!ft_name_listed(all, nall, n)) {
				all = ft_xrealloc(all, (nall + 1) * sizeof(*all));
				all[nall++] = n;
			}
		}
	}
	c->knob_names = ft_xrealloc(NULL, nall * sizeof(*c->knob_names));
	for (k = 0; k < nall; k++) {
		bool show = false;
		const char *v0 = ft_knob_value_of(&c->rec[0], all[k]);

		for (i = 0; i < c->nrec; i++) {
			const char *v = ft_knob_value_of(&c->rec[i], all[k]);

			if (ft_knob_was_set(&c->rec[i], all[k]))
				show = true;
			if ((v == NULL) != (v0 == NULL) || (v && v0 && strcmp(v, v0)))
				show = true;
		}
		/* a knob no record knows about is noise */
		for (i = 0, j = 0; i < c->nrec; i++)
			j += ft_knob_value_of(&c->rec[i], all[k]) != NULL;
		if (show && j)
			c->knob_names[c->nknob_names++] = all[k];
	}
	free(all);
}

static const char *ft_env_value(const struct ft_record *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nenv; i++)
		if (!strcmp(r->env[i].name, key))
			return r->env[i].value;
	return NULL;
}

/*
 * The env keys whose values differ between the records (those written
 * before env lines existed have none and are left out): the machine, the
 * kernel and the knobs no record sets.  The load average differs always;
 * a knob a record sets is what is being compared.
 */
static void ft_env_differences(struct ft_cmp *c)
{
	size_t i, j, k;

	for (i = 0; i < c->nrec; i++) {
		for (k = 0; k < c->rec[i].nenv; k++) {
			const char *key = c->rec[i].env[k].name, *v0 = NULL;
			bool differ = false, set = false;

			if (!strncmp(key, "loadavg", 7) ||
			    ft_name_listed(c->env_diff, c->nenv_diff, key))
				continue;
			for (j = 0; j < c->nrec; j++) {
				const char *v = ft_env_value(&c->rec[j], key);

				if (!strncmp(key, "knob ", 5) && ft_knob_was_set(&c->rec[j], key + 5))
					set = true;
				if (!c->rec[j].nenv)
					continue;
				if (!v0)
					v0 = v ? v : "";
				else if (strcmp(v0, v ? v : ""))
					differ = true;
			}
			if (!differ || set)
				continue;
			c->env_diff = ft_xrealloc(c->env_diff, (c->nenv_diff + 1) * sizeof(*c->env_diff));
			c->env_diff[c->nenv_diff++] = key;
		}
	}
}

/* One warning line per differing env key: each record's value. */
static void ft_env_warn(const struct ft_cmp *c)
{
	char line[FT_MSG_MAX];
	size_t i, j, pos;

	for (i = 0; i < c->nenv_diff; i++) {
		pos = 0;
		line[0] = '\0';
		for (j = 0; j < c->nrec && pos < sizeof(line); j++) {
			const char *v = ft_env_value(&c->rec[j], c->env_diff[i]);

			if (!c->rec[j].nenv)
				continue;
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, "%s%s (%s)",
						pos ? ", " : "", v ? v : "-", c->labels[j]);
		}
		ft_warn("the records differ in env %s: %s", c->env_diff[i], line);
	}
	if (c->nenv_diff)
		ft_warn("their figures may differ for that reason, not for the settings compared");
}

static bool ft_pct(int64_t base, int64_t v, double *out)
{
	double p;

	if (base == 0)
		return false;
	p = ((double)v - (double)base) / fabs((double)base) * 100.0;
	if (fabs(p) < 0.05)
		p = 0.0;
	*out = p;
	return true;
}

static bool ft_pct_double(double base, double v, double *out)
{
	double p;

	if (base == 0 || !isfinite(base) || !isfinite(v))
		return false;
	p = (v - base) / fabs(base) * 100.0;
	if (fabs(p) < 0.05)
		p = 0.0;
	*out = p;
	return true;
}

/* ---- text table ---- */

struct ft_cell {
	char val[64];
	char pct[32];
};

struct ft_table {
	size_t ncols, nrows, cap;
	char **names;
	struct ft_cell **cells;		/* [row][col] */
	bool *blank_before;
};

static struct ft_cell *ft_table_row(struct ft_table *t, const char *name,
				    bool blank_before)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->names = ft_xrealloc(t->names, t->cap * sizeof(*t->names));
		t->cells = ft_xrealloc(t->cells, t->cap * sizeof(*t->cells));
		t->blank_before = ft_xrealloc(t->blank_before, t->cap * sizeof(bool));
	}
	t->names[t->nrows] = ft_strdup(name);
	t->cells[t->nrows] = ft_xcalloc(t->ncols, sizeof(struct ft_cell));
	t->blank_before[t->nrows] = blank_before;
	return t->cells[t->nrows++];
}

static void ft_fmt_pct(char *buf, size_t len, bool ok, double p, bool differs)
{
	if (ok)
		snprintf(buf, len, "(%+.1f%%)", p);
	else
		snprintf(buf, len, "%s", differs ? "(n/a)" : "");
}

static void ft_table_print(const struct ft_table *t, char **labels)
{
	size_t namew = 0, *vw, *pw, r, j, n;

	vw = ft_xcalloc(t->ncols, sizeof(*vw));
	pw = ft_xcalloc(t->ncols, sizeof(*pw));
	for (r = 0; r < t->nrows; r++) {
		n = strlen(t->names[r]);
		if (n > namew)
			namew = n;
	}
	namew += 2;
	if (namew < 24)
		namew = 24;
	for (j = 0; j < t->ncols; j++) {
		vw[j] = strlen(labels[j]);
		if (vw[j] < FT_MIN_VALUE_WIDTH)
			vw[j] = FT_MIN_VALUE_WIDTH;
		for (r = 0; r < t->nrows; r++) {
			n = strlen(t->cells[r][j].val);
			if (n > vw[j])
				vw[j] = n;
			n = strlen(t->cells[r][j].pct);
			if (n > pw[j])
				pw[j] = n;
		}
	}
	for (r = 0; r <= t->nrows; r++) {
		char line[8192];
		size_t pos = 0;
		int k;

		if (r > 0 && t->blank_before[r - 1])
			putchar('\n');
		k = snprintf(line, sizeof(line), "%-*s", (int)namew,
			     r ? t->names[r - 1] : "");
		pos = k > 0 ? (size_t)k : 0;
		for (j = 0; j < t->ncols && pos < sizeof(line); j++) {
			const char *v = r ? t->cells[r - 1][j].val : labels[j];
			const char *p = r ? t->cells[r - 1][j].pct : "";

			k = snprintf(line + pos, sizeof(line) - pos, "%s%*s",
				     j ? "    " : "", (int)vw[j], v);
			if (k < 0)
				break;
			pos += (size_t)k;
			if (pw[j] && pos < sizeof(line)) {
				k = snprintf(line + pos, sizeof(line) - pos, "  %-*s",
					     (int)pw[j], p);
				if (k < 0)
					break;
				pos += (size_t)k;
			}
		}
		if (pos >= sizeof(line))
			pos = sizeof(line) - 1;
		line[pos] = '\0';
		ft_rtrim(line);
		printf("%s\n", line);
	}
	free(vw);
	free(pw);
}

static void ft_table_free(struct ft_table *t)
{
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		free(t->names[r]);
		free(t->cells[r]);
	}
	free(t->names);
	free(t->cells);
	free(t->blank_before);
}

static const char *ft_display_name(const struct ft_row *row, char *buf, size_t len)
{
	if (!row->dup_name)
		return row->name;
	snprintf(buf, len, "%s:%s", row->source, row->name);
	return buf;
}

static void ft_compare_text(struct ft_cmp *c, struct ft_row **shown, size_t nshown,
			    const char *only)
{
	struct ft_table t = { .ncols = c->nrec };
	struct ft_cell *cell;
	char name[512];
	size_t i, j;
	bool any_wall = false, any_exit = false;
	double p = 0;

	for (j = 0; j < c->nrec; j++) {
		any_wall |= c->rec[j].has_wall;
		any_exit |= c->rec[j].exit_code >= 0 || c->rec[j].exit_signal >= 0;
	}
	if (any_wall) {
		cell = ft_table_row(&t, "wall_seconds", false);
		for (j = 0; j < c->nrec; j++) {
			const struct ft_record *r = &c->rec[j];

			if (!r->has_wall) {
				snprintf(cell[j].val, sizeof(cell[j].val), "-");
				continue;
			}
			snprintf(cell[j].val, sizeof(cell[j].val), "%.2f", r->wall);
			if (j && c->rec[0].has_wall) {
				bool ok = ft_pct_double(c->rec[0].wall, r->wall, &p);

				ft_fmt_pct(cell[j].pct, sizeof(cell[j].pct), ok, p,
					   r->wall != c->rec[0].wall);
			}
		}
	}
	if (any_exit) {
		cell = ft_table_row(&t, "exit", false);
		for (j = 0; j < c->nrec; j++) {
			const struct ft_record *r = &c->rec[j];

			if (r->exit_signal >= 0)
				snprintf(cell[j].val, sizeof(cell[j].val), "signal %d",
					 r->exit_signal);
			else if (r->exit_code >= 0)
				snprintf(cell[j].val, sizeof(cell[j].val), "%d", r->exit_code);
			else
				snprintf(cell[j].val, sizeof(cell[j].val), "-");
		}
	}
	for (i = 0; i < c->nknob_names; i++) {
		cell = ft_table_row(&t, c->knob_names[i], false);
		for (j = 0; j < c->nrec; j++) {
			const char *v = ft_knob_value_of(&c->rec[j], c->knob_names[i]);

			snprintf(cell[j].val, sizeof(cell[j].val), "%s", v ? v : "-");
		}
	}
	for (i = 0; i < nshown; i++) {
		const struct ft_row *row = shown[i];

		cell = ft_table_row(&t, ft_display_name(row, name, sizeof(name)),
				    i == 0 && t.nrows > 0);
		for (j = 0; j < c->nrec; j++) {
			if (!row->present[j]) {
				snprintf(cell[j].val, sizeof(cell[j].val), "-");
				continue;
			}
			snprintf(cell[j].val, sizeof(cell[j].val), "%" PRId64, row->val[j]);
			if (j && row->present[0]) {
				bool ok = ft_pct(row->val[0], row->val[j], &p);

				ft_fmt_pct(cell[j].pct, sizeof(cell[j].pct), ok, p,
					   row->val[j] != row->val[0]);
			}
		}
	}
	ft_table_print(&t, c->labels);
	if (!nshown && only)
		printf("\n(no counter matching --only '%s' moved)\n", only);
	else if (!nshown)
		printf("\n(no counter moved)\n");
	ft_table_free(&t);
}

static void ft_json_knob_str(const char *v)
{
	char *end;
	unsigned long long x;

	if (!v) {
		jsonw_null(ft_jw);
		return;
	}
	errno = 0;
	x = strtoull(v, &end, 10);
	if (*v >= '0' && *v <= '9' && !*end && !errno)
		jsonw_uint(ft_jw, x);
	else
		jsonw_string(ft_jw, v);
}

static void ft_compare_json(struct ft_cmp *c, struct ft_row **shown, size_t nshown)
{
	json_writer_t *jw = ft_jw;
	size_t i, j;
	double p;

	jsonw_start_object(jw);
	jsonw_name(jw, "records");
	jsonw_start_array(jw);
	for (j = 0; j < c->nrec; j++) {
		const struct ft_record *r = &c->rec[j];

		jsonw_start_object(jw);
		jsonw_string_field(jw, "file", r->path);
		jsonw_string_field(jw, "label", c->labels[j]);
		jsonw_string_or_null_field(jw, "date", r->date);
		jsonw_string_or_null_field(jw, "kernel_release", r->kernel_release);
		jsonw_string_or_null_field(jw, "command", r->command);
		jsonw_string_or_null_field(jw, "module", r->module);
		if (r->has_wall)
			jsonw_float_field_fmt(jw, "wall_seconds", "%.6f", r->wall);
		else
			jsonw_null_field(jw, "wall_seconds");
		jsonw_int_or_null_field(jw, "exit_code", r->exit_code);
		jsonw_int_or_null_field(jw, "exit_signal", r->exit_signal);
		jsonw_name(jw, "settings");
		jsonw_start_object(jw);
		for (i = 0; i < r->nsets; i++) {
			jsonw_name(jw, r->sets[i].name);
			ft_json_knob_str(r->sets[i].value);
		}
		jsonw_end_object(jw);
		jsonw_name(jw, "knobs");
		jsonw_start_object(jw);
		for (i = 0; i < r->nknobs; i++) {
			jsonw_name(jw, r->knobs[i].name);
			ft_json_knob_str(r->knobs[i].value);
		}
		jsonw_end_object(jw);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);

	jsonw_name(jw, "settings");
	jsonw_start_array(jw);
	for (i = 0; i < c->nknob_names; i++) {
		jsonw_start_object(jw);
		jsonw_string_field(jw, "name", c->knob_names[i]);
		jsonw_name(jw, "values");
		jsonw_start_array(jw);
		for (j = 0; j < c->nrec; j++)
			ft_json_knob_str(ft_knob_value_of(&c->rec[j], c->knob_names[i]));
		jsonw_end_array(jw);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);

	jsonw_name(jw, "env_differences");
	jsonw_start_array(jw);
	for (i = 0; i < c->nenv_diff; i++) {
		jsonw_start_object(jw);
		jsonw_string_field(jw, "key", c->env_diff[i]);
		jsonw_name(jw, "values");
		jsonw_start_array(jw);
		for (j = 0; j < c->nrec; j++) {
			const char *v = ft_env_value(&c->rec[j], c->env_diff[i]);

			v ? jsonw_string(jw, v) : jsonw_null(jw);
		}
		jsonw_end_array(jw);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);

	jsonw_name(jw, "counters");
	jsonw_start_array(jw);
	for (i = 0; i < nshown; i++) {
		const struct ft_row *row = shown[i];

		jsonw_start_object(jw);
		jsonw_string_field(jw, "source", row->source);
		jsonw_string_field(jw, "name", row->name);
		jsonw_name(jw, "values");
		jsonw_start_array(jw);
		for (j = 0; j < c->nrec; j++)
			row->present[j] ? jsonw_int(jw, row->val[j]) : jsonw_null(jw);
		jsonw_end_array(jw);
		jsonw_name(jw, "change_pct");
		jsonw_start_array(jw);
		for (j = 0; j < c->nrec; j++) {
			if (j && row->present[0] && row->present[j] &&
			    ft_pct(row->val[0], row->val[j], &p))
				jsonw_float_fmt(jw, "%.1f", p);
			else
				jsonw_null(jw);
		}
		jsonw_end_array(jw);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_end_object(jw);
}

static const struct option ft_compare_opts[] = {
	{ "only", required_argument, NULL, 'O' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int ft_cmd_compare(int argc, char **argv)
{
	struct ft_cmp c = { 0 };
	struct ft_row **shown = NULL;
	const char *only = NULL;
	char msg[FT_MSG_MAX];
	size_t i, j, k, nshown = 0, nmatch = 0;
	regex_t re;
	int ch, ret = FT_EXIT_OK, err;

	while ((ch = getopt_long(argc, argv, ":jh", ft_compare_opts, NULL)) != -1) {
		if (ch == 'O') {
			only = optarg;
			continue;
		}
		ret = ft_getopt_common(ch, argc, argv, "compare");
		if (ret >= 0)
			return ret;
	}
	ft_set_json(ft_json_requested);
	/* an ab file holds its own A and B runs: its report, with the spread */
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		if (!ft_ab_sniff(argv[i]))
			continue;
		if (argc - optind > 1 || only)
			return ft_usage_error(EINVAL, "compare: an ab file (%s) is compared alone, without --only",
					      argv[i]);
		return ft_ab_report_file(argv[i]);
	}
	if (argc - optind < 2)
		return ft_usage_error(EINVAL, "compare: need at least two record files, or one ab file");
	if (only) {
		err = regcomp(&re, only, REG_EXTENDED | REG_NOSUB);
		if (err) {
			regerror(err, &re, msg, sizeof(msg));
			regfree(&re);
			return ft_usage_error(EINVAL, "invalid --only regex '%s': %s", only, msg);
		}
	}
	c.nrec = (size_t)(argc - optind);
	c.rec = ft_xcalloc(c.nrec, sizeof(*c.rec));
	for (j = 0; j < c.nrec; j++) {
		err = ft_record_load(argv[optind + (int)j], &c.rec[j], msg, sizeof(msg));
		if (err) {
			ret = ft_runtime_error(-err, "%s", msg);
			goto out;
		}
	}
	for (j = 0; j < c.nrec; j++) {
		for (k = 0; k < c.rec[j].ncounters; k++) {
			const struct ft_rec_counter *rc = &c.rec[j].counters[k];
			struct ft_row *row = ft_row_get(&c, rc->source, rc->name);

			row->val[j] = rc->delta;
			row->present[j] = true;
		}
	}
	if (c.nrows > 1)
		qsort(c.rows, c.nrows, sizeof(*c.rows), ft_row_cmp);
	shown = ft_xrealloc(NULL, (c.nrows ? c.nrows : 1) * sizeof(*shown));
	for (i = 0; i < c.nrows; i++) {
		bool moved = false;

		for (j = 0; j < c.nrec; j++)
			moved |= c.rows[i].present[j] && c.rows[i].val[j] != 0;
		if (only && regexec(&re, c.rows[i].name, 0, NULL, 0))
			continue;
		nmatch++;
		if (!moved)
			continue;
		shown[nshown++] = &c.rows[i];
	}
	/* a REGEX that names no counter is a mistake, not an empty result */
	if (only && !nmatch) {
		ret = ft_usage_error(EINVAL, "compare: --only '%s' matches no counter of these records",
				     only);
		goto out;
	}
	for (i = 0; i < nshown; i++)
		for (k = 0; k < nshown; k++)
			if (i != k && !strcmp(shown[i]->name, shown[k]->name))
				shown[i]->dup_name = true;
	ft_make_labels(&c);
	ft_pick_knobs(&c);
	ft_env_differences(&c);
	ft_env_warn(&c);
	if (ft_json)
		ft_compare_json(&c, shown, nshown);
	else
		ft_compare_text(&c, shown, nshown, only);
	if (c.nrec == 2)
		ft_note("one run each shows no spread: whether B differs from A is what '%s ab' answers (pairs of runs, with statistics)",
			ft_prog);
out:
	if (only)
		regfree(&re);
	free(shown);
	for (i = 0; i < c.nrows; i++) {
		free(c.rows[i].val);
		free(c.rows[i].present);
	}
	free(c.rows);
	if (c.labels)
		for (j = 0; j < c.nrec; j++)
			free(c.labels[j]);
	free(c.labels);
	free(c.knob_names);
	free(c.env_diff);
	for (j = 0; j < c.nrec; j++)
		ft_record_free(&c.rec[j]);
	free(c.rec);
	return ret;
}
