/*
 * getppid_n N [BEFORE [AFTER [STATUS]]]: sleeps BEFORE seconds (so a tracer
 * can attach with -p), calls getppid() exactly N times, sleeps AFTER seconds,
 * exits with STATUS. Defaults: N 1, no sleeps, status 0.
 */
#include <stdlib.h>
#include <unistd.h>

static long arg(int argc, char **argv, int i, long def)
{
	return argc > i ? strtol(argv[i], NULL, 10) : def;
}

int main(int argc, char **argv)
{
	long n = arg(argc, argv, 1, 1), before = arg(argc, argv, 2, 0);
	long after = arg(argc, argv, 3, 0);

	/* No sleep(0): tests count the nanosleep calls. */
	if (before > 0)
		sleep((unsigned)before);
	for (long i = 0; i < n; i++)
		getppid(); /* libc's wrapper: one syscall each, no caching */
	if (after > 0)
		sleep((unsigned)after);
	return (int)arg(argc, argv, 4, 0);
}
