/*
 * page_cache_prime FILE...: puts each executable's loadable segments in the
 * page cache as 2 MiB folios, so that every process that runs it afterwards
 * maps each whole 2 MiB of its text and read-only data with one page-table
 * entry instead of 512 (the segments are 2 MiB-aligned in the file and in
 * memory: -z max-page-size, cmake/dcc_link_script.cmake).
 *
 * Run on dcc after each link and at install. Why: on a virtual machine each
 * 4 KiB page-table entry costs ~2 us the first time a process touches a
 * cached file page, and a one-clause compile touched ~2,200 of them in
 * LLVM's text and data (bench/RESULTS.md, 2026-11-29).
 *
 * How: the file's cached pages are written back and dropped, then read again
 * through a mapping advised MADV_HUGEPAGE, whose faults read ahead a whole
 * 2 MiB folio where the file system allows large folios (ext4 since Linux
 * 6.16, XFS...). A later process's read fault maps such a folio by one entry
 * when its virtual range is 2 MiB-aligned too, without any advice of its own.
 * dcc's start-up advises its own text as well (dcc/driver/start_memory.c),
 * for when the cache was dropped since.
 *
 * Best effort: any failure leaves the cache as it was, and the exit status
 * is 0 (a build must not fail for a page cache).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define HUGE_SIZE ((size_t)2 << 20)
#define SMALL_SIZE ((size_t)4096)

/* a range of HUGE_SIZE-aligned address space, len bytes, or NULL */
static void *aligned_space(size_t len)
{
	char *any = mmap(NULL, len + HUGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (any == MAP_FAILED)
		return NULL;
	uintptr_t at = ((uintptr_t)any + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1);
	munmap(any, len + HUGE_SIZE);
	return (void *)at;
}

/* reads [off, off + len) of fd (off HUGE_SIZE-aligned) through a mapping
 * advised for huge pages, a byte per small page */
static void read_huge(int fd, off_t off, size_t len)
{
	void *at = aligned_space(len);
	if (!at)
		return;
	volatile const char *p = mmap(at, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, off);
	if (p == MAP_FAILED)
		return;
	if (!madvise((void *)p, len, MADV_HUGEPAGE)) {
		for (size_t i = 0; i < len; i += SMALL_SIZE)
			(void)p[i];
	}
	munmap((void *)p, len);
}

static void prime(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	Elf64_Ehdr eh;
	if (fstat(fd, &st) || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64)
		goto out;
	Elf64_Phdr ph[64];
	size_t phsize = (size_t)eh.e_phnum * sizeof(Elf64_Phdr);
	if (pread(fd, ph, phsize, (off_t)eh.e_phoff) != (ssize_t)phsize)
		goto out;
	/* written back first: only clean pages can be dropped */
	fdatasync(fd);
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		goto out;
	for (int i = 0; i < eh.e_phnum; i++) {
		/* .data's pages are copied at their first write anyway */
		if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & PF_W) || !ph[i].p_filesz)
			continue;
		uint64_t from = ph[i].p_offset & ~(uint64_t)(HUGE_SIZE - 1);
		uint64_t to = ph[i].p_offset + ph[i].p_filesz;
		if (to > (uint64_t)st.st_size || to <= from)
			continue;
		read_huge(fd, (off_t)from, (size_t)(to - from));
	}
out:
	close(fd);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		prime(argv[i]);
	return 0;
}
