/*
 * Aggregation maps to merged entries: walks an aggregation's per-CPU hash
 * map, merges each key's per-CPU values by the function's rule (abi.h gives
 * the layouts), and implements clear() and trunc() on the map itself.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dcc/abi_agg.h>
#include "rt.h"

bool rt_agg_is_hist(const struct dcc_meta_agg *a)
{
	return a->func == DCC_AGG_QUANTIZE || a->func == DCC_AGG_LQUANTIZE ||
	       a->func == DCC_AGG_LLQUANTIZE;
}

int rt_agg_nwords(const struct dcc_meta_agg *a)
{
	return (int)(a->val_size / 8);
}

static int ncpus(struct dcc_runtime *rt)
{
	if (rt->ncpus <= 0)
		rt->ncpus = libbpf_num_possible_cpus();
	return rt->ncpus;
}

/* a + b wrapping as the kernel's counters do: two CPUs' counts past
 * INT64_MAX would be signed overflow, undefined in C */
static int64_t add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static void merge(const struct dcc_meta_agg *a, int64_t *dst, const int64_t *src, int nwords)
{
	uint64_t lo;

	switch (a->func) {
	case DCC_AGG_MIN:
	case DCC_AGG_MAX:
		if (src[1] == 0)
			return;
		if (dst[1] == 0 || (a->func == DCC_AGG_MIN ? src[0] < dst[0] : src[0] > dst[0]))
			dst[0] = src[0];
		dst[1] = add(dst[1], src[1]);
		return;
	case DCC_AGG_STDDEV:
		dst[0] = add(dst[0], src[0]);
		dst[1] = add(dst[1], src[1]);
		lo = (uint64_t)dst[2] + (uint64_t)src[2];
		dst[3] = (int64_t)((uint64_t)dst[3] + (uint64_t)src[3] + (lo < (uint64_t)dst[2]));
		dst[2] = (int64_t)lo;
		return;
	default:
		for (int i = 0; i < nwords; i++)
			dst[i] = add(dst[i], src[i]);
		return;
	}
}

void rt_agg_snap_free(struct agg_snap *s)
{
	for (size_t i = 0; i < s->nents; i++) {
		free(s->ents[i].key);
		free(s->ents[i].val);
		free(s->ents[i].percpu);
	}
	free(s->ents);
	s->ents = NULL;
	s->nents = 0;
}

/* sym()/func() keys name a function, not an instruction: as DTrace does,
 * entries whose addresses fall in the same kernel symbol are one entry. */
static void merge_symbols(struct dcc_runtime *rt, struct agg_snap *s)
{
	const struct dcc_meta_agg *a = s->agg;
	const struct dcc_meta_field *keys = rt->keys + a->first_key;
	bool any = false;
	for (uint32_t k = 0; k < a->nkeys; k++)
		any |= keys[k].kind == DCC_K_SYM;
	if (!any)
		return;
	for (size_t i = 0; i < s->nents; i++)
		for (uint32_t k = 0; k < a->nkeys; k++)
			if (keys[k].kind == DCC_K_SYM) {
				uint64_t pc;
				memcpy(&pc, s->ents[i].key + keys[k].offset, sizeof(pc));
				pc = rt_ksym_start(rt, pc);
				memcpy(s->ents[i].key + keys[k].offset, &pc, sizeof(pc));
			}
	size_t out = 0;
	for (size_t i = 0; i < s->nents; i++) {
		size_t j;
		for (j = 0; j < out; j++)
			if (!memcmp(s->ents[j].key, s->ents[i].key, a->key_size))
				break;
		if (j < out) {
			merge(a, s->ents[j].val, s->ents[i].val, s->nwords);
			for (int c = 0; s->ents[j].percpu && c < s->ncpus; c++)
				merge(a, s->ents[j].percpu + (size_t)c * s->nwords,
				      s->ents[i].percpu + (size_t)c * s->nwords, s->nwords);
			free(s->ents[i].key);
			free(s->ents[i].val);
			free(s->ents[i].percpu);
		} else {
			s->ents[out++] = s->ents[i];
		}
	}
	s->nents = out;
}

/* One key's per-CPU values (n CPUs) as a merged entry of s; 0 or -ENOMEM.
 * A quantize's overflow slot (-2^63's count) is moved to bucket 0 first. */
static int snap_add(struct dcc_runtime *rt, uint32_t id, struct agg_snap *s, size_t *cap,
		    const char *key, int64_t *percpu, int n)
{
	const struct dcc_meta_agg *a = s->agg;
	struct agg_ent *e;

	if (a->func == DCC_AGG_QUANTIZE && s->nwords == ABI_QUANTIZE_SLOTS) {
		for (int c = 0; c < n; c++) {
			int64_t *v = percpu + (size_t)c * s->nwords;

			v[0] = (int64_t)((uint64_t)v[0] + (uint64_t)v[ABI_QUANTIZE_BUCKETS]);
			v[ABI_QUANTIZE_BUCKETS] = 0;
		}
	}

	if (s->nents == *cap) {
		struct agg_ent *ne;
		size_t nc = *cap ? 2 * *cap : 16;

		if (!(ne = realloc(s->ents, nc * sizeof(*ne))))
			return -ENOMEM;
		s->ents = ne;
		*cap = nc;
	}
	e = &s->ents[s->nents];
	e->key = malloc(a->key_size);
	e->val = calloc(1, a->val_size);
	/* aggpercpu: each CPU's own value is printed too */
	e->percpu = rt->aggpercpu ? malloc((size_t)n * a->val_size) : NULL;
	if (!e->key || !e->val || (rt->aggpercpu && !e->percpu)) {
		free(e->key);
		free(e->val);
		free(e->percpu);
		return -ENOMEM;
	}
	memcpy(e->key, key, a->key_size);
	if (e->percpu)
		memcpy(e->percpu, percpu, (size_t)n * a->val_size);
	for (int c = 0; c < n; c++)
		merge(a, e->val, percpu + (size_t)c * s->nwords, s->nwords);
	if (rt->agg_state[id].array) {
		bool zero = true;

		for (int w = 0; w < s->nwords && zero; w++)
			zero = ((int64_t *)e->val)[w] == 0;
		if (!zero) {
			rt->agg_state[id].seen = true;
		} else if (!rt->agg_state[id].seen) {
			/* never updated: the array slot is not an entry */
			free(e->key);
			free(e->val);
			free(e->percpu);
			return 0;
		}
	}
	s->nents++;
	return 0;
}

/* Keys read by one bpf(BPF_MAP_LOOKUP_BATCH): up to 4096, fewer when the
 * values of that many (val_size on every CPU) would pass 4 MiB, so that a
 * quantize() on a 64-CPU machine does not ask for 256 MiB at each printa. */
#define SNAP_BATCH_MAX 4096
#define SNAP_BATCH_MIN 64
#define SNAP_BATCH_BYTES (4u << 20)

static uint32_t batch_keys(const struct dcc_meta_agg *a, int n, uint32_t max_entries)
{
	size_t per = (size_t)n * a->val_size, k = per ? SNAP_BATCH_BYTES / per : SNAP_BATCH_MAX;

	k = k > SNAP_BATCH_MAX ? SNAP_BATCH_MAX : k < SNAP_BATCH_MIN ? SNAP_BATCH_MIN : k;
	/* no more than the map holds: one call reads it all the same */
	return (uint32_t)(max_entries && max_entries < k ? max_entries : k);
}

/* The whole map in batches: two system calls for a thousand keys where the
 * key-by-key walk makes two a key (10^6 keys: seconds). -EINVAL/-EOPNOTSUPP
 * before anything was read: the kernel has no batch operation for this map,
 * and the caller walks it key by key. A hash bucket holding more keys than
 * the batch (-ENOSPC, nothing read) doubles the batch. */
static int snap_batch(struct dcc_runtime *rt, uint32_t id, struct agg_snap *s, size_t *cap,
		      int fd, int n)
{
	const struct dcc_meta_agg *a = s->agg;
	size_t tok = a->key_size > 8 ? a->key_size : 8;
	uint32_t batch = batch_keys(a, n, rt->agg_state[id].max_entries);
	char *keys = NULL, *in = calloc(1, tok), *out = calloc(1, tok);
	int64_t *vals = NULL;
	bool first = true;
	int err = -ENOMEM;

	if (!in || !out)
		goto done;
	for (;;) {
		__u32 count = batch;

		if (!keys) {
			/* zeroed: valgrind does not know that the kernel fills them */
			keys = calloc(batch, a->key_size);
			vals = calloc((size_t)batch * (size_t)n, a->val_size);
			if (!keys || !vals) {
				err = -ENOMEM;
				goto done;
			}
		}
		err = bpf_map_lookup_batch(fd, first ? NULL : in, out, keys, vals, &count, NULL);
		if (err == -ENOSPC && batch < (1u << 20)) {
			batch *= 2;
			free(keys);
			free(vals);
			keys = NULL;
			vals = NULL;
			continue;
		}
		if (err && err != -ENOENT) {
			/* unsupported is only said by the first call; later, the
			 * caller must not walk again over what was taken */
			if (!first && (err == -EINVAL || err == -EOPNOTSUPP || err == -ENOTSUP))
				err = -EIO;
			goto done;
		}
		for (__u32 k = 0; k < count; k++) {
			int e = snap_add(rt, id, s, cap, keys + (size_t)k * a->key_size,
					 vals + (size_t)k * (size_t)n * s->nwords, n);
			if (e) {
				err = e;
				goto done;
			}
		}
		if (err == -ENOENT) {
			err = 0;
			goto done;
		}
		first = false;
		memcpy(in, out, tok);
	}
done:
	free(keys);
	free(vals);
	free(in);
	free(out);
	return err;
}

int rt_agg_snapshot(struct dcc_runtime *rt, uint32_t id, struct agg_snap *s)
{
	const struct dcc_meta_agg *a;
	char *key = NULL, *next = NULL;
	int64_t *percpu = NULL;
	size_t cap = 0;
	int fd, n, err;

	memset(s, 0, sizeof(*s));
	if (id >= rt->hdr->naggs)
		return -ENOENT;
	a = &rt->aggs[id];
	s->agg = a;
	s->nwords = rt_agg_nwords(a);
	fd = rt->agg_state[id].fd;
	if (fd < 0)
		return -EBADF;
	n = ncpus(rt);
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	s->ncpus = n;
	err = snap_batch(rt, id, s, &cap, fd, n);
	if (err != -EINVAL && err != -EOPNOTSUPP && err != -ENOTSUP)
		goto out;
	err = -ENOMEM;
	if (!(key = malloc(a->key_size)) || !(next = malloc(a->key_size)) ||
	    !(percpu = calloc((size_t)n, a->val_size)))
		goto out;
	err = bpf_map_get_next_key(fd, NULL, next);
	while (!err) {
		char *tmp;

		if (!bpf_map_lookup_elem(fd, next, percpu)) {
			err = snap_add(rt, id, s, &cap, next, percpu, n);
			if (err)
				goto out;
		}
		tmp = key;
		key = next;
		next = tmp;
		err = bpf_map_get_next_key(fd, key, next);
	}
	if (err == -ENOENT)
		err = 0;
out:
	if (!err)
		merge_symbols(rt, s);
	if (err)
		rt_agg_snap_free(s);
	free(key);
	free(next);
	free(percpu);
	return err;
}

int rt_agg_clear(struct dcc_runtime *rt, uint32_t id)
{
	struct agg_snap s;
	void *zero;
	int err;

	err = rt_agg_snapshot(rt, id, &s);
	if (err)
		return err;
	zero = calloc((size_t)ncpus(rt), s.agg->val_size);
	if (!zero) {
		rt_agg_snap_free(&s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s.nents; i++)
		bpf_map_update_elem(rt->agg_state[id].fd, s.ents[i].key, zero, BPF_EXIST);
	free(zero);
	rt_agg_snap_free(&s);
	return 0;
}

int rt_agg_trunc(struct dcc_runtime *rt, uint32_t id, int64_t keep)
{
	struct agg_ent **order;
	struct agg_snap s;
	size_t lo = 0, hi, n;
	int err;

	err = rt_agg_snapshot(rt, id, &s);
	if (err)
		return err;
	n = s.nents;
	order = calloc(n + 1, sizeof(*order));
	if (!order) {
		rt_agg_snap_free(&s);
		return -ENOMEM;
	}
	rt_aggprint_sort_plain(rt, &s, order);
	/* keep [lo, hi) of the ascending order: the largest keep, or the smallest -keep */
	hi = lo;
	if (keep > 0) {
		lo = (uint64_t)keep >= n ? 0 : n - (size_t)keep;
		hi = n;
	} else if (keep < 0) {
		uint64_t k = -(uint64_t)keep;

		hi = k >= n ? n : (size_t)k;
	}
	for (size_t i = 0; i < n; i++)
		if (i < lo || i >= hi)
			bpf_map_delete_elem(rt->agg_state[id].fd, order[i]->key);
	free(order);
	rt_agg_snap_free(&s);
	return 0;
}

/* The integer square root of a 128-bit value. */
static uint64_t isqrt128(unsigned __int128 v)
{
	unsigned __int128 r = 0, bit = (unsigned __int128)1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)r;
}

/* As DTrace: the mean of the squares less the square of the mean, both
 * truncated, in 128 bits; a normalize() factor divides x. */
static uint64_t stddev(const int64_t *val, int64_t normal)
{
	unsigned __int128 sq, avg2;
	int64_t avg;

	/* a count past INT64_MAX is no count: never divide by it */
	if (val[0] <= 0)
		return 0;
	sq = ((unsigned __int128)(uint64_t)val[3] << 64) | (uint64_t)val[2];
	sq /= (uint64_t)normal;
	sq /= (uint64_t)normal;
	sq /= (uint64_t)val[0];
	avg = val[1] / normal / val[0];
	/* |avg| in unsigned: -INT64_MIN is signed overflow */
	uint64_t mag = avg < 0 ? -(uint64_t)avg : (uint64_t)avg;
	avg2 = (unsigned __int128)mag * mag;
	return sq > avg2 ? isqrt128(sq - avg2) : 0;
}

int64_t rt_agg_value(const struct dcc_meta_agg *a, const int64_t *val, int64_t normal)
{
	if (normal < 1)
		normal = 1;
	switch (a->func) {
	case DCC_AGG_AVG:
		return val[0] > 0 ? val[1] / normal / val[0] : 0;
	case DCC_AGG_STDDEV:
		return (int64_t)stddev(val, normal);
	case DCC_AGG_MIN:
	case DCC_AGG_MAX:
		/* no value (cleared, or missing from a printa row): DTrace's start */
		if (!val[1])
			return a->func == DCC_AGG_MIN ? INT64_MAX / normal : INT64_MIN / normal;
		return val[0] / normal;
	default:
		return val[0] / normal;
	}
}

int64_t rt_agg_scalar(const struct dcc_meta_agg *a, const int64_t *val)
{
	return rt_agg_value(a, val, 1);
}
