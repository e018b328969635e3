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
	sink = fopen("/dev/null", "w");
	return 0;
}

static struct dcc_runtime *runtime(const void *meta, size_t size)
{
	struct dcc_runtime_opts ro = { .sz = sizeof(ro), .out = sink, .err = sink,
				       .progname = "fuzz" };
	return dcc_runtime__new(meta, size, &ro);
}

static void records(struct dcc_runtime *rt, const uint8_t *p, size_t n)
{
	/* the consumer runs system() and freopen() only for destructive objects:
	 * those are the loader's to refuse without -w, not the decoder's */
	if (dcc_runtime__meta(rt)->flags & DCC_META_F_DESTRUCTIVE)
		return;
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
