/*
 * Aggregation entries to text: sorts rows as DTrace does (by value then key
 * by default; aggsortkey, aggsortkeypos, aggsortpos, aggsortrev), prints the
 * default printa() form and formatted printa() over one or several
 * aggregations sharing a key signature, and the implicit print at the end.
 * The default form follows agghist (values as bars under one header),
 * aggpack (histograms packed on one line a key) and aggpercpu (each CPU's
 * value under the merged one).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* One printed row: a key and each aggregation's merged value (NULL: none). */
struct prow {
	const char *key;
	const int64_t **vals;
	const int64_t *percpu; /* aggpercpu: the first aggregation's values by CPU */
	/* worked out once before sorting (10^6 rows: 2 * 10^7 comparisons) */
	long double w;  /* the sorting value: a histogram's weight or the scalar */
	int64_t z;      /* a histogram's zero bucket, for ties */
	uint64_t k0;    /* the first sorting key when it is an integer */
};

struct sorter {
	struct dcc_runtime *rt;
	const struct dcc_meta_agg **aggs;
	int pos;        /* the aggregation whose value sorts */
	int keypos;
	bool bykey, rev;
	const int64_t *zero;
	const struct dcc_meta_field *k0; /* int_key0() */
};

/* The row's sorting value, as valcmp orders values: a histogram by its
 * weight then its zero bucket, anything else by its scalar. */
static void sort_value(const struct dcc_meta_agg *a, const int64_t *v, struct prow *row)
{
	if (rt_agg_is_hist(a)) {
		row->w = rt_hist_weight(a, v, &row->z);
	} else {
		row->w = 0;
		row->z = rt_agg_scalar(a, v);
	}
}

static int cached_valcmp(const struct prow *l, const struct prow *r)
{
	if (l->w != r->w)
		return l->w < r->w ? -1 : 1;
	return l->z < r->z ? -1 : l->z > r->z;
}

/* The first sorting key's field when it is an integer (NULL if not). */
static const struct dcc_meta_field *int_key0(const struct sorter *st)
{
	const struct dcc_meta_agg *a = st->aggs[0];
	const struct dcc_meta_field *f;

	if (!a->nkeys)
		return NULL;
	f = &st->rt->keys[a->first_key + st->keypos % a->nkeys];
	return f->kind == DCC_K_INT ? f : NULL;
}

static int keycmp(const struct sorter *st, const struct prow *lr, const struct prow *rr)
{
	const struct dcc_meta_agg *a = st->aggs[0];
	const char *l = lr->key, *r = rr->key;
	uint32_t n = a->nkeys, i = 0;

	if (st->k0) {
		/* unsigned, as DTrace does: negative keys sort last */
		if (lr->k0 != rr->k0)
			return lr->k0 < rr->k0 ? -1 : 1;
		i = 1;
	}
	for (; i < n; i++) {
		const struct dcc_meta_field *f = &st->rt->keys[a->first_key + (st->keypos + i) % n];
		int c;

		if (f->kind == DCC_K_INT) {
			struct rt_val lv, rv;

			rt_field_val(f, l, &lv);
			rt_field_val(f, r, &rv);
			/* unsigned, as DTrace does: negative keys sort last */
			c = (uint64_t)lv.i < (uint64_t)rv.i ? -1 : (uint64_t)lv.i > (uint64_t)rv.i;
		} else if (rt_is_stack_kind(f->kind) || rt_is_addr_kind(f->kind)) {
			c = rt_words_cmp(l + f->offset, r + f->offset, f->size);
		} else {
			c = memcmp(l + f->offset, r + f->offset, f->size);
		}
		if (c)
			return c;
	}
	return 0;
}

static int rowcmp(const void *x, const void *y, void *ctx)
{
	const struct sorter *st = ctx;
	const struct prow *l = x, *r = y;
	int c;

	if (st->bykey) {
		c = keycmp(st, l, r);
		if (!c)
			c = cached_valcmp(l, r);
	} else {
		c = cached_valcmp(l, r);
		if (!c)
			c = keycmp(st, l, r);
	}
	return st->rev ? -c : c;
}

static void sort_rows(struct dcc_runtime *rt, struct prow *rows, size_t n,
		      const struct dcc_meta_agg **aggs, int naggs, bool plain, const int64_t *zero)
{
	struct sorter st = {
		.rt = rt, .aggs = aggs, .zero = zero,
		.pos = plain || rt->aggsortpos >= naggs ? 0 : rt->aggsortpos,
		.keypos = plain || !aggs[0]->nkeys ? 0 : rt->aggsortkeypos % (int)aggs[0]->nkeys,
		.bykey = !plain && rt->aggsortkey,
		.rev = !plain && rt->aggsortrev,
	};

	st.k0 = int_key0(&st);
	for (size_t i = 0; i < n; i++) {
		const int64_t *v = rows[i].vals[st.pos] ? rows[i].vals[st.pos] : zero;

		sort_value(aggs[st.pos], v, &rows[i]);
		if (st.k0) {
			struct rt_val kv;

			rt_field_val(st.k0, rows[i].key, &kv);
			rows[i].k0 = (uint64_t)kv.i;
		}
	}
	qsort_r(rows, n, sizeof(*rows), rowcmp, &st);
}

static void sort_snap(struct dcc_runtime *rt, const struct agg_snap *s, struct agg_ent **order,
		      bool plain)
{
	struct prow *rows = calloc(s->nents + 1, sizeof(*rows));
	const int64_t **vals = calloc(s->nents + 1, sizeof(*vals));
	const struct dcc_meta_agg *aggs[1] = { s->agg };

	if (!rows || !vals) {
		/* no memory to sort: keep the map's order */
		for (size_t i = 0; i < s->nents; i++)
			order[i] = &s->ents[i];
		goto out;
	}
	for (size_t i = 0; i < s->nents; i++) {
		rows[i].key = s->ents[i].key;
		vals[i] = s->ents[i].val;
		rows[i].vals = &vals[i];
	}
	sort_rows(rt, rows, s->nents, aggs, 1, plain, NULL);
	/* rows[i].vals points into vals[]: its index names the entry */
	for (size_t i = 0; i < s->nents; i++)
		order[i] = &s->ents[rows[i].vals - vals];
out:
	free(rows);
	free(vals);
}

void rt_aggprint_sort(struct dcc_runtime *rt, const struct agg_snap *s, struct agg_ent **order)
{
	sort_snap(rt, s, order, false);
}

void rt_aggprint_sort_plain(struct dcc_runtime *rt, const struct agg_snap *s,
			    struct agg_ent **order)
{
	sort_snap(rt, s, order, true);
}

/* A key's column width in agghist and aggpack rows, as DTrace sizes them. */
static int packed_width(const struct dcc_meta_field *f)
{
	if (f->kind != DCC_K_INT)
		return 16;
	return f->size == 1 ? 3 : f->size == 2 ? 5 : f->size == 4 ? 8 : 16;
}

/* packed: agghist/aggpack rows, whose strings are right-aligned in 16. */
static void print_key(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_field *f,
		      const char *key, bool packed)
{
	struct rt_val v;
	char tb[RT_INET_LEN];

	rt_field_val(f, key, &v);
	switch (f->kind) {
	case DCC_K_INT:
		switch (f->size) {
		case 8: fprintf(out, " %16lld", (long long)v.i); break;
		case 4: fprintf(out, " %8d", (int)(int32_t)v.i); break;
		case 2: fprintf(out, " %5d", (int)(uint16_t)v.i); break;
		default: fprintf(out, " %3d", (int)(uint8_t)v.i); break;
		}
		break;
	case DCC_K_INET: /* printed as the string it stands for */
		rt_inet_string(&v, tb, rt->strsize, &v);
		__attribute__((fallthrough));
	case DCC_K_STRING: { /* at most strsize characters */
		int n = (int)strnlen(v.p, v.size < rt->strsize ? v.size : rt->strsize);

		if (packed)
			fprintf(out, " %16.*s", n, v.p);
		else
			fprintf(out, "  %-50.*s", n, v.p);
		break;
	}
	case DCC_K_STACK:
	case DCC_K_USTACK:
		rt_print_stack(rt, out, &v, NULL);
		break;
	case DCC_K_SYM: case DCC_K_MOD: case DCC_K_USYM: case DCC_K_UADDR: case DCC_K_UMOD: {
		char buf[512];

		rt_addr_text(rt, &v, buf, sizeof(buf));
		fprintf(out, "  %-50s", buf);
		break;
	}
	default:
		rt_print_bytes(rt, out, v.p, v.size, packed ? 16 : -50, false);
		break;
	}
}

static void print_value(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
			const int64_t *val)
{
	int64_t normal = rt->agg_state[a->id].normal;

	if (rt_agg_is_hist(a))
		rt_hist_print(rt, out, a, val, normal);
	else if (a->func == DCC_AGG_STDDEV)
		fprintf(out, " %16llu", (unsigned long long)rt_agg_value(a, val, normal));
	else
		fprintf(out, " %16lld", (long long)rt_agg_value(a, val, normal));
}

static bool hist_mode(const struct dcc_runtime *rt, const struct dcc_meta_agg *a)
{
	return rt->agghist && (a->func == DCC_AGG_COUNT || a->func == DCC_AGG_SUM ||
			       a->func == DCC_AGG_AVG || a->func == DCC_AGG_STDDEV);
}

static bool pack_mode(const struct dcc_runtime *rt, const struct dcc_meta_agg *a)
{
	return rt->aggpack && (a->func == DCC_AGG_QUANTIZE || a->func == DCC_AGG_LQUANTIZE);
}

/* What agghist and aggpack draw against, over every row of an aggregation:
 * the total of the values (aggzoom: the largest over 95%) and their signs;
 * the buckets every key's packed line spans. */
struct look {
	bool hist, pack;
	/* long double, as hist.c's: a sum of 64-bit values may pass INT64_MAX
	 * (signed overflow: fuzz_consumer found it) and one may be INT64_MIN */
	long double total;
	bool pos, neg;
	int minbin, maxbin;
	int keywidth;
};

static void look_at(struct dcc_runtime *rt, const struct dcc_meta_agg *a, const struct prow *rows,
		    size_t nrows, const int64_t *zero, struct look *lk)
{
	memset(lk, 0, sizeof(*lk));
	lk->hist = hist_mode(rt, a);
	lk->pack = pack_mode(rt, a);
	if (!lk->hist && !lk->pack)
		return;
	for (uint32_t k = 0; k < a->nkeys; k++)
		lk->keywidth += packed_width(&rt->keys[a->first_key + k]) + 1;
	for (size_t r = 0; r < nrows; r++) {
		const int64_t *val = rows[r].vals[0] ? rows[r].vals[0] : zero;

		if (lk->hist) {
			int64_t i = rt_agg_value(a, val, 1);
			long double v = i < 0 ? -(long double)i : (long double)i, z = v / 0.95L;

			lk->pos |= i > 0;
			lk->neg |= i < 0;
			/* aggzoom: the largest over 95%, cut to an integer as it
			 * always was (above 2^63 a long double has no fraction) */
			if (z < 0x1p63L)
				z = (long double)(int64_t)z;
			if (!rt->aggzoom)
				lk->total += v;
			else if (z > lk->total)
				lk->total = z;
		} else {
			int lo, hi;

			rt_hist_packed_bins(a, val, &lo, &hi);
			if (r == 0 || lo < lk->minbin)
				lk->minbin = lo;
			if (r == 0 || hi > lk->maxbin)
				lk->maxbin = hi;
		}
	}
}

static void look_header(FILE *out, const struct dcc_meta_agg *a, const struct look *lk)
{
	if (lk->hist)
		fprintf(out, "\n%*s %41s %-9s\n", lk->keywidth ? lk->keywidth : 16,
			lk->keywidth ? "key" : "value", "------------- Distribution -------------",
			"count");
	else if (lk->pack)
		rt_hist_packed_header(out, a, lk->keywidth, lk->minbin, lk->maxbin);
}

/* A value in the default form; agghist and aggpack lines end themselves. */
static void print_look_value(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
			     const int64_t *val, const struct look *lk)
{
	int64_t normal = rt->agg_state[a->id].normal;

	if (lk->hist) {
		fputc(' ', out);
		rt_hist_bar(out, rt_agg_value(a, val, 1), lk->total, lk->pos, lk->neg,
			    normal < 1 ? 1 : normal);
	} else if (lk->pack) {
		rt_hist_packed_row(rt, out, a, val, lk->minbin, lk->maxbin);
	} else {
		print_value(rt, out, a, val);
	}
}

/* One default-form row: keys, value, then with aggpercpu each CPU's value. */
static void print_row(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
		      const struct prow *row, int ncpus, const int64_t *zero, const struct look *lk)
{
	bool packed = lk->hist || lk->pack;

	for (uint32_t k = 0; k < a->nkeys; k++)
		print_key(rt, out, &rt->keys[a->first_key + k], row->key, packed);
	print_look_value(rt, out, a, row->vals[0] ? row->vals[0] : zero, lk);
	for (int c = 0; row->percpu && c < ncpus; c++) {
		char label[32];

		/* DTrace for Linux's line; in packed rows, in the key column */
		snprintf(label, sizeof(label), "    [CPU %d]", c);
		if (packed)
			fprintf(out, "%*s", lk->keywidth, label);
		else
			fprintf(out, "\n%s", label);
		print_look_value(rt, out, a, row->percpu + (size_t)c * rt_agg_nwords(a), lk);
	}
	if (!packed)
		fputc('\n', out);
}

struct pa_ctx {
	struct dcc_runtime *rt;
	const struct dcc_meta_agg **aggs;
	int naggs;
	const struct prow *row;
	const int64_t *zero;
};

/* A %@ conversion of formatted printa: the n-th aggregation's value. */
static void pa_value(void *ctx, FILE *out, const struct pf_spec *sp, int n)
{
	struct pa_ctx *pc = ctx;
	const struct dcc_meta_agg *a;
	const int64_t *val;
	struct pf_spec isp = *sp;

	if (n >= pc->naggs)
		n = pc->naggs - 1;
	a = pc->aggs[n];
	val = pc->row->vals[n] ? pc->row->vals[n] : pc->zero;
	if (rt_agg_is_hist(a)) {
		rt_hist_print(pc->rt, out, a, val, pc->rt->agg_state[a->id].normal);
		return;
	}
	if (!strchr("diuoxXcp", isp.conv))
		isp.conv = 'd';
	rt_printf_int(out, &isp, rt_agg_value(a, val, pc->rt->agg_state[a->id].normal), 8,
		      a->func != DCC_AGG_STDDEV);
}

int rt_printa(struct dcc_runtime *rt, FILE *out, const char *fmt, const uint32_t *ids, int n)
{
	const struct dcc_meta_agg **aggs = NULL;
	struct agg_snap *snaps = NULL;
	struct prow *rows = NULL;
	const int64_t **vals = NULL;
	int64_t *zero = NULL;
	size_t nrows = 0, total = 0, maxval = 8;
	struct rt_val *kv = NULL;
	int err = -ENOMEM;

	if (n <= 0)
		return -EINVAL;
	if (!(aggs = calloc(n, sizeof(*aggs))) || !(snaps = calloc(n, sizeof(*snaps))))
		goto out;
	for (int i = 0; i < n; i++) {
		err = rt_agg_snapshot(rt, ids[i], &snaps[i]);
		if (err)
			goto out;
		aggs[i] = snaps[i].agg;
		if (aggs[i]->key_size != aggs[0]->key_size || aggs[i]->nkeys != aggs[0]->nkeys) {
			err = -EINVAL;
			goto out;
		}
		total += snaps[i].nents;
		if (aggs[i]->val_size > maxval)
			maxval = aggs[i]->val_size;
	}
	for (int i = 0; i < n; i++)
		rt->agg_state[ids[i]].printed = true;
	err = -ENOMEM;
	if (!(zero = calloc(1, maxval)) || !(rows = calloc(total + 1, sizeof(*rows))) ||
	    !(vals = calloc((total + 1) * n, sizeof(*vals))) ||
	    !(kv = calloc(aggs[0]->nkeys + 1, sizeof(*kv))))
		goto out;
	/* rows: the union of the keys, in first-seen order */
	for (int i = 0; i < n; i++) {
		for (size_t j = 0; j < snaps[i].nents; j++) {
			const struct agg_ent *e = &snaps[i].ents[j];
			size_t r;

			for (r = 0; r < nrows && i > 0; r++)
				if (!memcmp(rows[r].key, e->key, aggs[0]->key_size))
					break;
			if (r == nrows || i == 0) {
				r = nrows++;
				rows[r].key = e->key;
				rows[r].vals = &vals[r * n];
			}
			rows[r].vals[i] = e->val;
			if (i == 0)
				rows[r].percpu = e->percpu;
		}
	}
	err = 0;
	if (!nrows)
		goto out;
	sort_rows(rt, rows, nrows, aggs, n, false, zero);
	if (rt->json) {
		for (size_t r = 0; r < nrows; r++) {
			for (int i = 0; i < n; i++) {
				const int64_t *v = rows[r].vals[i];

				if (v)
					rt_json_agg_row(rt, out, aggs[i], rows[r].key, v);
			}
		}
		goto out;
	}
	if (!fmt) {
		struct look lk;

		look_at(rt, aggs[0], rows, nrows, zero, &lk);
		look_header(out, aggs[0], &lk);
		for (size_t r = 0; r < nrows; r++)
			print_row(rt, out, aggs[0], &rows[r], snaps[0].ncpus, zero, &lk);
		goto out;
	}
	for (size_t r = 0; r < nrows; r++) {
		const struct dcc_meta_agg *a = aggs[0];
		struct pa_ctx pc = { rt, aggs, n, &rows[r], zero };
		char why[128];

		for (uint32_t k = 0; k < a->nkeys; k++)
			rt_field_val(&rt->keys[a->first_key + k], rows[r].key, &kv[k]);
		err = rt_printf_format(rt, out, fmt, kv, a->nkeys, pa_value, &pc, why, sizeof(why));
		if (err) {
			err = 0;
			if (!rt->printa_warned)
				rt_error(rt, "printa: %s", why);
			rt->printa_warned = true;
			break;
		}
	}
out:
	for (int i = 0; snaps && i < n; i++)
		rt_agg_snap_free(&snaps[i]);
	free(snaps);
	free(aggs);
	free(rows);
	free(vals);
	free(zero);
	free(kv);
	return err;
}

int dcc_runtime__printa(struct dcc_runtime *rt, uint32_t agg_id)
{
	int err;

	if (agg_id >= rt->hdr->naggs)
		return -ENOENT;
	pthread_mutex_lock(&rt->lock);
	if (!rt->json)
		fputc('\n', rt->out);
	err = rt_printa(rt, rt->out, NULL, &agg_id, 1);
	pthread_mutex_unlock(&rt->lock);
	return err;
}

int dcc_runtime__print_aggs(struct dcc_runtime *rt)
{
	int err = 0;

	pthread_mutex_lock(&rt->lock);
	/* One blank line ends the trace, aggregations or not; the
	 * aggregations printed at the end follow it without one each. */
	if (!rt->json)
		fputc('\n', rt->out);
	for (uint32_t i = 0; i < rt->hdr->naggs; i++) {
		int e;

		if (rt->agg_state[i].printed || rt->agg_state[i].fd < 0)
			continue;
		e = rt_printa(rt, rt->out, NULL, &i, 1);
		if (e && !err) {
			rt_error(rt, "cannot print aggregation @%s: %s",
				 rt_str(rt, rt->aggs[i].name), strerror(-e));
			err = e;
		}
	}
	fflush(rt->out);
	pthread_mutex_unlock(&rt->lock);
	return err;
}

void dcc_runtime__interrupted(struct dcc_runtime *rt)
{
	if (!rt->testing && !rt->json)
		fputc('\n', rt->out);
}
