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
	pthread_mutex_lock(&rt->lock);
	err = rt_agg_snapshot(rt, agg_id, &s);
	if (err) {
		pthread_mutex_unlock(&rt->lock);
		return err;
	}
	order = calloc(s.nents + 1, sizeof(*order));
	if (!order) {
		rt_agg_snap_free(&s);
		pthread_mutex_unlock(&rt->lock);
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
	pthread_mutex_unlock(&rt->lock);
	return err;
}

FILE *dcc_runtime__err(const struct dcc_runtime *rt)
{
	return rt->err;
}

/* The text of one key value into a stream (the cases json.c's values take). */
static void key_text(struct dcc_runtime *rt, FILE *f, const struct rt_val *v)
{
	char buf[512];

	switch (v->kind) {
	case DCC_K_INT:
		if (v->is_signed)
			fprintf(f, "%lld", (long long)v->i);
		else
			fprintf(f, "%llu", (unsigned long long)(v->size >= 8 ? (uint64_t)v->i
					: (uint64_t)v->i & ((1ULL << (8 * v->size)) - 1)));
		break;
	case DCC_K_FLOAT:
		fprintf(f, "%.17Lg", rt_float_value(v));
		break;
	case DCC_K_STRING:
		fwrite(v->p, 1, strnlen(v->p, v->size), f);
		break;
	case DCC_K_INET:
		rt_inet_text(v->p, v->size, buf, sizeof(buf));
		fputs(buf, f);
		break;
	case DCC_K_STACK:
	case DCC_K_USTACK: {
		char **fr;
		int n = rt_stack_frames(rt, v, &fr);

		for (int i = 0; i < n; i++) {
			fprintf(f, "%s%s", i ? "\n" : "", fr[i]);
			free(fr[i]);
		}
		if (n >= 0)
			free(fr);
		break;
	}
	case DCC_K_SYM: case DCC_K_MOD: case DCC_K_USYM: case DCC_K_UADDR: case DCC_K_UMOD:
		rt_addr_text(rt, v, buf, sizeof(buf));
		fputs(buf, f);
		break;
	default:
		for (uint32_t i = 0; i < v->size; i++)
			fprintf(f, "%02x", (unsigned char)v->p[i]);
		break;
	}
}

int dcc_runtime__agg_key_text(struct dcc_runtime *rt, const struct dcc_agg_entry *e, uint32_t k,
			      char *buf, size_t size)
{
	char *text = NULL;
	size_t len = 0;
	struct rt_val v;
	FILE *f;

	if (k >= e->agg->nkeys)
		return -ENOENT;
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	rt_field_val(&rt->keys[e->agg->first_key + k], e->key, &v);
	key_text(rt, f, &v);
	fclose(f);
	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(buf, text, n);
		buf[n] = 0;
	}
	free(text);
	return (int)len;
}

int dcc_runtime__agg_clear(struct dcc_runtime *rt, uint32_t agg_id)
{
	int err;

	if (agg_id >= rt->hdr->naggs)
		return -ENOENT;
	pthread_mutex_lock(&rt->lock);
	err = rt_agg_clear(rt, agg_id);
	pthread_mutex_unlock(&rt->lock);
	return err;
}

int dcc_runtime__agg_trunc(struct dcc_runtime *rt, uint32_t agg_id, int64_t keep)
{
	int err;

	if (agg_id >= rt->hdr->naggs)
		return -ENOENT;
	pthread_mutex_lock(&rt->lock);
	err = rt_agg_trunc(rt, agg_id, keep);
	pthread_mutex_unlock(&rt->lock);
	return err;
}
