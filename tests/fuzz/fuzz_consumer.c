/*
 * libFuzzer harness for the consumer: any bytes as what dtrun reads before
 * it loads anything. An input starting with ELF's magic is an object: its
 * metadata section is found and checked (dcc_meta_from_elf), dumped as
 * `dcc --dump-meta` would, and handed to the runtime. Any other input is a
 * metadata blob for the runtime, and the bytes after the blob's size are
 * ring-buffer records ([u32 length][record]...) for the record decoder.
 * A blob input that starts with 'J' is read with -x oformat=json. After the
 * blob, [u32 0xffffffff][u32 n][n bytes] fills the aggregations' maps
 * (real per-CPU hash maps: run as root) before the records, and every
 * aggregation is printed and walked at the end, as dtrun does at exit.
 * A refusal or success, never a crash, a hang, a leak or a sanitizer report.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>

#include <dcc/abi.h>
#include <dcc/runtime.h>
#include "meta_dump.h"

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* DCC_FUZZ_SHOW=1: the runtime's output and messages on stderr, to see
	 * what an input does */
	sink = getenv("DCC_FUZZ_SHOW") ? stderr : fopen("/dev/null", "w");
	return 0;
}

static struct dcc_runtime *runtime(const void *meta, size_t size, bool json)
{
	static const char *const jsonopt[] = { "oformat=json" };
	struct dcc_runtime_opts ro = { .sz = sizeof(ro), .out = sink, .err = sink,
				       .progname = "fuzz", .xopts = json ? jsonopt : NULL,
				       .nxopts = json };
	return dcc_runtime__new(meta, size, &ro);
}

/* At most this many aggregations get maps, of at most these sizes: what an
 * input asks beyond is left without a map (the runtime skips those). */
enum { MAX_AGG_MAPS = 8, MAX_KEY = 4096, MAX_VAL = 65536, MAP_ENTRIES = 64 };

/* Maps are made once per key and value size and emptied after each input:
 * making and freeing per-CPU maps costs the kernel ten times an input. */
static struct cached_map {
	uint32_t ks, vs;
	int fd;
} cache[64];
static int ncache;

static int map_for(uint32_t ks, uint32_t vs)
{
	for (int i = 0; i < ncache; i++)
		if (cache[i].ks == ks && cache[i].vs == vs)
			return cache[i].fd;
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "fuzz_agg", ks, vs, MAP_ENTRIES, NULL);
	if (fd < 0 || ncache == 64)
		return fd < 0 ? fd : (close(fd), -1);
	cache[ncache++] = (struct cached_map){ ks, vs, fd };
	return fd;
}

static void empty_map(int fd)
{
	uint8_t key[MAX_KEY];

	while (!bpf_map_get_next_key(fd, NULL, key))
		if (bpf_map_delete_elem(fd, key))
			break;
}

struct maps {
	int fd[MAX_AGG_MAPS];
	int n;
};

/* Each aggregation's map filled from p: entries of key_size bytes and
 * val_size bytes for CPU 0 (the other CPUs' values zero), in turn, until
 * the bytes run out. */
static void fill_maps(struct dcc_runtime *rt, struct maps *m, const uint8_t *p, size_t n)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_agg *aggs = (const void *)((const char *)h + h->agg_off);
	int ncpu = libbpf_num_possible_cpus();

	m->n = 0;
	for (uint32_t i = 0; i < h->naggs && i < MAX_AGG_MAPS && ncpu > 0; i++) {
		const struct dcc_meta_agg *a = &aggs[i];
		uint32_t ks = a->key_size ? a->key_size : 4, vs = a->val_size;

		m->fd[m->n] = -1;
		if (ks > MAX_KEY || !vs || vs > MAX_VAL)
			continue;
		int fd = map_for(ks, vs);
		if (fd < 0)
			continue;
		size_t stride = (vs + 7) & ~7u;
		uint8_t *key = calloc(1, ks), *val = calloc(ncpu, stride);
		for (int e = 0; e < MAP_ENTRIES && key && val && n > 0; e++) {
			size_t k = n < ks ? n : ks;
			memset(key, 0, ks);
			memcpy(key, p, k);
			p += k, n -= k;
			size_t v = n < vs ? n : vs;
			memset(val, 0, vs);
			memcpy(val, p, v);
			p += v, n -= v;
			bpf_map_update_elem(fd, key, val, BPF_ANY);
		}
		free(key);
		free(val);
		m->fd[m->n++] = fd;
		dcc_runtime__set_agg_fd(rt, i, fd);
	}
}

static int walk_one(void *ctx, const struct dcc_agg_entry *e)
{
	struct dcc_runtime *rt = ctx;
	char buf[256];

	for (uint32_t k = 0; k < e->agg->nkeys; k++)
		dcc_runtime__agg_key_text(rt, e, k, buf, sizeof(buf));
	return 0;
}

static void print_maps(struct dcc_runtime *rt, struct maps *m)
{
	for (int i = 0; i < m->n; i++)
		dcc_runtime__agg_walk(rt, (uint32_t)i, walk_one, rt);
	dcc_runtime__print_aggs(rt);
	for (int i = 0; i < m->n; i++)
		empty_map(m->fd[i]);
}

/* With no records after the blob, one of zeros for each clause: every
 * clause's actions are decoded once even before the fuzzer finds records. */
static void zero_records(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_clause *c = (const void *)((const char *)h + h->clause_off);
	const struct dcc_meta_probe *p = (const void *)((const char *)h + h->probe_off);
	for (uint32_t i = 0; i < h->nclauses; i++) {
		/* a record is at most what a ring buffer holds, not the 4 GiB a
		 * clause may claim (that claim is the decoder's to refuse) */
		if (c[i].size > 1u << 20)
			continue;
		struct dcc_rec_hdr *rec = aligned_alloc(8, (c[i].size + 7) & ~7u);
		memset(rec, 0, c[i].size);
		rec->epid = i + 1;
		rec->probe_id = h->nprobes ? p[0].id : 0;
		dcc_runtime__handle_record(rt, rec, c[i].size);
		free(rec);
	}
}

static void records(struct dcc_runtime *rt, const uint8_t *p, size_t n)
{
	/* the consumer runs system() and freopen() only for destructive objects:
	 * those are the loader's to refuse without -w, not the decoder's */
	if (dcc_runtime__meta(rt)->flags & DCC_META_F_DESTRUCTIVE)
		return;
	if (n < 4)
		zero_records(rt);
	while (n >= 4) {
		uint32_t len;
		memcpy(&len, p, 4);
		p += 4, n -= 4;
		if (len > n)
			len = (uint32_t)n;
		/* the ring buffer hands out 8-byte aligned records */
		void *rec = aligned_alloc(8, (len + 7) & ~7u);
		memcpy(rec, p, len);
		dcc_runtime__handle_record(rt, rec, len);
		free(rec);
		p += len, n -= len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const void *meta;
	size_t msize;
	char why[256];
	if (size >= 4 && !memcmp(data, "\177ELF", 4)) {
		if (dcc_meta_from_elf(data, size, &meta, &msize, why, sizeof(why)))
			return 0;
		meta_dump(sink, data, size);
		dcc_runtime__free(runtime(meta, msize, false));
		return 0;
	}
	bool json = size && data[0] == 'J';
	data += json, size -= json;
	/* libbpf's ring buffer and the ELF reader give 8-byte aligned memory */
	void *copy = aligned_alloc(8, (size + 7) & ~(size_t)7);
	memcpy(copy, data, size);
	struct dcc_runtime *rt = runtime(copy, size, json);
	if (rt) {
		size_t used = dcc_runtime__meta(rt)->size;
		struct maps m = { .n = 0 };
		uint32_t mark, n;

		if (size - used >= 8 && (memcpy(&mark, data + used, 4), mark == ~0u)) {
			memcpy(&n, data + used + 4, 4);
			used += 8;
			if (n > size - used)
				n = (uint32_t)(size - used);
			fill_maps(rt, &m, data + used, n);
			used += n;
		}
		records(rt, data + used, size - used);
		print_maps(rt, &m);
		dcc_runtime__free(rt);
	}
	free(copy);
	return 0;
}
