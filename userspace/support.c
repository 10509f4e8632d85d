// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * support.c - does foliotune support the running kernel?  The one support
 * check (scripts/kernels/support.sh says the same for make and the docs),
 * the module's own (module/build_check.c): the release and the version
 * string must both be those of a build in module/verified/, whose table
 * userspace/Makefile compiles in, or of the header make verify-kernel
 * wrote on this machine for the kernel it runs (FT_LOCAL_VERIFIED_DIR, or
 * $FT_STATE_DIR/verified as for make; read when asked: a kernel verified
 * after this CLI was built counts).  The only implementation: "foliotune
 * support" prints its verdict in one line for make, scripts/kernels/
 * support.sh and people, and lists the builds to boot; status, load, get,
 * set and counters use it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "options.h"
#include "output.h"
#include "path.h"
#include "support.h"
#include "sysinfo.h"

/* make verify-kernel's headers for the machine's own kernels (docs/own-box.md) */
#define FT_LOCAL_VERIFIED_DIR "/var/lib/foliotune/verified"

/*
 * The local header of rel: $FT_STATE_DIR/verified/REL.h when make
 * verify-kernel was told another state directory (FT_STATE_DIR, as make
 * and verify.sh read it), else FT_LOCAL_VERIFIED_DIR/REL.h under the
 * sysroot.  shown: the same path without the sysroot.
 */
static int ft_local_header_path(const char *rel, char *path, size_t plen,
				char *shown, size_t slen)
{
	const char *state = getenv("FT_STATE_DIR");

	if (state && *state) {
		ft_msg(shown, slen, "%s/verified/%s.h", state, rel);
		ft_msg(path, plen, "%s", shown);
		return strlen(path) + 1 >= plen ? -ENAMETOOLONG : 0;
	}
	ft_msg(shown, slen, "%s/%s.h", FT_LOCAL_VERIFIED_DIR, rel);
	return ft_path(path, plen, "%s/%s.h", FT_LOCAL_VERIFIED_DIR, rel);
}

static const struct {
	const char *release, *version;
} ft_verified[] = {
#include "verified.inc"
	{ NULL, NULL }
};

/*
 * Where a refusal sends the user for the builds to boot: this command,
 * which lists them one per line.  The same words wherever the line shows
 * (make's refusal, from support.sh, drops the list that follows it here).
 */
#define FT_LIST_HINT "'" FOLIOTUNE_NAME " support -l' lists them"

/* The verified builds to boot, one per line (the debug lane's left out). */
static void ft_verified_list(FILE *f)
{
	size_t i;

	for (i = 0; ft_verified[i].release; i++) {
		const char *r = ft_verified[i].release;
		size_t rl = strlen(r);

		if (rl > 8 && !strcmp(r + rl - 8, "-ftdebug"))
			continue;
		if (ft_json)
			jsonw_string(ft_jw, r);
		else
			fprintf(f, "%s\n", r);
	}
}

/* The string after "#define NAME" in a header, up to its closing quote. */
static bool ft_header_string(const char *h, const char *name, char *buf, size_t len)
{
	const char *p = h, *q, *e;
	size_t n = strlen(name);

	while ((p = strstr(p, "#define "))) {
		p += 8;
		if (strncmp(p, name, n) || !strchr(" \t", p[n]))
			continue;
		q = strchr(p + n, '"');
		e = q ? strchr(q + 1, '"') : NULL;
		if (!e)
			return false;
		ft_msg(buf, len, "%.*s", (int)(e - q - 1), q + 1);
		return true;
	}
	return false;
}

/*
 * This machine's own header for rel: 0 and its version and FT_VERIFIED_BY,
 * or -1 (none).
 */
static int ft_local_header(const char *rel, char *ver, size_t vlen, char *by, size_t blen,
			   char *shown, size_t slen)
{
	char path[FT_PATH_MAX], *h;
	int ret = -1;

	if (ft_local_header_path(rel, path, sizeof(path), shown, slen) ||
	    ft_read_file(path, &h, NULL))
		return -1;
	if (ft_header_string(h, "FT_VERIFIED_VERSION", ver, vlen)) {
		if (!ft_header_string(h, "FT_VERIFIED_BY", by, blen))
			ft_msg(by, blen, "(no machine named)");
		ret = 0;
	}
	free(h);
	return ret;
}

void ft_support_where(const char *rel, const char *ver, char *buf, size_t len)
{
	char v[512], by[512], path[FT_PATH_MAX];
	size_t i;

	buf[0] = '\0';
	for (i = 0; ft_verified[i].release; i++)
		if (!strcmp(rel, ft_verified[i].release)) {
			if (!strcmp(ver, ft_verified[i].version))
				ft_msg(buf, len, "in the tree (module/verified/%s.h)", rel);
			return;
		}
	if (!ft_local_header(rel, v, sizeof(v), by, sizeof(by), path, sizeof(path)) &&
	    !strcmp(ver, v))
		ft_msg(buf, len, "locally %s (%s)", by, path);
}

/*
 * One short line: why not, and the next step; the builds to boot are the
 * support command's list, not repeated here.
 */
bool ft_support_check(const char *rel, const char *ver, char *why, size_t len)
{
	char v[512], by[512], path[FT_PATH_MAX];
	size_t i;

	why[0] = '\0';
	if (strstr(rel, "-rt-") || strstr(ver, "PREEMPT_RT")) {
		ft_msg(why, len, "PREEMPT_RT kernels cannot be supported (the page-table lock sleeps there); boot a verified build (%s)",
		       FT_LIST_HINT);
		return false;
	}
	for (i = 0; ft_verified[i].release; i++) {
		if (strcmp(rel, ft_verified[i].release))
			continue;
		if (!strcmp(ver, ft_verified[i].version))
			return true;
		ft_msg(why, len, "%s was verified on version '%s', not this one; verify this build: make verify-kernel KVER=%s (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md)",
		       rel, ft_verified[i].version, rel);
		return false;
	}
	if (!ft_local_header(rel, v, sizeof(v), by, sizeof(by), path, sizeof(path))) {
		if (!strcmp(ver, v))
			return true;
		ft_msg(why, len, "%s was verified on version '%s', not this one; verify this build again: sudo FT_TEST_BOX=1 make verify-kernel (docs/own-box.md)",
		       path, v);
		return false;
	}
	if (!strncmp(rel, "6.12.", 5) && strstr(rel, "+deb1") && strstr(rel, "-amd64"))
		ft_msg(why, len, "this build is not verified; verify it: make verify-kernel KVER=%s (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md), or boot a verified build (%s)",
		       rel, FT_LIST_HINT);
	else
		ft_msg(why, len, "%s serves Debian 6.12 builds; boot a verified one (%s)",
		       FOLIOTUNE_NAME, FT_LIST_HINT);
	return false;
}

bool ft_running_supported(char *why, size_t len)
{
	char rel[256], ver[512];

	if (ft_kernel_release(rel, sizeof(rel)) || ft_kernel_version(ver, sizeof(ver))) {
		ft_msg(why, len, "cannot read the kernel's release and version");
		return false;
	}
	return ft_support_check(rel, ver, why, len);
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
	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_string_field(ft_jw, "release", rel);
		jsonw_string_field(ft_jw, "version", ver);
		jsonw_bool_field(ft_jw, "supported", ok);
		if (ok) {
			jsonw_string_field(ft_jw, "verified", where);
			jsonw_null_field(ft_jw, "next_step");
		} else {
			jsonw_null_field(ft_jw, "verified");
			jsonw_string_field(ft_jw, "next_step", why);
		}
		jsonw_name(ft_jw, "verified_builds");
		jsonw_start_array(ft_jw);
		ft_verified_list(stdout);
		jsonw_end_array(ft_jw);
		jsonw_end_object(ft_jw);
	} else if (ok) {
		printf("%s supports %s (%s): verified %s\n", FOLIOTUNE_NAME, rel, ver, where);
	} else {
		fprintf(stderr, "%s does not support %s (%s): %s\n", FOLIOTUNE_NAME, rel, ver, why);
		ft_verified_list(stdout);
	}
	return ok ? FT_EXIT_OK : FT_EXIT_RUNTIME;
}
