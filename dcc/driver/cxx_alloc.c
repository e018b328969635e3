/*
 * C++'s operator new and delete for the dcc executable: LLVM allocates (and
 * frees) ~44,000 objects in a 20-clause compile (instructions, DAG
 * nodes' side tables, analyses' maps, pass objects each function), and
 * glibc's malloc and free took ~115 instructions a call there, ~7% of
 * the whole compile (bench/RESULTS.md, 2026-11-28). Here a block of up to
 * 4 KiB comes from a free list of its size class (16-byte steps) or is cut
 * from a 64 KiB slab, and a freed block goes back on its list: ~15
 * instructions each way. Larger and over-aligned blocks go to malloc.
 *
 * Each block has a 16-byte header before it whose last word says where it
 * came from (a class 1..256, LARGE, or ALIGNED + the offset from what
 * aligned_alloc returned), so every delete, sized or not, finds its way.
 * The lists are per thread: a block freed by another thread joins that
 * thread's lists, which is still correct (dcc compiles on one thread; the
 * runtime's threads in `dcc run` are C and never come here).
 *
 * Memory is never returned to the system: dcc is a compiler that exits,
 * and a `dcc run` keeps what LLVM's peak took, as glibc mostly does too.
 * Not built under AddressSanitizer, whose own operators check the heap.
 *
 * The names are the Itanium C++ ABI's manglings of the 20 replaceable
 * operators; all of them are defined here, so none of libstdc++'s (which
 * pair with its malloc-based ones) is linked: a missing one would make a
 * block from one allocator go to the other's free.
 */
#include "asan.h"

#if !DCC_ASAN
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
	HDR = 16,		/* header bytes before each block (keeps 16-byte alignment) */
	STEP = 16,		/* size-class granularity */
	NCLASS = 256,		/* classes 1..256: blocks of 16..4096 bytes */
	SLAB = 64 * 1024,	/* bytes cut into blocks at a time */
	LARGE = NCLASS + 1,	/* tag: malloc'd, header at the start */
	ALIGNED = 1 << 16,	/* tag: aligned_alloc'd, ALIGNED + offset of the block */
};

struct free_block {
	struct free_block *next;
};

static __thread struct free_block *free_lists[NCLASS + 1];
static __thread char *slab_next, *slab_end;

static _Noreturn void out_of_memory(size_t n)
{
	fprintf(stderr, "dcc: error: out of memory (%zu bytes)\n", n);
	abort();
}

static inline uint64_t *tag_of(void *p)
{
	return (uint64_t *)p - 1;
}

static void *alloc_large(size_t n)
{
	if (n > SIZE_MAX - HDR)
		return NULL;
	char *base = malloc(n + HDR);
	if (!base)
		return NULL;
	*(uint64_t *)(base + HDR - 8) = LARGE;
	return base + HDR;
}

static void *alloc_block(size_t n)
{
	if (n > NCLASS * STEP)
		return alloc_large(n);
	size_t cls = n ? (n + STEP - 1) / STEP : 1;
	struct free_block *b = free_lists[cls];
	if (b) {
		free_lists[cls] = b->next;
		return b;
	}
	size_t need = HDR + cls * STEP;
	if ((size_t)(slab_end - slab_next) < need) {
		/* the old slab's tail (< 4 KiB) is left unused */
		slab_next = malloc(SLAB);
		if (!slab_next)
			return NULL;
		slab_end = slab_next + SLAB;
	}
	char *p = slab_next + HDR;
	slab_next += need;
	*tag_of(p) = cls;
	return p;
}

static void *alloc_aligned(size_t n, size_t align)
{
	if (align <= HDR)
		return alloc_block(n);
	/* align is a power of two > 16: the block starts align bytes in,
	 * which leaves room for the header and keeps the alignment */
	if (n > SIZE_MAX - 2 * align)
		return NULL;
	size_t total = (n + align + align - 1) & ~(align - 1);
	char *base = aligned_alloc(align, total);
	if (!base)
		return NULL;
	char *p = base + align;
	*tag_of(p) = ALIGNED + align;
	return p;
}

static void free_block(void *p)
{
	if (!p)
		return;
	uint64_t tag = *tag_of(p);
	if (tag <= NCLASS) {
		struct free_block *b = p;
		b->next = free_lists[tag];
		free_lists[tag] = b;
	} else if (tag == LARGE) {
		free((char *)p - HDR);
	} else {
		free((char *)p - (tag - ALIGNED));
	}
}

static void *must(void *p, size_t n)
{
	if (!p)
		out_of_memory(n);
	return p;
}

/* operator new(size_t), new[](size_t) and their nothrow forms */
void *_Znwm(size_t n);
void *_Znam(size_t n);
void *_ZnwmRKSt9nothrow_t(size_t n, const void *nt);
void *_ZnamRKSt9nothrow_t(size_t n, const void *nt);
void *_Znwm(size_t n) { return must(alloc_block(n), n); }
void *_Znam(size_t n) { return must(alloc_block(n), n); }
void *_ZnwmRKSt9nothrow_t(size_t n, const void *nt) { (void)nt; return alloc_block(n); }
void *_ZnamRKSt9nothrow_t(size_t n, const void *nt) { (void)nt; return alloc_block(n); }

/* operator new(size_t, align_val_t), new[] and their nothrow forms */
void *_ZnwmSt11align_val_t(size_t n, size_t a);
void *_ZnamSt11align_val_t(size_t n, size_t a);
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *nt);
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *nt);
void *_ZnwmSt11align_val_t(size_t n, size_t a) { return must(alloc_aligned(n, a), n); }
void *_ZnamSt11align_val_t(size_t n, size_t a) { return must(alloc_aligned(n, a), n); }
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *nt)
{
	(void)nt;
	return alloc_aligned(n, a);
}
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, const void *nt)
{
	(void)nt;
	return alloc_aligned(n, a);
}

/* operator delete and delete[]: plain, sized, nothrow, each also aligned */
void _ZdlPv(void *p);
void _ZdaPv(void *p);
void _ZdlPvm(void *p, size_t n);
void _ZdaPvm(void *p, size_t n);
void _ZdlPvRKSt9nothrow_t(void *p, const void *nt);
void _ZdaPvRKSt9nothrow_t(void *p, const void *nt);
void _ZdlPvSt11align_val_t(void *p, size_t a);
void _ZdaPvSt11align_val_t(void *p, size_t a);
void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t a);
void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t a);
void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *nt);
void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *nt);
void _ZdlPv(void *p) { free_block(p); }
void _ZdaPv(void *p) { free_block(p); }
void _ZdlPvm(void *p, size_t n) { (void)n; free_block(p); }
void _ZdaPvm(void *p, size_t n) { (void)n; free_block(p); }
void _ZdlPvRKSt9nothrow_t(void *p, const void *nt) { (void)nt; free_block(p); }
void _ZdaPvRKSt9nothrow_t(void *p, const void *nt) { (void)nt; free_block(p); }
void _ZdlPvSt11align_val_t(void *p, size_t a) { (void)a; free_block(p); }
void _ZdaPvSt11align_val_t(void *p, size_t a) { (void)a; free_block(p); }
void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t a)
{
	(void)n, (void)a;
	free_block(p);
}
void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t a)
{
	(void)n, (void)a;
	free_block(p);
}
void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *nt)
{
	(void)a, (void)nt;
	free_block(p);
}
void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a, const void *nt)
{
	(void)a, (void)nt;
	free_block(p);
}
#endif
