/*
 * The check dtrun and `dcc run` make before loading an object: read what it
 * needs (info_scan.c, from libelf) and ask the running kernel for it
 * (info_check.c), so that a missing program type or helper is one sentence
 * naming the probe's program instead of a verifier log. libbpf's trial
 * open (open_probe.c) runs in a child meanwhile, when one is needed.
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

int loader_check_kernel(const void *obj, size_t size, struct loader_opts *opts)
{
	const char *timing = getenv("DCC_TIMING");
	const char *prog = opts->progname ? opts->progname : "dtrun";
	const char *name = opts->obj_name ? opts->obj_name : "object";
	double t0 = mono_ms(), t1;
	struct info in;
	char why[256];
	int status, loads = 0;
	/*
	 * libbpf's trial open in a child runs while this asks the kernel;
	 * loader_run waits for it. None for an object `dcc run` compiled
	 * itself (its fork of a process holding LLVM took ~5 ms), nor for one
	 * whose checksum says it is still what dcc wrote: the child is for
	 * corrupted objects, and its fork was the largest fixed cost left.
	 */
	bool intact = !opts->own_object && abi_obj_sum_ok(obj, size);
	pid_t child = opts->own_object || intact ? 0 : loader_open_probe_start(obj, size);

	if (intact)
		opts->own_object = true; /* loader_run needs no child either */
	opts->open_child = child;
	/* an object this cannot read is loader_run's to report */
	if (info_scan_progs(obj, size, &in, why, sizeof(why)))
		return 0;
	t1 = mono_ms();
	status = info_check_kernel(&in, prog, name, &loads);
	info_free(&in);
	if (opts->verbose || (timing && *timing && strcmp(timing, "0")))
		fprintf(stderr, "%s: timing: object scan %.2f ms (trial open %s), kernel check "
			"%.2f ms (%d test loads)\n", prog, t1 - t0,
			child ? "in a child" : intact ? "skipped: checksum matches" : "skipped",
			mono_ms() - t1, loads);
	if (status) {
		loader_open_probe_cancel(child);
		opts->open_child = 0;
		return 1;
	}
	return 0;
}
