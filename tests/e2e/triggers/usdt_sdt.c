/*
 * Trigger for USDT probes written with <sys/sdt.h>: for i = 1..N,
 * dcctest:tick(i, -1000 * i, (short)(7 * i), 42) and dcctest:query__done(i),
 * with dcctest:tick's semaphore. Its last line, on stderr, says how often
 * DCCTEST_TICK_ENABLED() was true: the semaphore is set while a tracer is
 * attached. With an optional second argument, first sleeps that many
 * milliseconds (for -p).
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

/* with _SDT_HAS_SEMAPHORES every probe has one, named as sdt.h expects */
__extension__ unsigned short dcctest_tick_semaphore __attribute__((section(".probes")));
__extension__ unsigned short dcctest_query__done_semaphore __attribute__((section(".probes")));
#define DCCTEST_TICK_ENABLED() __builtin_expect(dcctest_tick_semaphore, 0)

/* a separate function: the probes' FUNC */
__attribute__((noinline)) static void dcc_usdt_work(int i, int *enabled)
{
	volatile short s = (short)(7 * i); /* a stack slot: a memory operand */
	long neg = -1000L * i;

	if (DCCTEST_TICK_ENABLED())
		++*enabled;
	STAP_PROBE4(dcctest, tick, i, neg, s, 42);
	DTRACE_PROBE1(dcctest, query__done, i);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, enabled = 0;

	if (argc > 2) {
		long ms = atol(argv[2]);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
		nanosleep(&ts, NULL);
	}
	for (int i = 1; i <= n; i++)
		dcc_usdt_work(i, &enabled);
	fprintf(stderr, "enabled %d of %d\n", enabled, n);
	return 0;
}
