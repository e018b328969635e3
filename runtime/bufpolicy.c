/*
 * bufpolicy=ring and bufpolicy=fill, on the consumer side. The BPF ring
 * buffer is drained at switchrate either way; what the policies change is
 * which records reach the output, each CPU's records counted in bytes
 * against bufsize (a record's bytes and the ring buffer's 8-byte header,
 * rounded up to 8, as the loader counts them):
 *   ring: each CPU keeps only its latest bufsize bytes of records, the
 *         oldest overwritten, and they are printed when tracing stops
 *         (after END), CPU by CPU; an exit() counts when it arrives;
 *   fill: records print as they come until one would overflow its CPU's
 *         bufsize; then tracing stops as if exit(0) had been called, and
 *         later records of that CPU are dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <dcc/abi_opt.h>
#include "rt.h"

struct held {
	struct held *next;
	size_t size;
	char data[];
};

struct cpu_ring {
	struct held *head, **tail;
	uint64_t bytes;
};

static uint64_t cost(size_t size)
{
	return ((uint64_t)size + 7) / 8 * 8 + 8;
}

void rt_bufpolicy_init(struct dcc_runtime *rt)
{
	const char *v = dcc_runtime__option(rt, "bufpolicy");
	const char *sz = dcc_runtime__option(rt, "bufsize");

	rt->policy = RT_POLICY_SWITCH;
	if (v && !strcmp(v, "ring"))
		rt->policy = RT_POLICY_RING;
	else if (v && !strcmp(v, "fill"))
		rt->policy = RT_POLICY_FILL;
	if (abi_opt_parse_size(sz ? sz : abi_opt_find("bufsize")->def, &rt->policy_bytes))
		rt->policy_bytes = 4 << 20;
}

/* The CPU's state, grown on first use. */
static struct cpu_ring *cpu_ring(struct dcc_runtime *rt, uint32_t cpu)
{
	if (cpu >= rt->npolicy_cpus) {
		uint32_t n = cpu + 1;
		struct cpu_ring *r = realloc(rt->policy_cpus, n * sizeof(*r));

		if (!r)
			return NULL;
		for (uint32_t i = rt->npolicy_cpus; i < n; i++) {
			r[i].head = NULL;
			r[i].tail = &r[i].head;
			r[i].bytes = 0;
		}
		rt->policy_cpus = r;
		rt->npolicy_cpus = n;
	}
	return &rt->policy_cpus[cpu];
}

/* An exit() in a held record decides the status now: tracing must stop. */
static void note_exit(struct dcc_runtime *rt, const struct dcc_meta_clause *c, const char *rec)
{
	for (uint32_t i = 0; i < c->nactions; i++)
		if (rt->actions[c->first_action + i].kind == DCC_ACT_EXIT)
			rt_exit_action(rt, &rt->actions[c->first_action + i], rec);
}

int rt_bufpolicy_take(struct dcc_runtime *rt, const struct dcc_rec_hdr *h,
		      const struct dcc_meta_clause *c, const void *data, size_t size)
{
	/* records are data: a CPU number past the machine's would size the
	 * table from it (and cpu + 1 can wrap) */
	int possible = libbpf_num_possible_cpus();
	if (h->cpu >= (uint32_t)(possible > 0 ? possible : 8192))
		return -EINVAL;
	struct cpu_ring *r = cpu_ring(rt, h->cpu);
	struct held *e;

	if (!r)
		return -ENOMEM;
	if (rt->policy == RT_POLICY_FILL) {
		if (r->bytes + cost(size) > rt->policy_bytes) {
			/* the buffer is full: tracing stops, the status stays 0
			 * unless an exit() came first */
			if (!rt->exited)
				rt->exit_status = 0;
			rt->exited = true;
			return 1;
		}
		r->bytes += cost(size);
		return 0;
	}
	note_exit(rt, c, data);
	if (cost(size) > rt->policy_bytes)
		return 1;
	if (!(e = malloc(sizeof(*e) + size)))
		return -ENOMEM;
	e->next = NULL;
	e->size = size;
	memcpy(e->data, data, size);
	*r->tail = e;
	r->tail = &e->next;
	r->bytes += cost(size);
	while (r->bytes > rt->policy_bytes) {
		struct held *old = r->head;

		r->head = old->next;
		r->bytes -= cost(old->size);
		free(old);
	}
	if (!r->head)
		r->tail = &r->head;
	return 1;
}

void rt_bufpolicy_flush(struct dcc_runtime *rt)
{
	if (rt->policy != RT_POLICY_RING)
		return;
	/* replayed records print, and so does anything after */
	rt->policy = RT_POLICY_SWITCH;
	for (uint32_t cpu = 0; cpu < rt->npolicy_cpus; cpu++) {
		struct cpu_ring *r = &rt->policy_cpus[cpu];
		struct held *e = r->head, *next;

		for (; e; e = next) {
			next = e->next;
			rt_handle_record(rt, e->data, e->size);
			free(e);
		}
		r->head = NULL;
		r->tail = &r->head;
		r->bytes = 0;
	}
}

void rt_bufpolicy_free(struct dcc_runtime *rt)
{
	for (uint32_t cpu = 0; cpu < rt->npolicy_cpus; cpu++) {
		struct held *e = rt->policy_cpus[cpu].head, *next;

		for (; e; e = next) {
			next = e->next;
			free(e);
		}
	}
	free(rt->policy_cpus);
	rt->policy_cpus = NULL;
	rt->npolicy_cpus = 0;
}

void dcc_runtime__flush_ring(struct dcc_runtime *rt)
{
	pthread_mutex_lock(&rt->lock);
	rt_bufpolicy_flush(rt);
	pthread_mutex_unlock(&rt->lock);
}
