/*
 * The check dtrun and `dcc run` make before loading an object: read what it
 * needs (info_scan.c, which opens it in a child first) and ask the running
 * kernel for it (info_check.c), so that a missing program type or helper is
 * one sentence naming the probe's program instead of a verifier log.
 */
#include "info.h"
#include "loader.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int loader_check_kernel(const void *obj, size_t size, struct loader_opts *opts)
{
	const char *timing = getenv("DCC_TIMING"), *prog = opts->progname;
	const char *name = opts->obj_name ? opts->obj_name : "object";
	double t0 = mono_ms(), t1;
	struct info in;
	char why[256];
	int status, loads = 0;

	/* an object info_scan cannot read is loader_run's to report; one
	 * `dcc run` compiled itself needs no trial open in a child (its fork of
	 * a process holding LLVM took ~5 ms) */
	if (info_scan(obj, size, opts->own_object, &in, why, sizeof(why)))
		return 0;
	t1 = mono_ms();
	opts->opened_in_child = true; /* or needs none: loader_run need not */
	status = info_check_kernel(&in, prog ? prog : "dtrun", name, &loads);
	info_free(&in);
	if (opts->verbose || (timing && *timing && strcmp(timing, "0")))
		fprintf(stderr, "%s: timing: object scan %.2f ms, kernel check %.2f ms "
			"(%d test loads)\n", prog ? prog : "dtrun", t1 - t0, mono_ms() - t1,
			loads);
	return status ? 1 : 0;
}
