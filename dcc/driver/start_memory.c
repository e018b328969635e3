/*
 * The dcc executable's memory, prepared before LLVM's static constructors
 * run (constructor priority 101, the first an application may use): on a
 * virtual machine a page fault is expensive (~13 us for a 4 KiB anonymous
 * page on the one bench/RESULTS.md was measured on, 2026-11-28), and a
 * one-clause compile took ~470 of them in malloc's memory and ~100 in .bss.
 *
 * The heap in transparent huge pages: malloc's heap is moved to a 2 MiB
 * boundary and grown by a 30 MiB block at once, which is marked
 * MADV_HUGEPAGE (the THP mode "madvise" honours it) and freed again; what
 * malloc hands out next comes from there, 2 MiB a fault. Large blocks stay
 * in the heap (no mmap below 32 MiB), and the heap is never trimmed: a
 * trim would unmap the marked range, and what grew back would be 4 KiB
 * pages (dcc exits).
 * The page malloc writes its headers into when it grows is left just
 * below the boundary: a 4 KiB page touched before the madvise would make
 * its whole 2 MiB range 4 KiB pages. Only virtual memory is reserved: a
 * huge page is taken when first touched. main()'s hugeheap_reserve()
 * (loader/hugeheap.c, shared with dtrun) then finds its reserve already
 * there and advises nothing more; done that late, after LLVM's
 * constructors have touched the heap, it alone left ~650 faults of a
 * one-clause compile instead of ~335. `dcc run` trims after loading
 * through hugeheap_release() as dtrun does.
 *
 * .bss populated in one call (MADV_POPULATE_WRITE, Linux 5.14): LLVM's
 * static objects there (its command-line options, ~440 KiB) are all
 * written by their constructors, one fault a page otherwise.
 *
 * Every step is best effort: where a call fails (older kernel, THP off, a
 * malloc that is not glibc's under valgrind) dcc runs as before. Not built
 * under AddressSanitizer, which has its own allocator.
 */
#if defined(__SANITIZE_ADDRESS__)
#define START_MEMORY_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define START_MEMORY_OFF 1
#endif
#endif

#ifndef START_MEMORY_OFF
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum {
	HUGE_PAGE = 2 << 20,
	SMALL_PAGE = 4096,
	HEAP_RESERVE = 30 << 20,	/* below the mmap threshold set here */
	MMAP_THRESHOLD = 32 << 20,	/* glibc's largest */
	TRIM_THRESHOLD = 1 << 30,
	TOP_PAD_DEFAULT = 128 << 10,	/* glibc's M_TOP_PAD default */
};

/* the linker's: the start and end of .bss */
extern char __bss_start[], _end[];

static uintptr_t align_up(uintptr_t v, uintptr_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static void heap_in_huge_pages(void)
{
	if (!mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) ||
	    !mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
		return;
	/* the break one small page below a huge-page boundary */
	uintptr_t brk_now = (uintptr_t)sbrk(0);
	uintptr_t start = align_up(brk_now + SMALL_PAGE, HUGE_PAGE) - SMALL_PAGE;
	if (brk_now == (uintptr_t)-1 || sbrk(start - brk_now) == (void *)-1)
		return;
	/* no padding: the block's end decides where malloc writes next;
	 * volatile: a malloc whose block is only freed may be dropped */
	mallopt(M_TOP_PAD, 0);
	char *volatile block = malloc(HEAP_RESERVE);
	uintptr_t b = (uintptr_t)block;
	/* the block must be the heap just grown (its header, and malloc's
	 * own first allocation, in the page below the boundary) */
	if (b > start && b < start + SMALL_PAGE) {
		uintptr_t first = start + SMALL_PAGE;
		/* the last partial huge page holds the top chunk's header */
		uintptr_t last = (b + HEAP_RESERVE) & ~(uintptr_t)(HUGE_PAGE - 1);
		if (last > first)
			madvise((void *)first, last - first, MADV_HUGEPAGE);
	}
	free(block);
	mallopt(M_TOP_PAD, TOP_PAD_DEFAULT);
}

static void populate_bss(void)
{
	uintptr_t from = align_up((uintptr_t)__bss_start, SMALL_PAGE);
	uintptr_t to = align_up((uintptr_t)_end, SMALL_PAGE);
	if (to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
}

__attribute__((constructor(101))) static void start_memory(void)
{
	heap_in_huge_pages();
	populate_bss();
}
#else
/* ISO C wants something in a translation unit */
typedef int start_memory_off;
#endif
