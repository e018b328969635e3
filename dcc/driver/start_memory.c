/*
 * The dcc executable's memory, prepared before LLVM's static constructors
 * run (constructor priority 101, the first an application may use): on a
 * virtual machine a page fault is expensive (~13 us for a 4 KiB anonymous
 * page on the one bench/RESULTS.md was measured on, 2026-11-28), and a
 * one-clause compile took ~470 of them in malloc's memory and ~100 in .bss.
 *
 * The heap in transparent huge pages: hugeheap_reserve() (loader/hugeheap.c,
 * shared with dtrun) before anything has touched the heap. Done in main(),
 * after LLVM's constructors had, it left ~650 faults of a one-clause
 * compile instead of ~335. main()'s own call then finds the reserve made,
 * and `dcc run` trims after loading through hugeheap_release() as dtrun does.
 *
 * .bss populated in one call (MADV_POPULATE_WRITE, Linux 5.14): LLVM's
 * static objects there (its command-line options, ~440 KiB) are all
 * written by their constructors. Where dcc's link script put them between
 * two 2 MiB boundaries, away from what ld.so writes (.dynbss), nothing has
 * touched that range yet and it is advised first: one huge page. On a
 * virtual machine each 4 KiB page first written cost ~10 us even when
 * populated (bench/RESULTS.md, 2026-11-29).
 *
 * The text and read-only data advised for huge pages, where the link
 * aligned them by 2 MiB: where their page cache was dropped since it was
 * read by 2 MiB (cmake/page_cache_prime.c, after each link and install),
 * a fault reads a whole 2 MiB folio again, which this start and the next
 * ones map by one page-table entry. Constructors of priority 101 run
 * before LLVM's, whose code is most of what a start reads.
 *
 * All are best effort: where a call fails (older kernel, THP off) dcc runs
 * as before. Not built under AddressSanitizer, which has its own allocator.
 */
#include "asan.h"

#if !DCC_ASAN
#include "loader.h"

#include <link.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum {
	HEAP_RESERVE = 60 << 20,	/* a compile reading the kernel's BTF peaks near 30 MiB */
	SMALL_PAGE = 4096,
	HUGE_PAGE = 2 << 20,
};

/* the linker's: the start and end of .bss */
extern char __bss_start[], _end[];
/* dcc's link script's (cmake/dcc_link_script.cmake), where it is used:
 * .bss's own variables, from a huge-page boundary to the next */
extern char dcc_bss_huge_start[] __attribute__((weak));
extern char dcc_bss_huge_end[] __attribute__((weak));

static uintptr_t align_up(uintptr_t v, uintptr_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static void populate_bss(void)
{
	uintptr_t start = (uintptr_t)dcc_bss_huge_start, end = (uintptr_t)dcc_bss_huge_end;
	/* one huge page where nothing has touched the range; else the
	 * populate gives small pages, as the one below does */
	if (start && end > start &&
	    !madvise((void *)start, end - start, MADV_HUGEPAGE) &&
	    !madvise((void *)start, end - start, MADV_POPULATE_WRITE))
		return;
	uintptr_t from = align_up((uintptr_t)__bss_start, SMALL_PAGE);
	uintptr_t to = align_up((uintptr_t)_end, SMALL_PAGE);
	if (to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
}

/* the executable's read-only segments (text, .rodata) where the link
 * aligned them by 2 MiB, found by its program headers (the load bias is 0
 * for the usual non-PIE dcc) */
static void advise_read_only_segments(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM);
	uintptr_t bias = 0;
	if (!ph)
		return;
	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (uintptr_t)ph - ph[i].p_vaddr;
	for (size_t i = 0; i < n; i++) {
		if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & PF_W) || ph[i].p_align < HUGE_PAGE)
			continue;
		uintptr_t from = (bias + ph[i].p_vaddr) & ~(uintptr_t)(SMALL_PAGE - 1);
		uintptr_t to = align_up(bias + ph[i].p_vaddr + ph[i].p_memsz, SMALL_PAGE);
		madvise((void *)from, to - from, MADV_HUGEPAGE);
	}
}

__attribute__((constructor(101))) static void start_memory(void)
{
	advise_read_only_segments();
	hugeheap_reserve(HEAP_RESERVE);
	populate_bss();
}
#else
/* ISO C wants something in a translation unit */
typedef int start_memory_off;
#endif
