// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * env.c - the machine a measurement ran on, as "env KEY VALUE" lines of ab
 * files and records (kernel build, knobs, THP and MGLRU modes, CPU,
 * emulation, load average), and the load checks record and ab warn with.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_file.h"
#include "env.h"
#include "fileio.h"
#include "foliotune.h"
#include "knobs.h"
#include "output.h"
#include "path.h"
#include "sysinfo.h"

void ft_env_put(FILE *f, const char *key, const char *value)
{
	const unsigned char *s = (const unsigned char *)(value ? value : "");

	fprintf(f, "%s ", key);
	for (; *s; s++)
		putc(*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
	putc('\n', f);
}

static void ft_env_sysline(const char *rel, char *buf, size_t len)
{
	char p[FT_PATH_MAX];

	if (ft_path(p, sizeof(p), "%s", rel) || ft_read_line(p, buf, len))
		snprintf(buf, len, "-");
}

/* "always [madvise] never" -> "madvise" */
static void ft_env_bracketed(char *s)
{
	char *b = strchr(s, '['), *e = b ? strchr(b, ']') : NULL;

	if (b && e) {
		memmove(s, b + 1, (size_t)(e - b - 1));
		s[e - b - 1] = '\0';
	}
}

void ft_env_loadavg(char *buf, size_t len)
{
	char *sp;
	int i;

	ft_env_sysline("/proc/loadavg", buf, len);
	for (i = 0, sp = buf; i < 3 && sp; i++)
		sp = strchr(sp + 1, ' ');
	if (sp)
		*sp = '\0';
}

static long ft_env_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

/* Busy CPU seconds of the whole machine so far (/proc/stat), or -1. */
double ft_env_busy(void)
{
	unsigned long long v[8] = { 0 };
	char line[512];

	ft_env_sysline("/proc/stat", line, sizeof(line));
	if (sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	/* user nice system idle iowait irq softirq steal: all but idle, iowait */
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) /
		(double)sysconf(_SC_CLK_TCK);
}

static void ft_env_cpuinfo(FILE *f)
{
	char p[FT_PATH_MAX], *buf = NULL, *l, model[256] = "-", vendor[128];
	bool hyper = false;
	long ncpu = 0;

	if (!ft_path(p, sizeof(p), "/proc/cpuinfo"))
		ft_read_file(p, &buf, NULL);
	for (l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *colon = strchr(l, ':'), *eol = strchr(l, '\n');

		if (!colon || (eol && colon > eol))
			continue;
		if (!strncmp(l, "processor", 9))
			ncpu++;
		if (!strncmp(l, "model name", 10) && !strcmp(model, "-"))
			snprintf(model, sizeof(model), "%.*s",
				 (int)((eol ? eol : colon + strlen(colon)) - colon - 2), colon + 2);
		if (!strncmp(l, "flags", 5)) {
			char save = eol ? *eol : '\0';

			if (eol)
				*eol = '\0';
			if (strstr(colon, " hypervisor"))
				hyper = true;
			if (eol)
				*eol = save;
		}
	}
	free(buf);
	ft_env_put(f, "env cpu_model", model);
	if (ncpu)
		fprintf(f, "env cpus %ld\n", ncpu);
	else
		fprintf(f, "env cpus -\n");
	ft_env_sysline("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	fprintf(f, "env emulation %s%s\n",
		strstr(model, "QEMU") || strstr(vendor, "QEMU") ? "qemu" :
		hyper ? "hypervisor" : "none-seen",
		hyper ? " (cpu flag hypervisor)" : "");
	ft_env_put(f, "env dmi_sys_vendor", vendor);
}

static void ft_env_mthp(FILE *f)
{
	char p[FT_PATH_MAX], val[128], all[2048] = "";
	size_t pos = 0;
	int kb;

	for (kb = 8; kb <= 2048 * 1024; kb *= 2) {
		if (ft_path(p, sizeof(p), "/sys/kernel/mm/transparent_hugepage/hugepages-%dkB/enabled", kb) ||
		    ft_read_line(p, val, sizeof(val)))
			continue;
		ft_env_bracketed(val);
		pos += (size_t)snprintf(all + pos, sizeof(all) - pos, "%s%dK:%s",
					pos ? " " : "", kb, val);
		if (pos >= sizeof(all))
			break;
	}
	ft_env_put(f, "env mthp_enabled", *all ? all : "-");
}

void ft_env_write_after(FILE *f)
{
	char v[64];

	ft_env_loadavg(v, sizeof(v));
	ft_env_put(f, "env loadavg_after", v);
}

/* Warn when the load average says other work competes with the command. */
void ft_env_warn_busy(void)
{
	char la[64];

	ft_env_loadavg(la, sizeof(la));
	if (strtod(la, NULL) > 0.5 * (double)ft_env_ncpus())
		ft_warn("the machine is busy (load average %s on %ld CPUs): other work is in the wall time and the counter deltas",
			la, ft_env_ncpus());
}

/*
 * The machine's fingerprint as "env KEY VALUE" lines, for ab files and
 * records; dir: the module's debugfs directory, or NULL without the module.
 */
void ft_env_write(FILE *f, const char *dir)
{
	char rel[256], ver[512], p[FT_PATH_MAX], v[512], *build = NULL;
	struct ft_build b;
	static const char *const thp[] = { "enabled", "defrag", "shmem_enabled" };
	size_t i;

	if (ft_kernel_release(rel, sizeof(rel)))
		snprintf(rel, sizeof(rel), "unknown");
	if (ft_kernel_version(ver, sizeof(ver)))
		snprintf(ver, sizeof(ver), "unknown");
	ft_env_put(f, "env kernel_release", rel);
	ft_env_put(f, "env kernel_version", ver);
	memset(&b, 0, sizeof(b));
	if (dir && !ft_join(p, sizeof(p), dir, FOLIOTUNE_BUILD_FILE) &&
	    !ft_read_file(p, &build, NULL) && !ft_parse_build(build, &b))
		fprintf(f, "env verified_build %s\n",
			!strcmp(b.release, rel) && !strcmp(b.version, ver) ?
			"yes (the loaded module's build)" :
			"no (the loaded module was built for another kernel)");
	else
		fprintf(f, "env verified_build unknown (no build file)\n");
	free(build);
	for (i = 0; dir && i < ft_nr_knobs; i++) {
		struct ft_knob_value kv;

		if (!ft_knob_read(dir, &ft_knobs[i], &kv))
			fprintf(f, "env knob %s %s\n", ft_knobs[i].name, kv.text);
	}
	ft_env_sysline("/sys/kernel/mm/lru_gen/enabled", v, sizeof(v));
	fprintf(f, "env mglru %s (lru_gen/enabled %s)\n",
		!strcmp(v, "-") ? "absent" : strtoul(v, NULL, 0) & 1 ? "on" : "off", v);
	for (i = 0; i < sizeof(thp) / sizeof(thp[0]); i++) {
		char key[64];

		snprintf(p, sizeof(p), "/sys/kernel/mm/transparent_hugepage/%s", thp[i]);
		ft_env_sysline(p, v, sizeof(v));
		ft_env_bracketed(v);
		snprintf(key, sizeof(key), "env thp_%s", thp[i]);
		ft_env_put(f, key, v);
	}
	ft_env_mthp(f);
	/* the kernel's own fault-around window (debugfs) */
	if (ft_debugfs_root(rel, sizeof(rel)) ||
	    ft_join(p, sizeof(p), rel, "fault_around_bytes") ||
	    ft_read_line(p, v, sizeof(v)))
		snprintf(v, sizeof(v), "-");
	ft_env_put(f, "env fault_around_bytes", v);
	ft_env_cpuinfo(f);
	ft_env_loadavg(v, sizeof(v));
	ft_env_put(f, "env loadavg_before", v);
}
