/*
 * The data side of the runtime for C applications: records handed to a
 * callback instead of printed, their arguments decoded one by one, and
 * aggregation entries walked in printing order with their merged values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

int dcc_runtime__record_arg(const struct dcc_runtime *rt, const void *rec, size_t size,
			    uint32_t action, uint32_t n, int64_t *ival, const char **sval,
			    size_t *slen)
{
	const struct dcc_meta_clause *c;
	const struct dcc_meta_action *a;
	struct dcc_rec_hdr h;
	struct rt_val v;

	if (size < sizeof(h))
		return -EINVAL;
	memcpy(&h, rec, sizeof(h));
	if (h.epid == 0 || h.epid > rt->hdr->nclauses)
		return -ENOENT;
	c = &rt->clauses[h.epid - 1];
	if (size < c->size)
		return -EINVAL;
	if (action >= c->nactions)
		return -ENOENT;
	a = &rt->actions[c->first_action + action];
	if (n >= a->nargs)
		return -ENOENT;
	rt_field_val(&rt->args[a->first_arg + n], rec, &v);
	if (ival)
		*ival = v.i;
	if (sval)
		*sval = v.p;
	if (slen)
		*slen = v.kind == DCC_K_FLOAT ? v.size : v.p ? strnlen(v.p, v.size) : 0;
	return v.kind;
}

void dcc_runtime__set_record_fn(struct dcc_runtime *rt, dcc_record_fn fn, void *ctx)
{
	rt->record_fn = fn;
	rt->record_ctx = ctx;
}

/* A record to the application's callback; then the actions that change
 * state (exit, commit, clear, ...) run, those that print do not. */
void rt_record_to_fn(struct dcc_runtime *rt, const struct dcc_rec_hdr *h,
		     const struct dcc_meta_clause *c, const char *rec, size_t size)
{
	rt->record_fn(rt->record_ctx, h, rec, size);
	for (uint32_t i = 0; i < c->nactions; i++) {
		uint32_t ai = c->first_action + i;

		switch (rt->actions[ai].kind) {
		case DCC_ACT_PRINTF:
		case DCC_ACT_TRACE:
		case DCC_ACT_TRACEMEM:
		case DCC_ACT_PRINTA:
		case DCC_ACT_DEFAULT:
			break;
		default:
			rt_action(rt, rt->out, c, ai, rec);
			break;
		}
	}
}

int dcc_runtime__agg_walk(struct dcc_runtime *rt, uint32_t agg_id, dcc_agg_fn fn, void *ctx)
{
	struct agg_ent **order;
	struct agg_snap s;
	int err;

	if (agg_id >= rt->hdr->naggs)
		return -ENOENT;
	err = rt_agg_snapshot(rt, agg_id, &s);
	if (err)
		return err;
	order = calloc(s.nents + 1, sizeof(*order));
	if (!order) {
		rt_agg_snap_free(&s);
		return -ENOMEM;
	}
	rt_aggprint_sort(rt, &s, order);
	for (size_t i = 0; i < s.nents && !err; i++) {
		struct dcc_agg_entry e = {
			.agg = s.agg,
			.key = order[i]->key,
			.value = rt_agg_is_hist(s.agg) ? 0
				 : rt_agg_value(s.agg, order[i]->val, rt->agg_state[agg_id].normal),
			.data = order[i]->val,
			.nwords = (uint32_t)s.nwords,
		};

		err = fn(ctx, &e);
	}
	free(order);
	rt_agg_snap_free(&s);
	return err;
}

FILE *dcc_runtime__err(const struct dcc_runtime *rt)
{
	return rt->err;
}
