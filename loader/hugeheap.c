/*
 * The heap on transparent huge pages, for dcc and dtrun (not the embedding
 * library: a host application's malloc is its own).
 *
 * Why: reading the kernel's BTF (5.5 MB on 6.18), libbpf allocates the
 * file's size twice (the read buffer and its copy), and glibc gives blocks
 * that large fresh mmap()s, one page fault per 4 KiB page touched: ~2,700
 * faults. A fault costs ~13 us in a paravirtualised VM (against ~1 us on
 * bare metal), so that was ~35 ms of a ~45 ms dtrun start and most of a
 * compile that reads a kernel type (bench/RESULTS.md, 2026-11-28 night).
 * Served from a heap advised with MADV_HUGEPAGE (THP's "madvise" mode, the
 * default), those pages are a few 2 MiB faults.
 *
 * How (glibc only; elsewhere nothing changes): blocks up to 32 MiB come from
 * the brk heap instead of mmap(); the heap is grown by the reserve at once
 * and the part of it that is 2 MiB-aligned advised; trimming waits until
 * hugeheap_release(). If THP is off, madvise() fails and the heap behaves
 * as before, with 4 KiB pages.
 */
#include "loader.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)

#ifdef __GLIBC__
static bool reserved;
#endif

void hugeheap_reserve(size_t bytes)
{
#ifdef __GLIBC__
	if (reserved || !bytes)
		return;
	reserved = true;
	/* 32 MiB is the largest threshold glibc accepts */
	if (bytes > ((size_t)24 << 20))
		bytes = (size_t)24 << 20;
	if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) || !mallopt(M_TRIM_THRESHOLD, (int)bytes * 2))
		return;
	uintptr_t lo = (uintptr_t)sbrk(0);
	/* volatile: a malloc whose block is only freed may be left out */
	void *volatile p = malloc(bytes);
	free(p);
	uintptr_t hi = (uintptr_t)sbrk(0);
	uintptr_t a = (lo + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), b = hi & ~(HUGE_PAGE - 1);
	if (lo != (uintptr_t)-1 && a < b)
		madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
	(void)bytes;
#endif
}

void hugeheap_release(void)
{
#ifdef __GLIBC__
	if (!reserved)
		return;
	reserved = false;
	/* glibc's default again, and what is free now goes back */
	mallopt(M_TRIM_THRESHOLD, 128 * 1024);
	malloc_trim(0);
#endif
}
