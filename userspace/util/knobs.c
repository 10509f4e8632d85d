// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * knobs.c - the knob table (from foliotune.h): parsing, formatting, reading
 * and writing knob values.  The get and set commands are get.c and set.c.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "knobs.h"
#include "output.h"
#include "path.h"

#define FT_KNOB_ENTRY(name, kind, unit, min, max, def, help) \
	{ #name, FT_KIND_##kind, #kind, unit, min, max, def, help },
const struct ft_knob ft_knobs[] = {
	FOLIOTUNE_KNOBS(FT_KNOB_ENTRY)
};
#undef FT_KNOB_ENTRY
const size_t ft_nr_knobs = sizeof(ft_knobs) / sizeof(ft_knobs[0]);

_Static_assert(sizeof(ft_knobs) / sizeof(ft_knobs[0]) == FT_NR_KNOBS,
	       "knob table out of sync with foliotune.h");

const struct ft_knob *ft_knob_find(const char *name)
{
	size_t i;

	for (i = 0; i < ft_nr_knobs; i++)
		if (!strcmp(ft_knobs[i].name, name))
			return &ft_knobs[i];
	return NULL;
}

int ft_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int ft_parse_u64(const char *s, bool units, uint64_t max, uint64_t *out)
{
	uint64_t v = 0, mult = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10) {
			/* keep scanning so "99999999999999999999x" is junk */
			while (isdigit((unsigned char)*p))
				p++;
			if (*p && !(units && strchr("kKmMgG", *p) && !p[1]))
				return -EINVAL;
			return -ERANGE;
		}
		v = v * 10 + d;
	}
	if (*p) {
		if (!units || p[1])
			return -EINVAL;
		switch (*p) {
		case 'k': case 'K':
			mult = 1ULL << 10;
			break;
		case 'm': case 'M':
			mult = 1ULL << 20;
			break;
		case 'g': case 'G':
			mult = 1ULL << 30;
			break;
		default:
			return -EINVAL;
		}
	}
	if (v > max / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

/* "0|1|2" -> is v one of them?  A unit that is not such a list allows all. */
static bool ft_enum_allows(const char *unit, uint64_t v)
{
	const char *p = unit;

	if (!isdigit((unsigned char)*p))
		return true;
	while (*p) {
		char *end;
		unsigned long long x;

		errno = 0;
		x = strtoull(p, &end, 10);
		if (end == p || errno || (*end && *end != '|'))
			return true;	/* not a plain list */
		if (x == v)
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

int ft_parse_value(const struct ft_knob *k, const char *s, uint64_t *out,
		   char *msg, size_t msglen)
{
	const char *what;
	bool units = false, b;
	int err;

	msg[0] = '\0';
	if (k->kind == FT_KIND_BOOL) {
		if (ft_parse_bool(s, &b)) {
			ft_msg(msg, msglen,
				 "invalid value '%s' for %s: expected on/off, yes/no, true/false or 1/0",
				 s, k->name);
			return -EINVAL;
		}
		*out = b;
		return 0;
	}
	switch (k->kind) {
	case FT_KIND_BYTES:
		units = true;
		what = "a byte count such as 4096, 4K, 64K or 2M";
		break;
	case FT_KIND_UINT:
		what = "a non-negative decimal number";
		break;
	default:
		what = "";
		break;
	}
	/*
	 * The walk knobs were BOOL before they had a third arm: an ENUM whose
	 * list has 0 and 1 takes off and on for them.
	 */
	if (k->kind == FT_KIND_ENUM && !isdigit((unsigned char)*s) &&
	    ft_enum_allows(k->unit, 0) && ft_enum_allows(k->unit, 1) &&
	    !ft_parse_bool(s, &b)) {
		*out = b;
		return 0;
	}
	if (*s == '-' && isdigit((unsigned char)s[1])) {
		ft_msg(msg, msglen, "invalid value '%s' for %s: negative values are not allowed",
			 s, k->name);
		return -EINVAL;
	}
	err = ft_parse_u64(s, units, UINT64_MAX, out);
	if (k->kind == FT_KIND_ENUM && (err || !ft_enum_allows(k->unit, *out))) {
		ft_msg(msg, msglen, "invalid value '%s' for %s: expected one of %s",
		       s, k->name, k->unit);
		return -EINVAL;
	}
	if (err == -ERANGE || (!err && (*out < k->min || *out > k->max))) {
		char range[64];

		ft_knob_range(k, range, sizeof(range));
		ft_msg(msg, msglen, "invalid value '%s' for %s: out of range %s %s",
		       s, k->name, range, k->unit);
		return -ERANGE;
	}
	if (err) {
		ft_msg(msg, msglen, "invalid value '%s' for %s: expected %s",
		       s, k->name, what);
		return -EINVAL;
	}
	return 0;
}

int ft_parse_assignment(const char *arg, const struct ft_knob **k,
			uint64_t *val, char *msg, size_t msglen)
{
	const char *eq = strchr(arg, '=');
	char name[128];
	size_t n;

	if (!eq || eq == arg) {
		ft_msg(msg, msglen, "invalid setting '%s': expected KNOB=VALUE", arg);
		return -EINVAL;
	}
	n = (size_t)(eq - arg);
	if (n >= sizeof(name)) {
		ft_msg(msg, msglen, "unknown knob '%.*s'", (int)n, arg);
		return -EINVAL;
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	*k = ft_knob_find(name);
	if (!*k) {
		ft_msg(msg, msglen, "unknown knob '%s'", name);
		return -EINVAL;
	}
	return ft_parse_value(*k, eq + 1, val, msg, msglen);
}

void ft_format_bytes(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "GMK";
	int i;

	for (i = 0; i < 3; i++) {
		uint64_t unit = 1ULL << (10 * (3 - i));

		if (v && v % unit == 0) {
			snprintf(buf, len, "%" PRIu64 "%c", v / unit, suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

int ft_knob_read(const char *dir, const struct ft_knob *k,
		 struct ft_knob_value *out)
{
	char path[FT_PATH_MAX], *end;
	unsigned long long v;
	int err;

	err = ft_join(path, sizeof(path), dir, k->name);
	if (!err)
		err = ft_read_line(path, out->text, sizeof(out->text));
	if (err)
		return err;
	out->numeric = false;
	if (isdigit((unsigned char)out->text[0])) {
		errno = 0;
		v = strtoull(out->text, &end, 10);
		if (!errno && !*end) {
			out->numeric = true;
			out->value = v;
		}
	}
	return 0;
}

int ft_knob_write(const char *dir, const struct ft_knob *k, const char *text)
{
	char path[FT_PATH_MAX], buf[80];
	int n, err;

	err = ft_join(path, sizeof(path), dir, k->name);
	if (err)
		return err;
	n = snprintf(buf, sizeof(buf), "%s\n", text);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -EINVAL;
	return ft_write_file(path, buf);
}

/* "4K..2M", "100..60000", "0..2" */
void ft_knob_range(const struct ft_knob *k, char *buf, size_t len)
{
	char lo[32], hi[32];

	if (k->kind == FT_KIND_BYTES) {
		ft_format_bytes(k->min, lo, sizeof(lo));
		ft_format_bytes(k->max, hi, sizeof(hi));
	} else {
		snprintf(lo, sizeof(lo), "%" PRIu64, k->min);
		snprintf(hi, sizeof(hi), "%" PRIu64, k->max);
	}
	snprintf(buf, len, "%s..%s", lo, hi);
}

void ft_knob_value_json(const char *field, const struct ft_knob_value *v)
{
	if (v->numeric)
		jsonw_uint_field(ft_jw, field, v->value);
	else
		jsonw_string_field(ft_jw, field, v->text);
}

int ft_knob_restore(const char *dir, const struct ft_knob *k, const char *old)
{
	int err = ft_knob_write(dir, k, old);

	if (err)
		ft_warn("cannot restore %s to %s: %s (run '%s set %s=%s')", k->name, old,
			strerror(-err), ft_prog, k->name, old);
	return err;
}
