/*
 * open_paged K PATH: calls openat(AT_FDCWD, PATH, O_RDONLY, 0421) K times,
 * after reading PATH once so its page is present: a BPF program can't fault
 * user memory in, and copyinstr() of a page never touched reads nothing.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long k = strtol(argv[1], NULL, 0);
	volatile size_t touched = strlen(argv[2]);
	(void)touched;
	for (long i = 0; i < k; i++) {
		long fd = syscall(SYS_openat, AT_FDCWD, argv[2], O_RDONLY, 0421);
		if (fd >= 0)
			close((int)fd);
	}
	return 0;
}
