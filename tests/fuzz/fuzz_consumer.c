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

#include <dlfcn.h>
#include <fcntl.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>

#include <dcc/abi.h>
#include <dcc/runtime.h>
#include "meta_dump.h"

static FILE *sink;
static bool show;

/* system() runs nothing here: while the records of a destructive object
 * are decoded, popen() hands back the command's text as the command's
 * output (through a pipe, as the runtime reads its descriptor), so the
 * formatting and the copy into the trace output are fuzzed. Outside that
 * (libFuzzer's own use), the real popen(). This definition takes the place
 * of libc's (and of ASan's interceptor) for the whole harness. */
static bool fake_popen;
static FILE *faked;

FILE *popen(const char *cmd, const char *mode)
{
	if (!fake_popen) {
		FILE *(*real)(const char *, const char *);
		*(void **)&real = dlsym(RTLD_NEXT, "popen");
		return real ? real(cmd, mode) : NULL;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC))
		return NULL;
	/* at most a pipe's buffer, so the write cannot block */
	size_t len = strnlen(cmd, 4096);
	if (write(fds[1], cmd, len) != (ssize_t)len) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	close(fds[1]);
	faked = fdopen(fds[0], "r");
	if (!faked)
		close(fds[0]);
	return faked;
}

int pclose(FILE *f)
{
	if (f && f == faked) {
		faked = NULL;
		return fclose(f);
	}
	int (*real)(FILE *);
	*(void **)&real = dlsym(RTLD_NEXT, "pclose");
	return real ? real(f) : -1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* DCC_FUZZ_SHOW=1: the runtime's output and messages on stderr, to see
	 * what an input does */
	show = getenv("DCC_FUZZ_SHOW") != NULL;
	sink = show ? stderr : fopen("/dev/null", "w");
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
enum { MAX_AGG_MAPS = 16, MAX_KEY = 4096, MAX_VAL = 65536, MAP_ENTRIES = 64 };

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
	void *keys[MAX_AGG_MAPS]; /* the keys put in each map, to delete */
	uint32_t nkeys[MAX_AGG_MAPS];
	uint32_t id[MAX_AGG_MAPS]; /* the aggregation each map is for */
	int n;
};

/* Each aggregation's map filled from the same bytes: entries of key_size
 * bytes and val_size bytes for CPU 0 (the other CPUs' values zero), in
 * turn, until the bytes run out. Each map from the start of the bytes (not
 * where the previous one stopped): with a few hundred bytes, every
 * aggregation of an object gets entries, the quantizations too. */
static void fill_maps(struct dcc_runtime *rt, struct maps *m, const uint8_t *bytes, size_t nbytes)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_agg *aggs = (const void *)((const char *)h + h->agg_off);
	int ncpu = libbpf_num_possible_cpus();

	m->n = 0;
	for (uint32_t i = 0; i < h->naggs && i < MAX_AGG_MAPS && ncpu > 0; i++) {
		const struct dcc_meta_agg *a = &aggs[i];
		uint32_t ks = a->key_size ? a->key_size : 4, vs = a->val_size;
		const uint8_t *p = bytes;
		size_t n = nbytes;

		m->fd[m->n] = -1;
		if (ks > MAX_KEY || !vs || vs > MAX_VAL)
			continue;
		int fd = map_for(ks, vs);
		if (fd < 0)
			continue;
		/* all the entries in one system call (one each cost more than
		 * the rest of the input) */
		size_t stride = (vs + 7) & ~7u, per = (size_t)ncpu * stride;
		size_t want = (n + ks + vs - 1) / (ks + vs);
		want = want < MAP_ENTRIES ? want : MAP_ENTRIES;
		uint8_t *keys = calloc(want + 1, ks), *vals = calloc(want + 1, per);
		uint32_t e = 0;
		for (; e < want && keys && vals && n > 0; e++) {
			size_t k = n < ks ? n : ks;
			memcpy(keys + e * ks, p, k);
			p += k, n -= k;
			size_t v = n < vs ? n : vs;
			memcpy(vals + e * per, p, v);
			p += v, n -= v;
		}
		__u32 count = e;
		if (e)
			bpf_map_update_batch(fd, keys, vals, &count, NULL);
		free(vals);
		/* after a failed update, the delete of the keys fails too and
		 * print_maps empties the map key by key */
		m->keys[m->n] = keys;
		m->nkeys[m->n] = e;
		m->id[m->n] = i;
		m->fd[m->n++] = fd;
		dcc_runtime__set_agg_fd(rt, i, fd);
	}
}

/* The drop counters (DCC_MAP_DROPS) from the map bytes too: the first 8
 * bytes per counter for CPU 0, the second 8 for CPU 1 if there is one;
 * reported, then zeroed for the next input. One map, made once. */
static int drops_fd = -1;

static void fill_drops(struct dcc_runtime *rt, const uint8_t *p, size_t n)
{
	int ncpu = libbpf_num_possible_cpus();
	if (drops_fd < 0)
		drops_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "fuzz_drops", 4, 8,
					  DCC_DROP_NR, NULL);
	if (drops_fd < 0 || ncpu <= 0 || dcc_runtime__set_drops_fd(rt, drops_fd))
		return;
	uint64_t *vals = calloc((size_t)ncpu, 8);
	for (uint32_t k = 0; k < DCC_DROP_NR && vals; k++) {
		for (int c = 0; c < ncpu && c < 2; c++) {
			size_t at = ((size_t)k * 2 + (size_t)c) * 8;
			vals[c] = 0;
			if (at < n)
				memcpy(&vals[c], p + at, n - at < 8 ? n - at : 8);
		}
		bpf_map_update_elem(drops_fd, &k, vals, BPF_ANY);
	}
	dcc_runtime__report_drops(rt);
	/* zero again: counters only grow in the kernel, and the next input
	 * starts from none */
	memset(vals, 0, (size_t)ncpu * 8);
	for (uint32_t k = 0; k < DCC_DROP_NR && vals; k++)
		bpf_map_update_elem(drops_fd, &k, vals, BPF_ANY);
	free(vals);
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
		dcc_runtime__agg_walk(rt, m->id[i], walk_one, rt);
	dcc_runtime__print_aggs(rt);
	for (int i = 0; i < m->n; i++) {
		/* one call, unless a key came twice (the second delete fails):
		 * then key by key */
		__u32 count = m->nkeys[i];
		if (count && bpf_map_delete_batch(m->fd[i], m->keys[i], &count, NULL))
			empty_map(m->fd[i]);
		free(m->keys[i]);
	}
}

/* With no records after the blob, two for each clause, one of zeros and
 * one of a byte pattern (values that are not zero, strings without their
 * NUL): every clause's actions are decoded even before the fuzzer finds
 * records. */
static void made_records(struct dcc_runtime *rt)
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
		for (int pattern = 0; pattern < 2; pattern++) {
			for (uint32_t b = 0; b < c[i].size; b++)
				((uint8_t *)rec)[b] = pattern ? (uint8_t)(b * 37 + 11) : 0;
			if (c[i].size < sizeof(*rec))
				break; /* no room for the header set below */
			/* CPU 0, no flags: a flag would make it a fault record */
			*rec = (struct dcc_rec_hdr){ .epid = i + 1,
						     .probe_id = h->nprobes ? p[0].id : 0 };
			dcc_runtime__handle_record(rt, rec, c[i].size);
		}
		free(rec);
	}
}

/* The records of a destructive object are decoded when what its actions do
 * here is harmless: system() is faked (popen above), ftruncate() empties
 * /dev/null; freopen() would append to any file its record names, and
 * ftruncate() would empty the log that DCC_FUZZ_SHOW's stderr may be. */
static bool destr_safe(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_action *a = (const void *)((const char *)h + h->action_off);
	if (!(h->flags & DCC_META_F_DESTRUCTIVE))
		return true;
	if (show)
		return false;
	for (uint32_t i = 0; i < h->nactions; i++)
		if (a[i].kind == DCC_ACT_FREOPEN)
			return false;
	return true;
}

static void records(struct dcc_runtime *rt, const uint8_t *p, size_t n)
{
	if (!destr_safe(rt))
		return;
	fake_popen = true;
	if (n < 4)
		made_records(rt);
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
	fake_popen = false;
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
			fill_drops(rt, data + used, n);
			used += n;
		}
		records(rt, data + used, size - used);
		print_maps(rt, &m);
		dcc_runtime__free(rt);
	}
	free(copy);
	return 0;
}
