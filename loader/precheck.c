/*
 * The check dtrun and `dcc run` make of an object against the running
 * kernel: read what it needs (info_scan.c, from libelf) and ask the kernel
 * for it (info_check.c), so that a missing program type or helper is one
 * sentence naming the probe's program instead of a verifier log. For an
 * object dcc wrote it is made when the load fails, for any other before the
 * load. Before the load too, libbpf's trial open (open_probe.c) starts in a
 * child, when one is needed.
 */
#include "info.h"
#include "loader.h"
#include "internal.h"
#include "dcc/abi_sum.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Scan obj and ask the kernel; 1 after the sentence naming what is missing */
static int check_now(const void *obj, size_t size, const char *prog, const char *name,
		     int *loads)
{
	struct info in;
	char why[256];

	/* an object this cannot read is loader_run's to report */
	if (info_scan_progs(obj, size, &in, why, sizeof(why)))
		return 0;
	int status = info_check_kernel(&in, prog, name, loads);
	info_free(&in);
	return status;
}

int loader_check_kernel(const void *obj, size_t size, struct loader_opts *opts)
{
	const char *timing = getenv("DCC_TIMING");
	const char *prog = opts->progname ? opts->progname : "dtrun";
	const char *name = opts->obj_name ? opts->obj_name : "object";
	double t0 = mono_ms();
	int status = 0, loads = 0;
	/*
	 * libbpf's trial open in a child runs while this asks the kernel;
	 * loader_run waits for it. None for an object `dcc run` compiled
	 * itself (its fork of a process holding LLVM took ~5 ms), nor for one
	 * whose checksum says it is still what dcc wrote: the child is for
	 * corrupted objects, and its fork was the largest fixed cost left.
	 */
	bool intact = !opts->own_object && abi_obj_sum_ok(obj, size);
	pid_t child = opts->own_object || intact ? 0 : loader_open_probe_start(obj, size);
	/*
	 * An object dcc wrote (or `dcc run` compiled) is checked only when its
	 * load fails (loader_explain_refusal): a kernel that lacks nothing
	 * would answer with a test load on every start (~0.2 ms of ~8), and
	 * the real load refuses exactly what the check would have named. Any
	 * other object (changed since dcc wrote it, or not dcc's) is checked
	 * first, while its trial open runs in the child, as every object was;
	 * so is every object under the test hook DCC_TEST_MISSING.
	 */
	bool now = !(opts->own_object || intact) || getenv("DCC_TEST_MISSING") != NULL;

	if (intact)
		opts->own_object = true; /* loader_run needs no child either */
	opts->open_child = child;
	if (now)
		status = check_now(obj, size, prog, name, &loads);
	if (opts->verbose || (timing && *timing && strcmp(timing, "0")))
		fprintf(stderr, "%s: timing: trial open %s, kernel check %s%.2f ms (%d test "
			"loads)\n", prog, child ? "in a child" : intact ?
			"skipped: checksum matches" : "skipped",
			now ? "" : "left for a failed load, ", mono_ms() - t0, loads);
	if (status) {
		loader_open_probe_cancel(child);
		opts->open_child = 0;
		return 1;
	}
	return 0;
}

int loader_explain_refusal(const void *obj, size_t size, const char *prog, const char *name)
{
	int loads;

	return check_now(obj, size, prog, name, &loads);
}
