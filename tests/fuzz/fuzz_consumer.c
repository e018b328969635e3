/*
 * libFuzzer harness for the consumer: any bytes as what dtrun reads before
 * it loads anything. An input starting with ELF's magic is an object: its
 * metadata section is found and checked (dcc_meta_from_elf), dumped as
 * `dcc --dump-meta` would, and handed to the runtime. Any other input is a
 * metadata blob for the runtime, and the bytes after the blob's size are
 * ring-buffer records ([u32 length][record]...) for the record decoder.
 * A refusal or success, never a crash, a hang, a leak or a sanitizer report.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static struct dcc_runtime *runtime(const void *meta, size_t size)
{
	struct dcc_runtime_opts ro = { .sz = sizeof(ro), .out = sink, .err = sink,
				       .progname = "fuzz" };
	return dcc_runtime__new(meta, size, &ro);
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
		dcc_runtime__free(runtime(meta, msize));
		return 0;
	}
	/* libbpf's ring buffer and the ELF reader give 8-byte aligned memory */
	void *copy = aligned_alloc(8, (size + 7) & ~(size_t)7);
	memcpy(copy, data, size);
	struct dcc_runtime *rt = runtime(copy, size);
	if (rt) {
		uint32_t used = dcc_runtime__meta(rt)->size;
		records(rt, data + used, size - used);
		dcc_runtime__free(rt);
	}
	free(copy);
	return 0;
}
