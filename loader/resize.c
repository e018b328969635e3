/*
 * bufresize: what happens when a buffer size asks for more than dcc makes.
 * DTrace allocates what it can and, by default (bufresize=auto), lowers a
 * size that failed and says so; with bufresize=manual the size is not
 * negotiable and tracing does not start. dcc's limits are fixed rather than
 * found by failing: the largest BPF ring buffer it makes (LOADER_RINGBUF_MAX)
 * and the most entries an aggregation's map takes (ABI_AGG_MAX_ENTRIES).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <dcc/abi.h>
#include <dcc/abi_agg.h>
#include <dcc/abi_opt.h>
#include <dcc/runtime.h>
#include "internal.h"

/* bytes in DTrace's way of writing a size: the largest unit that divides it. */
static void size_text(char *buf, size_t cap, uint64_t bytes)
{
	static const char units[] = "kmgt";
	int u = -1;

	while (u < 3 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, cap, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, cap, "%llu%c", (unsigned long long)bytes, units[u]);
}

/* The aggsize the maps can honour: enough for ABI_AGG_MAX_ENTRIES entries
 * of the smallest keyed aggregation (the largest of the limits), 0 when no
 * keyed aggregation limits it. */
static uint64_t agg_limit(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_agg *a = (const void *)((const char *)h + h->agg_off);
	uint64_t most = 0;

	for (uint32_t i = 0; i < h->naggs; i++) {
		/* a keyless aggregation holds one value whatever aggsize is */
		if (!a[i].nkeys)
			continue;
		uint64_t entry = (uint64_t)a[i].key_size + a[i].val_size + ABI_AGG_ENTRY_OVERHEAD;
		uint64_t limit = entry * ABI_AGG_MAX_ENTRIES;
		if (limit > most)
			most = limit;
	}
	return most;
}

/* One size against its limit: 0 when it fits or was lowered (and said so),
 * -ENOSPC when manual forbids lowering it. */
static int check_one(struct dcc_runtime *rt, const char *what, const char *opt, uint64_t size,
		     uint64_t limit, bool manual, const char *progname)
{
	FILE *err = dcc_runtime__err(rt);
	char text[32];

	if (!limit || size <= limit)
		return 0;
	if (manual) {
		size_text(text, sizeof(text), limit);
		fprintf(err, "%s: could not enable tracing: %s %s exceeds the largest dcc makes "
			"(%s) and bufresize=manual forbids lowering it\n", progname, opt,
			dcc_runtime__option(rt, opt) ? dcc_runtime__option(rt, opt) : "", text);
		return -ENOSPC;
	}
	size_text(text, sizeof(text), limit);
	fprintf(err, "%s: %s size lowered to %s\n", progname, what, text);
	return 0;
}

int loader_resize_check(struct dcc_runtime *rt, uint64_t bufsize, const char *progname)
{
	const char *mode = dcc_runtime__option(rt, "bufresize");
	const char *v = dcc_runtime__option(rt, "aggsize");
	bool manual = mode && !strcmp(mode, "manual");
	uint64_t aggsize = 0;

	if (check_one(rt, "buffer", "bufsize", bufsize, LOADER_RINGBUF_MAX, manual, progname))
		return -ENOSPC;
	if (v && !abi_opt_parse_size(v, &aggsize) &&
	    check_one(rt, "aggregation", "aggsize", aggsize, agg_limit(rt), manual, progname))
		return -ENOSPC;
	return 0;
}
