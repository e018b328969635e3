/* Calls getppid() exactly N times (argv[1], default 1), then exits 0.
 * Optional argv[2]: seconds to sleep first (so a tracer can attach to it). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1;

	if (argc > 2)
		sleep((unsigned)strtoul(argv[2], NULL, 10));
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
