/*
 * Trigger for the pid provider: calls dcc_pid_target_fn(i) for i = 1..N
 * (its return value is 3 * i + 1), dcc_pid_target_seven() (seven
 * arguments, returning their sum) once and getpid() N times. With an
 * optional second argument, first sleeps that many milliseconds (for -p).
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) int dcc_pid_target_fn(int i)
{
	__asm__ volatile("" ::: "memory");
	return 3 * i + 1;
}

__attribute__((noinline)) long dcc_pid_target_seven(long a, long b, long c, long d, long e,
						     long f, long g)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c + d + e + f + g;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	volatile long sink = 0;

	if (argc > 2) {
		long ms = atol(argv[2]);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
		nanosleep(&ts, NULL);
	}
	for (int i = 1; i <= n; i++) {
		sink += dcc_pid_target_fn(i);
		sink += getpid();
	}
	sink += dcc_pid_target_seven(1, 2, 3, 4, 5, 6, 70);
	return sink == 0;
}
