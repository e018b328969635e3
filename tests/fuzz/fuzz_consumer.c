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
 * Before the blob, any of these prefixes, in any order:
 *   'J'          -x oformat=json;
 *   'Q'          the caller's quiet (dtrun -q);
 *   'X' n text   a -x option of n bytes ("name" or "name=value"), up to 8;
 *   'R'          records to a callback (dcc_runtime__set_record_fn) that
 *                reads each argument with dcc_runtime__record_arg, and the
 *                aggregations truncated and cleared after printing.
 * A refusal or success, never a crash, a hang, a leak or a sanitizer report.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>
#include <errno.h>
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

/* freopen() likewise: while records are decoded, the file its record
 * names is opened as /dev/null (a name ending in '/' fails as a directory
 * would), so its records can be decoded without writing anywhere. */
FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fopen");
	if (fake_popen && !strcmp(mode, "ae")) {
		size_t len = strlen(path);
		if (len && path[len - 1] == '/') {
			errno = EISDIR;
			return NULL;
		}
		path = "/dev/null";
	}
	return real ? real(path, mode) : NULL;
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

/* Addresses that resolve, for address and stack values the harness makes
 * (made_records, every other map entry): a kernel function's from
 * /proc/kallsyms, and a libc function's in this process (pid), whose
 * /proc/PID/maps and ELF symbols the runtime reads. Random bytes never
 * name a mapping of a live process. */
static uint64_t kaddr, uaddr;
static int upid;

static void real_addrs(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	unsigned long long a;
	char type, name[256];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && a &&
		    (type == 'T' || type == 't') && !strcmp(name, "schedule")) {
			kaddr = a + 4;
			break;
		}
	if (f)
		fclose(f);
	upid = getpid();
	uaddr = (uint64_t)(uintptr_t)dlsym(RTLD_NEXT, "qsort") + 4;
}

static void put_word(uint8_t *p, uint32_t i, uint64_t w)
{
	memcpy(p + 8 * i, &w, 8);
}

/* An address or stack field at base + f->offset given real addresses
 * (a stack ends with a 0 PC where there is room); other kinds untouched. */
static void put_addrs(uint8_t *base, size_t len, const struct dcc_meta_field *f)
{
	uint32_t words = f->size / 8;
	if (f->offset > len || f->size > len - f->offset || !words)
		return;
	uint8_t *p = base + f->offset;
	switch (f->kind) {
	case DCC_K_SYM:
	case DCC_K_MOD:
		put_word(p, 0, kaddr);
		break;
	case DCC_K_STACK:
		for (uint32_t i = 0; i < words; i++)
			put_word(p, i, i < 3 ? kaddr + 16 * i : 0);
		break;
	case DCC_K_USYM:
	case DCC_K_UADDR:
	case DCC_K_UMOD:
		if (words >= 2) {
			put_word(p, 0, (uint64_t)upid);
			put_word(p, 1, uaddr);
		}
		break;
	case DCC_K_USTACK:
		put_word(p, 0, (uint64_t)upid);
		for (uint32_t i = 1; i < words; i++)
			put_word(p, i, i < 3 ? uaddr + 16 * i : 0);
		break;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* DCC_FUZZ_SHOW=1: the runtime's output and messages on stderr, to see
	 * what an input does */
	show = getenv("DCC_FUZZ_SHOW") != NULL;
	sink = show ? stderr : fopen("/dev/null", "w");
	real_addrs();
	return 0;
}

/* What the prefixes before a blob ask for. */
struct prefix {
	bool json, quiet, to_fn;
	int nx;
	char *x[9]; /* -x options, NUL-terminated copies */
};

static size_t read_prefix(const uint8_t *data, size_t size, struct prefix *p)
{
	size_t at = 0;
	for (;;) {
		if (at < size && data[at] == 'J')
			p->json = true, at++;
		else if (at < size && data[at] == 'Q')
			p->quiet = true, at++;
		else if (at < size && data[at] == 'R')
			p->to_fn = true, at++;
		else if (at + 1 < size && data[at] == 'X' && p->nx < 8 &&
			 data[at + 1] <= size - at - 2) {
			p->x[p->nx++] = strndup((const char *)data + at + 2, data[at + 1]);
			at += 2 + data[at + 1];
		} else
			return at;
	}
}

static struct dcc_runtime *runtime(const void *meta, size_t size, const struct prefix *p)
{
	const char *xopts[10];
	int n = 0;
	for (int i = 0; i < p->nx; i++)
		if (p->x[i])
			xopts[n++] = p->x[i];
	if (p->json)
		xopts[n++] = "oformat=json";
	struct dcc_runtime_opts ro = { .sz = sizeof(ro), .out = sink, .err = sink,
				       .progname = "fuzz", .xopts = n ? xopts : NULL,
				       .nxopts = n, .quiet = p->quiet };
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
 * bytes and val_size bytes for CPU 0 (and CPU 1 in odd entries), in
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
		const struct dcc_meta_field *kf =
			(const void *)((const char *)h + h->key_off);
		for (; e < want && keys && vals && n > 0; e++) {
			size_t k = n < ks ? n : ks;
			memcpy(keys + e * ks, p, k);
			for (uint32_t j = 0; e % 2 && j < a->nkeys; j++)
				put_addrs(keys + e * ks, ks, &kf[a->first_key + j]);
			p += k, n -= k;
			size_t v = n < vs ? n : vs;
			memcpy(vals + e * per, p, v);
			/* every other entry, CPU 1 holds what CPU 0 does: the
			 * runtime's merges of CPUs get values to add */
			if (e % 2 && ncpu > 1)
				memcpy(vals + e * per + stride, p, v);
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

static void trunc_and_clear(struct dcc_runtime *rt, struct maps *m);

static void print_maps(struct dcc_runtime *rt, struct maps *m, bool then_clear)
{
	for (int i = 0; i < m->n; i++)
		dcc_runtime__agg_walk(rt, m->id[i], walk_one, rt);
	dcc_runtime__print_aggs(rt);
	if (then_clear)
		trunc_and_clear(rt, m);
	for (int i = 0; i < m->n; i++) {
		/* one call, unless a key came twice (the second delete fails):
		 * then key by key */
		__u32 count = m->nkeys[i];
		if (count && bpf_map_delete_batch(m->fd[i], m->keys[i], &count, NULL))
			empty_map(m->fd[i]);
		free(m->keys[i]);
	}
}

/* With no records after the blob, three for each clause, one of zeros,
 * one of a byte pattern (values that are not zero, strings without their
 * NUL) and the pattern with addresses that resolve: every clause's actions
 * are decoded even before the fuzzer finds records. */
static void made_records(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_clause *c = (const void *)((const char *)h + h->clause_off);
	const struct dcc_meta_probe *p = (const void *)((const char *)h + h->probe_off);
	const struct dcc_meta_action *act = (const void *)((const char *)h + h->action_off);
	const struct dcc_meta_field *args = (const void *)((const char *)h + h->arg_off);
	for (uint32_t i = 0; i < h->nclauses; i++) {
		/* a record is at most what a ring buffer holds, not the 4 GiB a
		 * clause may claim (that claim is the decoder's to refuse) */
		if (c[i].size > 1u << 20)
			continue;
		struct dcc_rec_hdr *rec = aligned_alloc(8, (c[i].size + 7) & ~7u);
		for (int pattern = 0; pattern < 3; pattern++) {
			for (uint32_t b = 0; b < c[i].size; b++)
				((uint8_t *)rec)[b] = pattern ? (uint8_t)(b * 37 + 11) : 0;
			for (uint32_t k = 0; pattern == 2 && k < c[i].nactions; k++) {
				const struct dcc_meta_action *a = &act[c[i].first_action + k];
				for (uint32_t j = 0; j < a->nargs; j++)
					put_addrs((uint8_t *)rec, c[i].size, &args[a->first_arg + j]);
			}
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
 * here is harmless: system() is faked (popen above), freopen() opens
 * /dev/null (fopen above), ftruncate() empties /dev/null; but not with
 * DCC_FUZZ_SHOW, whose stderr ftruncate() would empty. */
static bool destr_safe(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	return !(h->flags & DCC_META_F_DESTRUCTIVE) || !show;
}

/* 'R': each record's arguments read one by one through the API, one past
 * the last (action and argument) included, as an application would. */
static void to_fn(void *ctx, const struct dcc_rec_hdr *hdr, const void *rec, size_t size)
{
	struct dcc_runtime *rt = ctx;
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_clause *c = (const void *)((const char *)h + h->clause_off);
	const struct dcc_meta_action *a = (const void *)((const char *)h + h->action_off);
	if (!hdr->epid || hdr->epid > h->nclauses)
		return;
	const struct dcc_meta_clause *cl = &c[hdr->epid - 1];
	for (uint32_t k = 0; k <= cl->nactions; k++) {
		uint32_t nargs = k < cl->nactions ? a[cl->first_action + k].nargs : 0;
		for (uint32_t n = 0; n <= nargs; n++) {
			int64_t i;
			const char *sv;
			size_t len;
			if (dcc_runtime__record_arg(rt, rec, size, k, n, &i, &sv, &len) ==
				    DCC_K_STRING && sv)
				fwrite(sv, 1, len, sink);
		}
	}
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

/* An empty ring buffer, made once, bound to each runtime and polled at
 * the end, as dtrun does (records come through handle_record: nothing
 * outside the kernel can write a BPF ring buffer). */
static int ringbuf_fd = -2;

static void poll_empty(struct dcc_runtime *rt)
{
	if (ringbuf_fd == -2)
		ringbuf_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "fuzz_rb", 0, 0, 4096, NULL);
	if (ringbuf_fd >= 0)
		dcc_runtime__set_ringbuf_fd(rt, ringbuf_fd);
	dcc_runtime__poll(rt, 0);
}

/* 'R': after printing, each aggregation truncated to its first entry, then
 * cleared, and walked after each. */
static void trunc_and_clear(struct dcc_runtime *rt, struct maps *m)
{
	for (int i = 0; i < m->n; i++) {
		dcc_runtime__agg_trunc(rt, m->id[i], 1);
		dcc_runtime__agg_walk(rt, m->id[i], walk_one, rt);
		dcc_runtime__agg_clear(rt, m->id[i]);
		dcc_runtime__agg_walk(rt, m->id[i], walk_one, rt);
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
		struct prefix none = { .nx = 0 };
		struct dcc_runtime *rt = runtime(meta, msize, &none);
		if (rt && destr_safe(rt)) {
			fake_popen = true;
			made_records(rt);
			fake_popen = false;
		}
		dcc_runtime__free(rt);
		return 0;
	}
	struct prefix pre = { .nx = 0 };
	size_t skip = read_prefix(data, size, &pre);
	data += skip, size -= skip;
	/* libbpf's ring buffer and the ELF reader give 8-byte aligned memory */
	void *copy = aligned_alloc(8, (size + 7) & ~(size_t)7);
	memcpy(copy, data, size);
	struct dcc_runtime *rt = runtime(copy, size, &pre);
	for (int i = 0; i < pre.nx; i++)
		free(pre.x[i]);
	if (rt) {
		dcc_runtime__set_target(rt, upid);
		if (pre.to_fn)
			dcc_runtime__set_record_fn(rt, to_fn, rt);
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
		print_maps(rt, &m, pre.to_fn);
		poll_empty(rt);
		dcc_runtime__output_reopened(rt);
		dcc_runtime__free(rt);
	}
	free(copy);
	return 0;
}
