/*
 * spin_cpu [MS]: spins on the CPU until it has used MS milliseconds of CPU
 * time (default 400), reading that time (a system call) once every 65,536
 * turns of the loop, then exits 0.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 400;
	struct timespec ts;

	do {
		for (unsigned i = 0; i < 65536; i++)
			sink += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 < ms);
	return 0;
}
