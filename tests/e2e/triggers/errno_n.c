/*
 * errno_n K: calls openat(AT_FDCWD, "/nonexistent/dcc-e2e", O_RDONLY, 0421)
 * K times; each fails with ENOENT (2). The unusual mode 0421 (ignored by the
 * kernel without O_CREAT) lets a script pick these calls out by arg3.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long k = argc > 1 ? strtol(argv[1], NULL, 0) : 1;

	for (long i = 0; i < k; i++)
		if (syscall(SYS_openat, AT_FDCWD, "/nonexistent/dcc-e2e", O_RDONLY, 0421) != -1)
			return 1;
	return 0;
}
