/*
 * delayed_getppid MS N: sleeps MS milliseconds (time for a tracer started with
 * -p to attach), then calls getppid() N times and exits.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], NULL, 0) : 1000;
	long n = argc > 2 ? strtol(argv[2], NULL, 0) : 1;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
	for (long i = 0; i < n; i++)
		getppid();
	return 0;
}
