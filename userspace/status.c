// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * status.c - the status command: kernel build, module, livepatch, knobs.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_file.h"
#include "build_info.h"
#include "commands.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "module_path.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "sysinfo.h"
#include "verified.h"
#include "xalloc.h"

/* Optional debugfs file of the auto-tuner (free-form text). */
#ifndef FOLIOTUNE_AUTO_STATE_FILE
#define FOLIOTUNE_AUTO_STATE_FILE "fault_around_auto_state"
#endif

struct ft_func {
	char name[256];
	long sympos;
};

struct ft_object {
	char name[256];
	int patched;		/* -1 unknown */
	struct ft_func *funcs;
	size_t nfuncs;
};

struct ft_status {
	char release[256], version[512];
	struct ft_build expect;
	bool expect_from_module, supported;
	char why[FT_MSG_MAX];		/* unsupported: why, and the next step */
	char verified[FT_MSG_MAX];	/* in the tree or locally (which machine, when); "" unknown */
	bool loaded;
	char initstate[32];
	bool lp_registered;
	long long lp_enabled, lp_transition;	/* -1 unknown */
	struct ft_object *objs;
	size_t nobjs;
	char dir[FT_PATH_MAX];
	bool debugfs_ok;
	char debugfs_msg[FT_MSG_MAX];
	struct ft_knob_value values[FT_NR_KNOBS];
	int knob_err[FT_NR_KNOBS];	/* 0 or errno */
	char *auto_state;
	char lockdown[64];		/* "none", "integrity", ...; "" unknown */
};

/* Locked down and foliotune's knobs cannot be used: status exits 2. */
static bool ft_status_locked_out(const struct ft_status *st)
{
	size_t i;

	if (!st->lockdown[0] || !strcmp(st->lockdown, "none"))
		return false;
	if (!st->debugfs_ok)
		return true;
	for (i = 0; i < ft_nr_knobs; i++)
		if (st->knob_err[i] == EPERM)
			return true;
	return false;
}

static int ft_name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted names of the subdirectories of path. */
static char **ft_subdirs(const char *path, size_t *n)
{
	char p[FT_PATH_MAX], **v = NULL;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	*n = 0;
	d = opendir(path);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (ft_join(p, sizeof(p), path, de->d_name) || !ft_is_dir(p))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			v = ft_xrealloc(v, cap * sizeof(*v));
		}
		v[(*n)++] = ft_strdup(de->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof(*v), ft_name_cmp);
	return v;
}

static void ft_free_names(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void ft_status_livepatch(struct ft_status *st)
{
	char lp[FT_PATH_MAX], p[FT_PATH_MAX], **objs, **funcs;
	size_t nobj, nf, i, j;
	long long v;

	st->lp_enabled = st->lp_transition = -1;
	if (ft_livepatch_path(lp, sizeof(lp), NULL) || !ft_is_dir(lp))
		return;
	st->lp_registered = true;
	if (!ft_join(p, sizeof(p), lp, "enabled") && !ft_read_int(p, &v))
		st->lp_enabled = v;
	if (!ft_join(p, sizeof(p), lp, "transition") && !ft_read_int(p, &v))
		st->lp_transition = v;
	objs = ft_subdirs(lp, &nobj);
	st->objs = ft_xcalloc(nobj, sizeof(*st->objs));
	for (i = 0; i < nobj; i++) {
		struct ft_object *o = &st->objs[st->nobjs++];
		char op[FT_PATH_MAX];

		snprintf(o->name, sizeof(o->name), "%s", objs[i]);
		o->patched = -1;
		if (ft_join(op, sizeof(op), lp, objs[i]))
			continue;
		if (!ft_join(p, sizeof(p), op, "patched") && !ft_read_int(p, &v))
			o->patched = (int)v;
		funcs = ft_subdirs(op, &nf);
		o->funcs = ft_xcalloc(nf, sizeof(*o->funcs));
		for (j = 0; j < nf; j++) {
			struct ft_func *f = &o->funcs[o->nfuncs++];
			char *comma;

			snprintf(f->name, sizeof(f->name), "%s", funcs[j]);
			f->sympos = -1;
			comma = strrchr(f->name, ',');
			if (comma) {
				*comma = '\0';
				f->sympos = strtol(comma + 1, NULL, 10);
			}
		}
		ft_free_names(funcs, nf);
	}
	ft_free_names(objs, nobj);
}

static void ft_status_collect(struct ft_status *st)
{
	char p[FT_PATH_MAX], *build;
	size_t i;
	int err;

	if (ft_kernel_release(st->release, sizeof(st->release)))
		snprintf(st->release, sizeof(st->release), "unknown");
	if (ft_kernel_version(st->version, sizeof(st->version)))
		snprintf(st->version, sizeof(st->version), "unknown");
	st->loaded = ft_module_loaded();
	if (st->loaded && !ft_path(p, sizeof(p), "/sys/module/%s/initstate", FOLIOTUNE_NAME))
		ft_read_line(p, st->initstate, sizeof(st->initstate));
	ft_status_livepatch(st);
	ft_lockdown_mode(st->lockdown, sizeof(st->lockdown));

	err = ft_find_debugfs_dir(st->dir, sizeof(st->dir), st->debugfs_msg,
				  sizeof(st->debugfs_msg));
	st->debugfs_ok = !err;
	if (st->debugfs_ok) {
		for (i = 0; i < ft_nr_knobs; i++) {
			err = ft_knob_read(st->dir, &ft_knobs[i], &st->values[i]);
			st->knob_err[i] = -err;
		}
		if (!ft_join(p, sizeof(p), st->dir, FOLIOTUNE_BUILD_FILE) &&
		    !ft_read_file(p, &build, NULL)) {
			if (!ft_parse_build(build, &st->expect))
				st->expect_from_module = true;
			free(build);
		}
		if (!ft_join(p, sizeof(p), st->dir, FOLIOTUNE_AUTO_STATE_FILE) &&
		    !ft_read_file(p, &st->auto_state, NULL))
			ft_rtrim(st->auto_state);
	}
	if (st->expect_from_module) {
		st->supported = !strcmp(st->release, st->expect.release) &&
				(!st->expect.version[0] ||
				 !strcmp(st->version, st->expect.version));
		if (!st->supported)
			ft_msg(st->why, sizeof(st->why),
			       "the loaded module was verified against %s%s%s",
			       st->expect.release, st->expect.version[0] ? " " : "",
			       st->expect.version);
		ft_msg(st->verified, sizeof(st->verified), "%s", st->expect.verified);
	} else {
		snprintf(st->expect.release, sizeof(st->expect.release), "%s", FOLIOTUNE_KVER);
		st->expect.version[0] = '\0';
		st->supported = ft_support_check(st->release, st->version, st->why,
						 sizeof(st->why));
		if (st->supported)
			ft_support_where(st->release, st->version, st->verified,
					 sizeof(st->verified));
	}
	/* not "try load": loading cannot help on this kernel */
	if (!st->debugfs_ok && !st->loaded && !st->supported)
		ft_msg(st->debugfs_msg, sizeof(st->debugfs_msg),
		       "the %s module is not loaded and cannot be: this kernel is not supported",
		       FOLIOTUNE_NAME);
}

static void ft_status_free(struct ft_status *st)
{
	size_t i;

	for (i = 0; i < st->nobjs; i++)
		free(st->objs[i].funcs);
	free(st->objs);
	free(st->auto_state);
}

static const char *ft_transition_text(const struct ft_status *st)
{
	if (st->lp_transition < 0)
		return "transition state unknown";
	if (st->lp_transition == 0)
		return "no transition in progress";
	return st->lp_enabled == 0 ? "transition in progress (unpatching)"
				   : "transition in progress (patching)";
}

/*
 * The arm an arm knob's value names (FOLIOTUNE_ARMS), or NULL for another
 * knob; on Linux 6.12 the kernel's own code is one PTE at a time.
 */
static const char *ft_arm_text(const struct ft_status *st, const char *knob,
			       uint64_t value)
{
#define FT_ARM_KNOB(name) #name,
	static const char *const arm_knobs[] = { FOLIOTUNE_ARM_KNOBS(FT_ARM_KNOB) };
#undef FT_ARM_KNOB
	size_t i;

	for (i = 0; i < sizeof(arm_knobs) / sizeof(arm_knobs[0]); i++)
		if (!strcmp(arm_knobs[i], knob))
			break;
	if (i == sizeof(arm_knobs) / sizeof(arm_knobs[0]))
		return NULL;
	if (value == FOLIOTUNE_ARM_KERNEL && !strncmp(st->release, "6.", 2))
		return "the kernel's own code: one PTE at a time on 6.12";
#define FT_ARM_CASE(v, name, what) if (value == (v)) return what;
	FOLIOTUNE_ARMS(FT_ARM_CASE)
#undef FT_ARM_CASE
	return "no such arm";
}

static void ft_status_json(const struct ft_status *st)
{
	json_writer_t *jw = ft_jw;
	size_t i, j;

	jsonw_start_object(jw);
	jsonw_name(jw, "kernel");
	jsonw_start_object(jw);
	jsonw_string_field(jw, "release", st->release);
	jsonw_string_field(jw, "version", st->version);
	jsonw_end_object(jw);
	jsonw_bool_field(jw, "supported", st->supported);
	if (st->supported)
		jsonw_null_field(jw, "next_step");
	else
		jsonw_string_field(jw, "next_step", st->why);
	jsonw_string_or_null_field(jw, "lockdown", st->lockdown[0] ? st->lockdown : NULL);
	jsonw_name(jw, "expected");
	jsonw_start_object(jw);
	jsonw_string_field(jw, "release", st->expect.release);
	jsonw_string_or_null_field(jw, "version", st->expect.version[0] ? st->expect.version : NULL);
	jsonw_string_field(jw, "source", st->expect_from_module ? "module" : "cli");
	jsonw_string_or_null_field(jw, "verified", st->verified[0] ? st->verified : NULL);
	jsonw_end_object(jw);

	jsonw_name(jw, "module");
	jsonw_start_object(jw);
	jsonw_bool_field(jw, "loaded", st->loaded);
	jsonw_string_or_null_field(jw, "initstate", st->initstate[0] ? st->initstate : NULL);
	jsonw_end_object(jw);

	jsonw_name(jw, "livepatch");
	jsonw_start_object(jw);
	jsonw_bool_field(jw, "registered", st->lp_registered);
	jsonw_bool_or_null_field(jw, "enabled", st->lp_enabled);
	jsonw_bool_or_null_field(jw, "transition", st->lp_transition);
	jsonw_name(jw, "objects");
	jsonw_start_array(jw);
	for (i = 0; i < st->nobjs; i++) {
		const struct ft_object *o = &st->objs[i];

		jsonw_start_object(jw);
		jsonw_string_field(jw, "name", o->name);
		jsonw_bool_or_null_field(jw, "patched", o->patched);
		jsonw_name(jw, "functions");
		jsonw_start_array(jw);
		for (j = 0; j < o->nfuncs; j++) {
			jsonw_start_object(jw);
			jsonw_string_field(jw, "name", o->funcs[j].name);
			jsonw_int_field(jw, "sympos", o->funcs[j].sympos);
			jsonw_end_object(jw);
		}
		jsonw_end_array(jw);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_end_object(jw);

	jsonw_name(jw, "debugfs");
	jsonw_start_object(jw);
	jsonw_string_field(jw, "path", st->dir);
	jsonw_bool_field(jw, "available", st->debugfs_ok);
	if (st->debugfs_ok)
		jsonw_null_field(jw, "error");
	else
		jsonw_string_field(jw, "error", st->debugfs_msg);
	jsonw_end_object(jw);

	jsonw_name(jw, "knobs");
	jsonw_start_array(jw);
	for (i = 0; i < ft_nr_knobs; i++) {
		const struct ft_knob *k = &ft_knobs[i];

		jsonw_start_object(jw);
		jsonw_string_field(jw, "name", k->name);
		jsonw_string_field(jw, "kind", k->kind_name);
		jsonw_string_field(jw, "unit", k->unit);
		if (!st->debugfs_ok) {
			jsonw_null_field(jw, "provided");
			jsonw_null_field(jw, "value");
		} else if (st->knob_err[i] == ENOENT) {
			jsonw_bool_field(jw, "provided", false);
			jsonw_null_field(jw, "value");
		} else if (st->knob_err[i]) {
			jsonw_bool_field(jw, "provided", true);
			jsonw_null_field(jw, "value");
			jsonw_string_field(jw, "error", strerror(st->knob_err[i]));
		} else {
			jsonw_bool_field(jw, "provided", true);
			if (st->values[i].numeric)
				jsonw_uint_field(jw, "value", st->values[i].value);
			else
				jsonw_string_field(jw, "value", st->values[i].text);
			if (st->values[i].numeric &&
			    ft_arm_text(st, k->name, st->values[i].value))
				jsonw_string_field(jw, "arm",
						   ft_arm_text(st, k->name, st->values[i].value));
		}
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_string_or_null_field(jw, "auto_tuner_state", st->auto_state);
	jsonw_end_object(jw);
}

static void ft_status_text(const struct ft_status *st)
{
	char human[32], path[FT_PATH_MAX], msg[FT_MSG_MAX];
	size_t i, j;

	printf("kernel release:   %s\n", st->release);
	printf("kernel version:   %s\n", st->version);
	if (st->supported && !st->expect_from_module &&
	    strcmp(st->release, st->expect.release))
		printf("supported:        yes (a verified build; this CLI was compiled for %s)\n",
		       st->expect.release);
	else if (st->supported)
		printf("supported:        yes (%s %s)\n",
		       st->expect_from_module ? "matches the module's build file:" :
						"matches the build this CLI was compiled for:",
		       st->expect.release);
	else
		printf("supported:        no: %s\n", st->why);
	if (st->verified[0])
		printf("verified:         %s\n", st->verified);
	if (st->lockdown[0] && strcmp(st->lockdown, "none"))
		printf("lockdown:         %s (unsigned modules refused, debugfs restricted)\n",
		       st->lockdown);
	if (st->loaded)
		printf("module:           loaded%s%s%s\n", st->initstate[0] ? " (" : "",
		       st->initstate, st->initstate[0] ? ")" : "");
	else
		printf("module:           not loaded\n");
	if (!st->lp_registered) {
		printf("livepatch:        not registered\n");
	} else {
		printf("livepatch:        %s, %s\n",
		       st->lp_enabled < 0 ? "state unknown" :
		       st->lp_enabled ? "enabled" : "disabled",
		       ft_transition_text(st));
		printf("patched functions:%s\n", st->nobjs ? "" : " none listed");
		for (i = 0; i < st->nobjs; i++) {
			const struct ft_object *o = &st->objs[i];

			for (j = 0; j < o->nfuncs; j++)
				printf("  %s: %s (sympos %ld)%s\n", o->name, o->funcs[j].name,
				       o->funcs[j].sympos,
				       o->patched < 0 ? "" :
				       o->patched ? "  patched" : "  not patched");
			if (!o->nfuncs)
				printf("  %s: no functions\n", o->name);
		}
	}
	if (!st->debugfs_ok)
		printf("knobs:            unavailable: %s\n", st->debugfs_msg);
	else
		printf("knobs:            %s\n", st->dir);
	for (i = 0; i < ft_nr_knobs; i++) {
		const struct ft_knob *k = &ft_knobs[i];
		const struct ft_knob_value *v = &st->values[i];

		if (!st->debugfs_ok) {
			printf("  %-30s %12s  %s\n", k->name, "-", k->unit);
		} else if (st->knob_err[i] == ENOENT) {
			printf("  %-30s %12s  not provided by this module\n", k->name, "-");
		} else if (st->knob_err[i]) {
			if (ft_join(path, sizeof(path), st->dir, k->name))
				path[0] = '\0';
			ft_explain_debugfs_errno(st->knob_err[i], path, msg, sizeof(msg));
			printf("  %-30s %12s  %s (%s)\n", k->name, "?", k->unit, msg);
		} else if (v->numeric && k->kind == FT_KIND_BYTES) {
			ft_format_bytes(v->value, human, sizeof(human));
			printf("  %-30s %12s  %s (%s)\n", k->name, v->text, k->unit, human);
		} else if (v->numeric && k->kind == FT_KIND_BOOL) {
			printf("  %-30s %12s  %s (%s)\n", k->name, v->text, k->unit,
			       v->value ? "on" : "off");
		} else if (v->numeric && ft_arm_text(st, k->name, v->value)) {
			printf("  %-30s %12s  %s (%s)\n", k->name, v->text, k->unit,
			       ft_arm_text(st, k->name, v->value));
		} else {
			printf("  %-30s %12s  %s\n", k->name, v->text, k->unit);
		}
	}
	if (st->auto_state) {
		const char *line = st->auto_state;

		printf("auto-tuner state:\n");
		while (*line) {
			const char *eol = strchr(line, '\n');
			int n = eol ? (int)(eol - line) : (int)strlen(line);

			printf("  %.*s\n", n, line);
			line += n + (eol ? 1 : 0);
		}
	}
}

int ft_cmd_status(int argc, char **argv)
{
	struct ft_status *st;
	int ret;

	ret = ft_getopt_plain(argc, argv, "status");
	if (ret >= 0)
		return ret;
	if (optind != argc)
		return ft_usage_error(EINVAL, "status: unexpected argument '%s'", argv[optind]);
	st = calloc(1, sizeof(*st));
	if (!st)
		return ft_runtime_error(ENOMEM, "out of memory");
	ft_status_collect(st);
	if (ft_json)
		ft_status_json(st);
	else
		ft_status_text(st);
	/* Printed in full, but an unsupported or locked-down kernel is a runtime error. */
	ret = !st->supported || ft_status_locked_out(st) ? FT_EXIT_RUNTIME : FT_EXIT_OK;
	ft_status_free(st);
	free(st);
	return ret;
}
