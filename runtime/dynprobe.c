/*
 * Probes that exist only once the object runs (the pid provider's
 * functions): the runtime's copy of the metadata is rebuilt with them
 * appended to the probe table and their names to the string table, so that
 * every reader of probes (the probe line, JSON, fault messages) sees one
 * table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

int dcc_runtime__add_probes(struct dcc_runtime *rt, const struct dcc_probe_desc *v, size_t n)
{
	const struct dcc_meta_header *h = rt->hdr;
	size_t strs = h->str_size, old = ALIGN8(rt->meta_size);
	size_t nprobes = h->nprobes + n, size;
	struct dcc_meta_header *nh;
	struct dcc_meta_probe *probes;
	char *meta, *str;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		strs += strlen(v[i].prov) + strlen(v[i].mod) + strlen(v[i].func) +
			strlen(v[i].name) + 4;
	size = old + ALIGN8(strs) + nprobes * sizeof(*probes);
	if (size > UINT32_MAX || !(meta = aligned_alloc(8, ALIGN8(size))))
		return -ENOMEM;
	memcpy(meta, rt->meta, rt->meta_size);
	nh = (void *)meta;
	str = meta + old;
	memcpy(str, rt->strs, h->str_size);
	probes = (void *)(meta + old + ALIGN8(strs));
	memcpy(probes, rt->probes, h->nprobes * sizeof(*probes));
	size_t at = h->str_size;
	for (size_t i = 0; i < n; i++) {
		const char *s[4] = { v[i].prov, v[i].mod, v[i].func, v[i].name };
		uint32_t off[4];

		for (int k = 0; k < 4; k++) {
			off[k] = (uint32_t)at;
			memcpy(str + at, s[k], strlen(s[k]) + 1);
			at += strlen(s[k]) + 1;
		}
		probes[h->nprobes + i] = (struct dcc_meta_probe){ v[i].id, off[0], off[1], off[2],
								  off[3] };
	}
	/* the string table keeps its final NUL */
	nh->str_off = (uint32_t)old;
	nh->str_size = (uint32_t)at;
	nh->probe_off = (uint32_t)(old + ALIGN8(strs));
	nh->nprobes = (uint32_t)nprobes;
	nh->size = (uint32_t)size;
	free(rt->probe_by_id);
	rt->probe_by_id = NULL;
	for (uint32_t i = 0; rt->probe_tail && i < h->nprobes; i++)
		free(rt->probe_tail[i]);
	free(rt->probe_tail);
	rt->probe_tail = NULL;
	free(rt->meta);
	rt->meta = meta;
	rt->meta_size = size;
	rt_meta_point(rt);
	return rt_probe_index(rt);
}
