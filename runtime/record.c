/*
 * One ring-buffer record to output: checks its header against the clause
 * table, prints the probe line unless quiet, then runs the clause's actions
 * (printf, trace, exit, printa, clear, trunc) over the record's bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

void rt_field_val(const struct dcc_meta_field *f, const void *base, struct rt_val *v)
{
	const unsigned char *p = (const unsigned char *)base + f->offset;

	memset(v, 0, sizeof(*v));
	v->kind = f->kind;
	v->size = f->size;
	v->is_signed = f->is_signed;
	if (f->kind == DCC_K_INT) {
		uint64_t u = 0;

		/* little-endian: the low `size` bytes are the value */
		for (uint32_t i = 0; i < f->size; i++)
			u |= (uint64_t)p[i] << (8 * i);
		if (f->size < 8 && f->is_signed && (u >> (8 * f->size - 1)) & 1)
			u |= ~0ULL << (8 * f->size);
		v->i = (int64_t)u;
	} else if (f->kind == DCC_K_AGG) {
		v->i = f->offset;
	} else {
		v->p = (const char *)p;
	}
}

static void action_error(struct dcc_runtime *rt, const struct dcc_meta_clause *c, uint32_t ai,
			 const char *what, const char *why)
{
	if (rt->action_warned[ai])
		return;
	rt->action_warned[ai] = 1;
	rt_error(rt, "%s in %s: %s", what, rt_str(rt, c->loc), why);
}

static void do_printf(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_clause *c,
		      uint32_t ai, const char *rec)
{
	const struct dcc_meta_action *a = &rt->actions[ai];
	struct rt_val stackvals[16], *vals = stackvals;
	char why[128];

	if (a->nargs > 16 && !(vals = calloc(a->nargs, sizeof(*vals))))
		return;
	for (uint32_t i = 0; i < a->nargs; i++)
		rt_field_val(&rt->args[a->first_arg + i], rec, &vals[i]);
	if (pf_format(rt, out, rt_str(rt, a->fmt), vals, a->nargs, NULL, NULL, why,
		      sizeof(why)))
		action_error(rt, c, ai, "printf", why);
	if (vals != stackvals)
		free(vals);
}

static void do_printa(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_clause *c,
		      uint32_t ai)
{
	const struct dcc_meta_action *a = &rt->actions[ai];
	uint32_t stackids[16], *ids = stackids;
	const char *fmt = a->fmt ? rt_str(rt, a->fmt) : NULL;
	int err = 0;

	if (a->nargs > 16 && !(ids = calloc(a->nargs, sizeof(*ids))))
		return;
	for (uint32_t i = 0; i < a->nargs; i++)
		ids[i] = rt->args[a->first_arg + i].offset;
	if (fmt) {
		err = rt_printa(rt, out, fmt, ids, a->nargs);
	} else {
		/* The default form takes one aggregation at a time. */
		for (uint32_t i = 0; i < a->nargs && !err; i++)
			err = rt_printa(rt, out, NULL, &ids[i], 1);
	}
	if (err)
		action_error(rt, c, ai, "printa", strerror(-err));
	if (ids != stackids)
		free(ids);
}

static void do_trunc(struct dcc_runtime *rt, const struct dcc_meta_clause *c, uint32_t ai,
		     const char *rec)
{
	const struct dcc_meta_action *a = &rt->actions[ai];
	struct rt_val v = {0};
	int err;

	if (a->nargs > 1)
		rt_field_val(&rt->args[a->first_arg + 1], rec, &v);
	err = agg_trunc(rt, rt->args[a->first_arg].offset, a->nargs > 1 ? v.i : 0);
	if (err)
		action_error(rt, c, ai, "trunc", strerror(-err));
}

void rt_action(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_clause *c, uint32_t ai,
	       const char *rec)
{
	const struct dcc_meta_action *a = &rt->actions[ai];
	struct rt_val v;

	switch (a->kind) {
	case DCC_ACT_PRINTF:
		do_printf(rt, out, c, ai, rec);
		break;
	case DCC_ACT_TRACE:
		rt_field_val(&rt->args[a->first_arg], rec, &v);
		rt_trace(rt, out, &v);
		break;
	case DCC_ACT_EXIT:
		rt_field_val(&rt->args[a->first_arg], rec, &v);
		rt->exited = true;
		rt->exit_status = (int)v.i;
		break;
	case DCC_ACT_PRINTA:
		do_printa(rt, out, c, ai);
		break;
	case DCC_ACT_CLEAR:
		for (uint32_t k = 0; k < a->nargs; k++) {
			int err = agg_clear(rt, rt->args[a->first_arg + k].offset);

			if (err)
				action_error(rt, c, ai, "clear", strerror(-err));
		}
		break;
	case DCC_ACT_TRUNC:
		do_trunc(rt, c, ai, rec);
		break;
	case DCC_ACT_DEFAULT:
		break;
	}
}

static void probe_line(struct dcc_runtime *rt, const struct dcc_rec_hdr *h)
{
	const struct dcc_meta_probe *p = rt_probe(rt, h->probe_id);
	char name[512];

	if (!rt->header_done) {
		fprintf(rt->out, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		rt->header_done = true;
	}
	snprintf(name, sizeof(name), "%s:%s", p ? rt_str(rt, p->func) : "",
		 p ? rt_str(rt, p->name) : "");
	fprintf(rt->out, "%3d %6d %32s ", (int)h->cpu, (int)h->probe_id, name);
}

int dcc_runtime__handle_record(struct dcc_runtime *rt, const void *data, size_t size)
{
	const struct dcc_meta_clause *c;
	struct dcc_rec_hdr h;
	const char *rec = data;

	if (size < sizeof(h)) {
		if (!rt->bad_epid_warned)
			rt_error(rt, "bad record of %zu bytes: shorter than its header", size);
		rt->bad_epid_warned = true;
		return -EINVAL;
	}
	memcpy(&h, data, sizeof(h));
	if (h.epid == 0 || h.epid > rt->hdr->nclauses) {
		if (!rt->bad_epid_warned)
			rt_error(rt, "bad record: unknown epid %u", h.epid);
		rt->bad_epid_warned = true;
		return -EINVAL;
	}
	c = &rt->clauses[h.epid - 1];
	if (size < c->size) {
		if (!rt->clause_warned[h.epid - 1])
			rt_error(rt, "bad record for epid %u (%s): %zu bytes, expected %u", h.epid,
				 rt_str(rt, c->loc), size, c->size);
		rt->clause_warned[h.epid - 1] = 1;
		return -EINVAL;
	}
	if (rt->json) {
		char *rows = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&rows, &len);

		if (!m)
			return -ENOMEM;
		json_record(rt, &h, c, rec, m);
		fclose(m);
		fwrite(rows, 1, len, rt->out);
		free(rows);
		return 0;
	}
	if (!rt->quiet)
		probe_line(rt, &h);
	for (uint32_t i = 0; i < c->nactions; i++)
		rt_action(rt, rt->out, c, c->first_action + i, rec);
	if (!rt->quiet)
		fputc('\n', rt->out);
	return 0;
}
