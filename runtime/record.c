/*
 * One ring-buffer record to output: checks its header against the clause
 * table, holds it if speculative, prints the probe line unless quiet, then
 * runs the clause's actions (printf, trace, tracemem, exit, printa, clear,
 * trunc, normalize, setopt, commit, discard, system, freopen, ftruncate)
 * over the record's bytes. Fault records become DTrace's error line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dcc/abi_names.h>
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
	if (rt_printf_format(rt, out, rt_str(rt, a->fmt), vals, a->nargs, NULL, NULL, why,
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
		/* The default form takes one aggregation at a time, each after
		 * a blank line, printed even when the aggregation is empty */
		for (uint32_t i = 0; i < a->nargs && !err; i++) {
			if (!rt->json)
				fputc('\n', out);
			err = rt_printa(rt, out, NULL, &ids[i], 1);
		}
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
	err = rt_agg_trunc(rt, rt->args[a->first_arg].offset, a->nargs > 1 ? v.i : 0);
	if (err)
		action_error(rt, c, ai, "trunc", strerror(-err));
}

/* setopt("name"), setopt("name", "value") as "name=value", or the name
 * with the value the clause recorded */
static void do_setopt(struct dcc_runtime *rt, const struct dcc_meta_clause *c, uint32_t ai,
		      const char *rec)
{
	const struct dcc_meta_action *a = &rt->actions[ai];
	const char *opt = rt_str(rt, a->fmt), *eq = strchr(opt, '=');
	char *name = eq ? strndup(opt, eq - opt) : strdup(opt), *val = NULL;
	char why[128];

	if (!name)
		return;
	if (a->nargs == 1) {
		struct rt_val v;
		rt_field_val(&rt->args[a->first_arg], rec, &v);
		val = strndup(v.p, v.size);
	}
	if (rt_setopt(rt, name, val ? val : eq ? eq + 1 : NULL)) {
		snprintf(why, sizeof(why), "couldn't set option '%s': Invalid option name", name);
		action_error(rt, c, ai, "setopt", why);
	}
	free(val);
	free(name);
}

/* A fault record: DTrace for Linux's error line on the error stream. */
static int fault(struct dcc_runtime *rt, const struct dcc_rec_hdr *h, const char *rec,
		 size_t size)
{
	const struct dcc_meta_probe *p = rt_probe(rt, h->probe_id);
	const char *clause = h->epid && h->epid <= rt->hdr->nclauses
			     ? rt_str(rt, rt->clauses[h->epid - 1].loc) : "an unknown clause";
	struct dcc_rec_fault f;
	char detail[48] = "", name[48];

	if (size < sizeof(*h) + sizeof(f)) {
		if (!rt->bad_epid_warned)
			rt_error(rt, "bad fault record of %zu bytes", size);
		rt->bad_epid_warned = true;
		return -EINVAL;
	}
	memcpy(&f, rec + sizeof(*h), sizeof(f));
	switch (f.fault) {
	case DCC_FAULT_BADADDR: case DCC_FAULT_BADALIGN: case DCC_FAULT_KPRIV:
	case DCC_FAULT_UPRIV: case DCC_FAULT_BADSTACK: case DCC_FAULT_BADSIZE:
		snprintf(detail, sizeof(detail), " (0x%llx)", (unsigned long long)f.detail);
		break;
	case DCC_FAULT_BADINDEX:
		snprintf(detail, sizeof(detail), " (%lld)", (long long)f.detail);
		break;
	}
	if (abi_fault_name(f.fault))
		snprintf(name, sizeof(name), "%s", abi_fault_name(f.fault));
	else
		snprintf(name, sizeof(name), "unknown fault %u", f.fault);
	rt_error(rt, "error in %s for probe ID %u (%s:%s:%s:%s): %s%s at BPF pc %u", clause,
		 h->probe_id, p ? rt_str(rt, p->prov) : "", p ? rt_str(rt, p->mod) : "",
		 p ? rt_str(rt, p->func) : "", p ? rt_str(rt, p->name) : "", name, detail, f.pc);
	return 0;
}

/* The first exit() decides the status, as in DTrace, where it stops every
 * later clause; only END's exit() replaces it. Two CPUs can both exit()
 * before either sees the other's. */
void rt_exit_action(struct dcc_runtime *rt, const struct dcc_meta_action *a, const char *rec)
{
	struct dcc_rec_hdr h;
	struct rt_val v;

	memcpy(&h, rec, sizeof(h));
	rt_field_val(&rt->args[a->first_arg], rec, &v);
	if (!rt->exited || h.probe_id == DCC_PROBE_END)
		rt->exit_status = (int)v.i;
	rt->exited = true;
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
		if (v.kind == DCC_K_BYTES &&
		    rt_is_char_array(rt_str(rt, rt->args[a->first_arg].type)))
			rt_trace_chars(rt, out, &v);
		else
			rt_trace(rt, out, &v);
		break;
	case DCC_ACT_TRACEMEM: {
		struct rt_val n;

		rt_field_val(&rt->args[a->first_arg], rec, &v);
		if (a->nargs > 1) {
			rt_field_val(&rt->args[a->first_arg + 1], rec, &n);
			if (n.i >= 0 && (uint64_t)n.i < v.size)
				v.size = (uint32_t)n.i;
		}
		rt_hexdump(out, v.p, v.size);
		break;
	}
	case DCC_ACT_EXIT:
		rt_exit_action(rt, a, rec);
		break;
	case DCC_ACT_PRINTA:
		do_printa(rt, out, c, ai);
		break;
	case DCC_ACT_CLEAR:
		for (uint32_t k = 0; k < a->nargs; k++) {
			int err = rt_agg_clear(rt, rt->args[a->first_arg + k].offset);

			if (err)
				action_error(rt, c, ai, "clear", strerror(-err));
		}
		break;
	case DCC_ACT_TRUNC:
		do_trunc(rt, c, ai, rec);
		break;
	case DCC_ACT_NORMALIZE:
		rt_field_val(&rt->args[a->first_arg + 1], rec, &v);
		if (v.i <= 0)
			action_error(rt, c, ai, "normalize", "the factor must be positive");
		else
			rt->agg_state[rt->args[a->first_arg].offset].normal = v.i;
		break;
	case DCC_ACT_DENORMALIZE:
		for (uint32_t k = 0; k < a->nargs; k++)
			rt->agg_state[rt->args[a->first_arg + k].offset].normal = 1;
		break;
	case DCC_ACT_SETOPT:
		do_setopt(rt, c, ai, rec);
		break;
	case DCC_ACT_COMMIT:
	case DCC_ACT_DISCARD:
		rt_field_val(&rt->args[a->first_arg], rec, &v);
		if (a->kind == DCC_ACT_COMMIT)
			rt_spec_commit(rt, (uint32_t)v.i);
		else
			rt_spec_discard(rt, (uint32_t)v.i);
		break;
	case DCC_ACT_SYSTEM: case DCC_ACT_FREOPEN: case DCC_ACT_FTRUNCATE:
		rt_destr_action(rt, out, c, ai, rec);
		break;
	case DCC_ACT_PRINT:
		rt_field_val(&rt->args[a->first_arg], rec, &v);
		if (a->nargs == 2) {
			/* print(p): "0xADDR = *", then *p indented as DTrace for Linux does */
			fprintf(out, "0x%llx = *\n%44s", (unsigned long long)v.i, "");
			rt_field_val(&rt->args[a->first_arg + 1], rec, &v);
		}
		rt_print(rt, out, a->fmt, &v);
		break;
	case DCC_ACT_DEFAULT:
		break;
	}
}

/* "entry", "return", or ending in "-entry"/"-return" (not "carpentry"). */
static bool flow_name(const char *n, const char *what)
{
	size_t ln = strlen(n), lw = strlen(what);

	return ln >= lw && strcmp(n + ln - lw, what) == 0 && (ln == lw || n[ln - lw - 1] == '-');
}

/* The -F (flowindent) form of the probe line: indent, arrow, function. */
static void flow_line(struct dcc_runtime *rt, const struct dcc_rec_hdr *h,
		      const struct dcc_meta_probe *p)
{
	const char *func = p ? rt_str(rt, p->func) : "", *name = p ? rt_str(rt, p->name) : "";
	bool sys = p && strcmp(rt_str(rt, p->prov), "syscall") == 0;
	bool entry = flow_name(name, "entry"), ret = !entry && flow_name(name, "return");
	char line[600];

	/* the same probe again through another clause is not a new level */
	if (entry && rt->flow_last_epid && rt->flow_last_epid != h->epid &&
	    rt->flow_last_probe == h->probe_id)
		entry = false;
	if (ret && rt->flow_indent > 0)
		rt->flow_indent -= 2;
	if (entry || ret)
		snprintf(line, sizeof(line), "%*s%s%s", rt->flow_indent, "",
			 entry ? (sys ? " => " : " -> ") : (sys ? " <= " : " <- "), func);
	else
		snprintf(line, sizeof(line), "%*s| %s:%s", rt->flow_indent, "", func, name);
	if (!rt->testing)
		fprintf(rt->out, "%3d ", (int)h->cpu);
	fprintf(rt->out, "%-41s ", line);
	if (entry && rt->flow_indent < 200)
		rt->flow_indent += 2;
	rt->flow_last_epid = h->epid;
	rt->flow_last_probe = h->probe_id;
}

static void probe_line(struct dcc_runtime *rt, const struct dcc_rec_hdr *h)
{
	const struct dcc_meta_probe *p = rt_probe(rt, h->probe_id);
	char name[512];

	if (!rt->header_done) {
		if (rt->testing)
			fprintf(rt->out, rt->flowindent ? "%-41s\n" : "%32s\n",
				rt->flowindent ? "FUNCTION" : "FUNCTION:NAME");
		else if (rt->flowindent)
			fprintf(rt->out, "%3s %-41s\n", "CPU", "FUNCTION");
		else
			fprintf(rt->out, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		rt->header_done = true;
	}
	if (rt->flowindent) {
		flow_line(rt, h, p);
		return;
	}
	/* "%6d %32s " of each probe is made once */
	if (rt->testing) {
		snprintf(name, sizeof(name), "%s:%s", p ? rt_str(rt, p->func) : "",
			 p ? rt_str(rt, p->name) : "");
		fprintf(rt->out, "%32s ", name);
		return;
	}
	if (p && rt->probe_tail && rt->probe_tail[p - rt->probes]) {
		fprintf(rt->out, "%3d ", (int)h->cpu);
		fputs(rt->probe_tail[p - rt->probes], rt->out);
		return;
	}
	snprintf(name, sizeof(name), "%s:%s", p ? rt_str(rt, p->func) : "",
		 p ? rt_str(rt, p->name) : "");
	if (p && (rt->probe_tail || (rt->probe_tail = calloc(rt->hdr->nprobes,
							     sizeof(char *)))) &&
	    asprintf(&rt->probe_tail[p - rt->probes], "%6d %32s ", (int)h->probe_id, name) < 0)
		rt->probe_tail[p - rt->probes] = NULL;
	fprintf(rt->out, "%3d %6d %32s ", (int)h->cpu, (int)h->probe_id, name);
}

/* A record as JSON: its line, then the rows its printa() actions made. */
static int json_rec(struct dcc_runtime *rt, const struct dcc_rec_hdr *h,
		    const struct dcc_meta_clause *c, const char *rec, bool silent)
{
	char *line = NULL, *rows = NULL;
	size_t llen = 0, rlen = 0;
	FILE *lf = open_memstream(&line, &llen), *rf = open_memstream(&rows, &rlen);

	if (!lf || !rf) {
		if (lf)
			fclose(lf);
		if (rf)
			fclose(rf);
		free(line);
		free(rows);
		return -ENOMEM;
	}
	rt_json_record(rt, lf, h, c, rec, rf);
	fclose(lf);
	fclose(rf);
	if ((!silent && llen) || rlen)
		rt_json_header(rt, rt->out);
	if (!silent)
		fwrite(line, 1, llen, rt->out);
	fwrite(rows, 1, rlen, rt->out);
	free(line);
	free(rows);
	return 0;
}

int rt_handle_record(struct dcc_runtime *rt, const void *data, size_t size)
{
	const struct dcc_meta_clause *c;
	struct dcc_rec_hdr h;
	const char *rec = data;
	bool silent;

	if (size < sizeof(h)) {
		if (!rt->bad_epid_warned)
			rt_error(rt, "bad record of %zu bytes: shorter than its header", size);
		rt->bad_epid_warned = true;
		return -EINVAL;
	}
	memcpy(&h, data, sizeof(h));
	if (h.flags & DCC_REC_F_FAULT)
		return fault(rt, &h, rec, size);
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
	if (rt->policy != RT_POLICY_SWITCH) {
		int took = rt_bufpolicy_take(rt, &h, c, data, size);
		if (took)
			return took < 0 ? took : 0;
	}
	if (h.flags & DCC_REC_F_SPEC) {
		if (rt_spec_hold(rt, h.flags >> DCC_REC_SPEC_SHIFT, data, size))
			return -ENOMEM;
		return 0;
	}
	if (rt->record_fn) {
		rt_record_to_fn(rt, &h, c, rec, size);
		return 0;
	}
	silent = c->nactions > 0;
	for (uint32_t i = 0; i < c->nactions; i++) {
		uint32_t k = rt->actions[c->first_action + i].kind;

		silent &= k == DCC_ACT_COMMIT || k == DCC_ACT_DISCARD;
	}
	if (rt->json)
		return json_rec(rt, &h, c, rec, silent);
	if (silent) {
		for (uint32_t i = 0; i < c->nactions; i++)
			rt_action(rt, rt->out, c, c->first_action + i, rec);
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

int dcc_runtime__handle_record(struct dcc_runtime *rt, const void *data, size_t size)
{
	int err;

	pthread_mutex_lock(&rt->lock);
	err = rt_handle_record(rt, data, size);
	pthread_mutex_unlock(&rt->lock);
	return err;
}
