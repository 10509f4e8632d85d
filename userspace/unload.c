// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * unload.c - the unload command: disable the livepatch, wait for the
 * transition, remove the module.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "commands.h"
#include "fileio.h"
#include "foliotune.h"
#include "json_writer.h"
#include "module_path.h"
#include "output.h"
#include "path.h"
#include "privilege.h"
#include "transition.h"

#define FT_DELETE_RETRY_SECONDS	5.0

static int ft_unload_report(bool was_loaded, double t0)
{
	double secs = ft_now() - t0;

	if (ft_json) {
		jsonw_start_object(ft_jw);
		jsonw_bool_field(ft_jw, "unloaded", true);
		jsonw_bool_field(ft_jw, "was_loaded", was_loaded);
		jsonw_float_field_fmt(ft_jw, "seconds", "%.3f", secs);
		jsonw_end_object(ft_jw);
	} else if (!was_loaded) {
		ft_info("%s is not loaded", FOLIOTUNE_NAME);
	} else {
		ft_info("%s unloaded (livepatch disabled, module removed in %.2f s)",
			FOLIOTUNE_NAME, secs);
	}
	return FT_EXIT_OK;
}

int ft_cmd_unload(int argc, char **argv)
{
	char lp[FT_PATH_MAX], en[FT_PATH_MAX], mod[FT_PATH_MAX];
	double timeout, t0 = ft_now(), deadline, retry_end;
	long long enabled;
	int ret, err;

	ret = ft_timeout_args(argc, argv, "unload", &timeout);
	if (ret >= 0)
		return ret;
	if (optind != argc)
		return ft_usage_error(EINVAL, "unload: unexpected argument '%s'", argv[optind]);
	ret = ft_require_root("unload");
	if (ret)
		return ret;
	deadline = t0 + timeout;
	if (!ft_module_loaded())
		return ft_unload_report(false, t0);
	if (ft_livepatch_path(lp, sizeof(lp), NULL) ||
	    ft_livepatch_path(en, sizeof(en), "enabled") ||
	    ft_path(mod, sizeof(mod), "/sys/module/%s", FOLIOTUNE_NAME))
		return ft_runtime_error(ENAMETOOLONG, "sysfs path too long");

	if (ft_is_dir(lp)) {
		err = ft_read_int(en, &enabled);
		if (err && err != -ENOENT)
			return ft_runtime_error(-err, "%s: %s", en, strerror(-err));
		if (!err && enabled) {
			ft_note("disabling livepatch %s", FOLIOTUNE_NAME);
			err = ft_write_file(en, "0\n");
			if (err && err != -ENOENT)
				return ft_runtime_error(-err, "cannot disable livepatch (%s): %s",
							en, strerror(-err));
		}
		err = ft_wait_transition(deadline, 0);
		if (err == -ETIMEDOUT)
			return ft_transition_timeout(0, timeout);
		if (err && err != -ENOENT)
			return ft_runtime_error(-err, "livepatch transition: %s", strerror(-err));
		if (ft_wait_path(lp, false, deadline))
			return ft_runtime_error(ETIMEDOUT, "timed out after %g s waiting for %s to go away",
						timeout, lp);
	}

	retry_end = ft_now() + FT_DELETE_RETRY_SECONDS;
	if (retry_end > deadline)
		retry_end = deadline;
	for (;;) {
		if (!ft_delete_module(FOLIOTUNE_NAME)) {
			err = 0;
			break;
		}
		err = errno;
		if (err == ENOENT) {
			err = 0;	/* already gone */
			break;
		}
		if ((err != EBUSY && err != EAGAIN) || ft_now() >= retry_end)
			break;
		ft_sleep(FT_POLL_SECONDS * 2);
	}
	if (err == EBUSY || err == EAGAIN)
		return ft_runtime_error(err, "cannot remove module %s: %s (still in use)",
					FOLIOTUNE_NAME, strerror(err));
	if (err == EPERM)
		return ft_runtime_error(err, "cannot remove module %s: %s (CAP_SYS_MODULE needed)",
					FOLIOTUNE_NAME, strerror(err));
	if (err)
		return ft_runtime_error(err, "cannot remove module %s: %s",
					FOLIOTUNE_NAME, strerror(err));
	if (ft_wait_path(mod, false, deadline))
		return ft_runtime_error(ETIMEDOUT, "timed out after %g s waiting for %s to go away",
					timeout, mod);
	return ft_unload_report(true, t0);
}
