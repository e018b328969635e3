/*
 * Drop counters to messages: reads the per-CPU DCC_MAP_DROPS array and
 * reports what grew since the last look, worded as DTrace words it
 * ("1 drop on CPU 0", "3 dynamic variable drops").
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

int dcc_runtime__set_drops_fd(struct dcc_runtime *rt, int fd)
{
	if (rt->ncpus <= 0)
		rt->ncpus = libbpf_num_possible_cpus();
	if (rt->ncpus <= 0)
		return rt->ncpus < 0 ? rt->ncpus : -EINVAL;
	free(rt->drops_seen);
	rt->drops_seen = calloc((size_t)DCC_DROP_NR * rt->ncpus, sizeof(uint64_t));
	if (!rt->drops_seen)
		return -ENOMEM;
	rt->drops_fd = fd;
	return 0;
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

int dcc_runtime__report_drops(struct dcc_runtime *rt)
{
	uint64_t *now;
	int nmsg = 0;

	if (rt->drops_fd < 0)
		return 0;
	now = calloc(rt->ncpus, sizeof(*now));
	if (!now)
		return -ENOMEM;
	for (uint32_t kind = 0; kind < DCC_DROP_NR; kind++) {
		uint64_t *seen = rt->drops_seen + (size_t)kind * rt->ncpus, sum = 0;
		int err = bpf_map_lookup_elem(rt->drops_fd, &kind, now);

		/* a map with fewer counters than DCC_DROP_NR has no such drops */
		if (err == -ENOENT || (err < 0 && errno == ENOENT))
			continue;
		if (err) {
			free(now);
			return err < 0 ? err : -errno;
		}
		for (int c = 0; c < rt->ncpus; c++) {
			uint64_t d = now[c] - seen[c];

			seen[c] = now[c];
			if (!d)
				continue;
			switch (kind) {
			case DCC_DROP_PRINCIPAL:
				rt_error(rt, "%llu drop%s on CPU %d", (unsigned long long)d,
					 plural(d), c);
				nmsg++;
				break;
			case DCC_DROP_AGG:
				rt_error(rt, "%llu aggregation drop%s on CPU %d",
					 (unsigned long long)d, plural(d), c);
				nmsg++;
				break;
			default:
				sum += d;
				break;
			}
		}
		if (!sum)
			continue;
		nmsg++;
		if (kind == DCC_DROP_DYNVAR)
			rt_error(rt, "%llu dynamic variable drop%s", (unsigned long long)sum,
				 plural(sum));
		else if (kind == DCC_DROP_ERROR)
			rt_error(rt, "%llu error%s in ERROR probe enabling", (unsigned long long)sum, plural(sum));
		else if (kind == DCC_DROP_SPEC)
			rt_error(rt, "%llu speculative drop%s", (unsigned long long)sum,
				 plural(sum));
		else if (kind == DCC_DROP_SPEC_BUSY)
			rt_error(rt, "%llu failed speculation%s (available buffer(s) still busy)",
				 (unsigned long long)sum, plural(sum));
		else if (kind == DCC_DROP_SPEC_UNAVAIL)
			rt_error(rt, "%llu failed speculation%s (no speculative buffer available)",
				 (unsigned long long)sum, plural(sum));
		else
			rt_error(rt, "%llu drop%s of kind %u", (unsigned long long)sum,
				 plural(sum), kind);
	}
	free(now);
	return nmsg;
}
