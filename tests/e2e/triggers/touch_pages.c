/*
 * touch_pages N: maps N fresh anonymous pages (no huge pages) and writes
 * one byte to each, between two getppid() calls that mark the span: each
 * write is exactly one user-mode page fault.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, pg = sysconf(_SC_PAGESIZE);
	char *p;

	usleep(100000);
	p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	if (p == MAP_FAILED || madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE))
		return 1;
	getppid();
	for (long i = 0; i < n; i++)
		((volatile char *)p)[i * pg] = 1;
	getppid();
	return 0;
}
