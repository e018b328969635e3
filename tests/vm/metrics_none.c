/*
 * The guest's static dtrun has no --metrics: libmicrohttpd's static
 * archive would pull GnuTLS and its dependencies into the binary, and the
 * second kernel's cases do not scrape. metrics_text.c stays in.
 */
#include "metrics.h"

#include <stdio.h>

struct metrics *metrics_open(const char *addr, const char *prog)
{
	fprintf(stderr, "%s: --metrics %s: this dtrun is built without the metrics server\n",
		prog, addr);
	return NULL;
}

int metrics_serve(struct metrics *m, struct dcc_runtime *rt, char **labels, int nlabels)
{
	(void)m, (void)rt, (void)labels, (void)nlabels;
	return -1;
}

void metrics_close(struct metrics *m)
{
	(void)m;
}
