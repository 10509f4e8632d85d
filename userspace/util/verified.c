// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * verified.c - does foliotune support a kernel?  The one support check
 * (scripts/kernels/support.sh says the same for make and the docs), the
 * module's own (module/build_check.c): the release and the version string
 * must both be those of a build in module/verified/, whose table
 * userspace/Makefile compiles in, or of the header make verify-kernel
 * wrote on this machine for the kernel it runs (FT_LOCAL_VERIFIED_DIR, or
 * $FT_STATE_DIR/verified as for make; read when asked: a kernel verified
 * after this CLI was built counts).  The support command prints its
 * verdict; status, load, get, set and counters refuse with it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "output.h"
#include "path.h"
#include "sysinfo.h"
#include "verified.h"

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

void ft_verified_list(FILE *f)
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
	if ((!strncmp(rel, "6.12.", 5) || !strncmp(rel, "7.", 2)) &&
	    strstr(rel, "+deb1") && strstr(rel, "-amd64"))
		ft_msg(why, len, "this build is not verified; verify it: make verify-kernel KVER=%s (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md), or boot a verified build (%s)",
		       rel, FT_LIST_HINT);
	else
		ft_msg(why, len, "%s serves Debian 6.12 and Linux 7 builds; boot a verified one (%s)",
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
