/*
 * The heap on transparent huge pages, for the dcc and dtrun programs (not
 * the embedding library: a host application's malloc is its own).
 *
 * Why: a page fault is expensive in a virtual machine (~13 us for a 4 KiB
 * anonymous page on the one bench/RESULTS.md was measured on, 2026-11-28,
 * against ~1 us on bare metal). libbpf reads the kernel's BTF (5.5 MB on
 * 6.18) into one block and copies it into another, and glibc gives blocks
 * that large fresh mmap()s: ~2,700 faults, most of a dtrun start and of a
 * compile that reads a kernel type. dcc's LLVM adds ~470 faults of small
 * blocks to a one-clause compile. From a heap advised with MADV_HUGEPAGE
 * (THP's "madvise" mode, the default) those are a few 2 MiB faults.
 *
 * How (glibc only): blocks up to 32 MiB stay in the brk heap (no mmap);
 * the break is moved to one small page below a 2 MiB boundary and the heap
 * grown by the reserve at once (in blocks below that threshold, held
 * together); from the boundary on, the reserve is advised and freed again,
 * so what malloc hands out next comes from there.
 * The page malloc writes its headers into when it grows is the one left
 * below the boundary: a 4 KiB page touched before the madvise would make
 * its whole 2 MiB range small pages. Only virtual memory is reserved: a
 * huge page is taken when first touched. Trimming waits for
 * hugeheap_release() (a trim unmaps the advised range, and what grows back
 * is small pages).
 *
 * Every step is best effort: where a call fails (THP off, another malloc,
 * valgrind's) the heap behaves as before. Nothing is done under
 * AddressSanitizer, which has its own allocator.
 */
#include "loader.h"

#include "asan.h"

#if !DCC_ASAN && defined(__GLIBC__)
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
	HUGE_PAGE = 2 << 20,
	SMALL_PAGE = 4096,
	CHUNK_MAX = 30 << 20,		/* below the mmap threshold set here */
	RESERVE_MAX = 4 * CHUNK_MAX,
	MMAP_THRESHOLD = 32 << 20,	/* glibc's largest */
	TRIM_THRESHOLD = 1 << 30,
	TRIM_DEFAULT = 128 << 10,	/* glibc's M_TRIM_THRESHOLD default */
	TOP_PAD_DEFAULT = 128 << 10,	/* glibc's M_TOP_PAD default */
};

static bool reserved;

static uintptr_t align_up(uintptr_t v, uintptr_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* the heap grown by n blocks of chunk bytes held at once, contiguous
 * above start; the end of the last contiguous one, or 0 */
static uintptr_t grow_heap(uintptr_t start, size_t chunk, int n)
{
	char *blocks[RESERVE_MAX / CHUNK_MAX];
	uintptr_t end = 0;
	int got = 0;

	for (; got < n; got++) {
		/* volatile: a malloc whose block is only freed may be dropped */
		char *volatile b = malloc(chunk);
		blocks[got] = b;
		if (!b)
			break;
		/* the first block's header, and malloc's own first allocation,
		 * in the page below the boundary; each next one right after */
		uintptr_t at = (uintptr_t)b;
		if (got == 0 ? !(at > start && at < start + SMALL_PAGE)
			     : at - end > 64) {
			got++;
			break;
		}
		end = at + chunk;
	}
	while (got > 0)
		free(blocks[--got]);
	return end;
}

void hugeheap_reserve(size_t bytes)
{
	if (reserved || !bytes)
		return;
	reserved = true;
	if (bytes > RESERVE_MAX)
		bytes = RESERVE_MAX;
	if (!mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) ||
	    !mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
		return;
	/* the break one small page below a huge-page boundary */
	uintptr_t brk_now = (uintptr_t)sbrk(0);
	uintptr_t start = align_up(brk_now + SMALL_PAGE, HUGE_PAGE) - SMALL_PAGE;
	if (brk_now == (uintptr_t)-1 || sbrk((intptr_t)(start - brk_now)) == (void *)-1)
		return;
	/* no padding: a block's end decides where malloc writes next */
	mallopt(M_TOP_PAD, 0);
	int n = (int)((bytes + CHUNK_MAX - 1) / CHUNK_MAX);
	uintptr_t end = grow_heap(start, (bytes + (size_t)n - 1) / (size_t)n, n);
	/* the last partial huge page holds the top chunk's header */
	uintptr_t first = start + SMALL_PAGE, last = end & ~(uintptr_t)(HUGE_PAGE - 1);
	if (end && last > first)
		madvise((void *)first, last - first, MADV_HUGEPAGE);
	mallopt(M_TOP_PAD, TOP_PAD_DEFAULT);
}

void hugeheap_release(void)
{
	if (!reserved)
		return;
	reserved = false;
	/* glibc's default again, and what is free now goes back */
	mallopt(M_TRIM_THRESHOLD, TRIM_DEFAULT);
	malloc_trim(0);
}
#else
void hugeheap_reserve(size_t bytes)
{
	(void)bytes;
}

void hugeheap_release(void)
{
}
#endif
