/*
 * Trigger for USDT arguments in globals: for i = 1..N it updates three
 * globals and then fires dccglob:state(dcc_glob_count, dcc_glob_pair.hi,
 * dcc_glob_small, i) in a function that only reads them, so gcc at -O2
 * (this trigger's flags, tests/CMakeLists.txt) passes each as memory
 * relative to %rip ("-8@dcc_glob_count(%rip)", "-4@8+dcc_glob_pair(%rip)")
 * rather than in a register. After the loop: dcc_glob_count is
 * 1000 * N * (N + 1) / 2 + 7, dcc_glob_pair.hi -3 * N and dcc_glob_small 5 * N.
 */
#include <stdlib.h>
#include <sys/sdt.h>

long dcc_glob_count = 7;
struct {
	long lo;
	int hi;
} dcc_glob_pair = { 1, 0 };
static short dcc_glob_small;

__attribute__((noinline)) void dcc_glob_fire(int i)
{
	DTRACE_PROBE4(dccglob, state, dcc_glob_count, dcc_glob_pair.hi, dcc_glob_small, i);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	for (int i = 1; i <= n; i++) {
		dcc_glob_count += 1000L * i;
		dcc_glob_pair.hi -= 3;
		dcc_glob_small = (short)(dcc_glob_small + 5);
		dcc_glob_fire(i);
	}
	return 0;
}
