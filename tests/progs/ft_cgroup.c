// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ft_cgroup.c - cgroup v2 helpers of ft_common.h: prepare the root, create,
 * enter and read cgroups.  Every cgroup made here is removed by the cleanup
 * registry (ft_common.c).
 */
#define _GNU_SOURCE
#include "ft_common.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

static bool word_in(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || isspace((unsigned char)p[-1])) &&
		    (p[wl] == '\0' || isspace((unsigned char)p[wl])))
			return true;
		p += wl;
	}
	return false;
}

int ft_cg_prepare_root(const char *root)
{
	char path[600], buf[512];
	struct statfs sfs;

	if (statfs(root, &sfs) < 0) {
		ft_seterr_errno("statfs %s", root);
		return -1;
	}
	if ((unsigned long)sfs.f_type != CGROUP2_SUPER_MAGIC) {
		ft_seterr("%s is not a cgroup2 mount (f_type 0x%lx)", root,
			  (unsigned long)sfs.f_type);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", root);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!word_in(buf, "memory")) {
		ft_seterr("memory controller not available in %s (cgroup.controllers: '%s')",
			  root, buf);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", root);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (word_in(buf, "memory"))
		return 0;
	if (ft_write_file(path, "+memory") < 0)
		return -1;
	/* Undo after our cgroups are gone (registered before them). */
	return ft_cl_push(FT_CL_KNOB, path, "-memory") < 0 ? -1 : 0;
}

int ft_cg_create(const char *root, const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", root, name);
	if (mkdir(out, 0755) < 0) {
		ft_seterr_errno("mkdir %s", out);
		return -1;
	}
	return ft_cl_push(FT_CL_CGROUP, out, NULL) < 0 ? -1 : 0;
}

int ft_cg_enter(const char *cg)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	return ft_write_file(path, "0");
}

int ft_cg_register_return(const char *root)
{
	char buf[1024], path[1200];
	char *p;

	if (ft_read_file("/proc/self/cgroup", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "0::");
	if (!p) {
		ft_seterr("no cgroup2 entry in /proc/self/cgroup: '%s'", buf);
		return -1;
	}
	p += 3;
	p[strcspn(p, "\n")] = '\0';
	if (!strcmp(p, "/"))
		p = "";
	snprintf(path, sizeof(path), "%s%s/cgroup.procs", root, p);
	return ft_cl_push(FT_CL_CGMOVE, path, NULL) < 0 ? -1 : 0;
}

int ft_cg_write(const char *cg, const char *file, const char *val)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	return ft_write_file(path, val);
}

long long ft_cg_read(const char *cg, const char *file)
{
	char path[700], buf[128];

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!strncmp(buf, "max", 3))
		return INT64_MAX;
	return strtoll(buf, NULL, 10);
}

long long ft_cg_key(const char *cg, const char *file, const char *key)
{
	char path[700], buf[8192];
	long long v;

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	if (ft_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	v = ft_key_in(buf, key);
	if (v < 0)
		ft_seterr("no key %s in %s", key, path);
	return v;
}
