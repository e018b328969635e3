/* sleep_ms MS [STATUS]: sleeps MS milliseconds, then exits with STATUS (default 0). */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], NULL, 0) : 100;
	int status = argc > 2 ? atoi(argv[2]) : 0;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
	return status;
}
