// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * support.c - does foliotune support the running kernel?  The one support
 * check (scripts/kernels/support.sh says the same for make and the docs),
 * the module's own (module/build_check.c): the release and the version
 * string must both be those of a build in module/verified/, whose table
 * userspace/Makefile compiles in.
 */
#include <stdbool.h>
#include <string.h>

#include "foliotune.h"
#include "output.h"
#include "support.h"
#include "sysinfo.h"

static const struct {
	const char *release, *version;
} ft_verified[] = {
#include "verified.inc"
	{ NULL, NULL }
};

/* "a, b, c": the verified builds (the debug lane's excluded) */
static void ft_verified_list(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; ft_verified[i].release; i++) {
		const char *r = ft_verified[i].release;
		size_t rl = strlen(r);

		if (rl > 8 && !strcmp(r + rl - 8, "-ftdebug"))
			continue;
		ft_msg(buf + n, len - n, "%s%s", n ? ", " : "", r);
		n = strlen(buf);
	}
	if (!n)
		ft_msg(buf, len, "none");
}

bool ft_support_check(const char *rel, const char *ver, char *why, size_t len)
{
	char list[FT_MSG_MAX];
	size_t i;

	why[0] = '\0';
	ft_verified_list(list, sizeof(list));
	if (strstr(rel, "-rt-") || strstr(ver, "PREEMPT_RT")) {
		ft_msg(why, len, "PREEMPT_RT kernels cannot be supported (the per-CPU fault-around record assumes preemption is off under the page-table lock); boot a verified build: %s",
		       list);
		return false;
	}
	for (i = 0; ft_verified[i].release; i++) {
		if (strcmp(rel, ft_verified[i].release))
			continue;
		if (!strcmp(ver, ft_verified[i].version))
			return true;
		ft_msg(why, len, "%s was verified on version '%s', not this one; verify this build: make verify-kernel KVER=%s (docs/kernels.md)",
		       rel, ft_verified[i].version, rel);
		return false;
	}
	if (!strncmp(rel, "6.12.", 5) && strstr(rel, "+deb1") && strstr(rel, "-amd64"))
		ft_msg(why, len, "this build is not verified; verify it: make verify-kernel KVER=%s (docs/kernels.md), or boot a verified build: %s",
		       rel, list);
	else
		ft_msg(why, len, "%s serves Debian 6.12 builds; boot a verified one: %s",
		       FOLIOTUNE_NAME, list);
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
