/*
 * A C program running a D script compiled at build time: the skeleton
 * `dcc getppid.d --skel getppid.skel.h` wrote embeds the object, and
 * libdcc-runtime loads it, attaches its probes and prints its records as
 * dtrun would. The program then makes N getppid() calls (argv[1], default 3),
 * stops the trace (END runs), walks the aggregation @calls through the data
 * API and lets the runtime print it in DTrace's format. Run it as root.
 * Compiles as C and as C++.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "getppid.skel.h"

static int print_entry(void *ctx, const struct dcc_agg_entry *e)
{
	struct dcc_runtime *rt = (struct dcc_runtime *)ctx;

	printf("walk: @%s = %lld\n", dcc_runtime__str(rt, e->agg->name), (long long)e->value);
	return 0;
}

int main(int argc, char **argv)
{
	int calls = argc > 1 ? atoi(argv[1]) : 3;
	struct dcc_runtime_opts opts;
	struct dcc_session *s = NULL;
	struct dcc_runtime *rt;
	int err;

	memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	opts.progname = "embed";
	err = getppid__dcc_start(&opts, &s);
	if (err) {
		fprintf(stderr, "embed: cannot start the trace: %s\n", strerror(-err));
		return 1;
	}
	rt = dcc_session__runtime(s);
	dcc_session__poll(s, 0); /* BEGIN's output first */
	fflush(stdout);
	for (int i = 0; i < calls; i++)
		syscall(SYS_getppid);
	err = dcc_session__stop(s); /* detach, END, the records left */
	if (!err)
		err = dcc_runtime__agg_walk(rt, 0, print_entry, rt);
	if (!err)
		err = dcc_runtime__print_aggs(rt);
	dcc_session__free(s);
	if (err < 0) {
		fprintf(stderr, "embed: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}
