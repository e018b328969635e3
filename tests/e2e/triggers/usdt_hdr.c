/*
 * Trigger for USDT probes declared in D (usdt_hdr_prov.d, made into a
 * header by dcc -h when the tests are built): for i = 1..N,
 * dcchdr:::tick(i, i * i * 1000000007, "tick-I") when DCCHDR_TICK_ENABLED()
 * (the string on the stack: a page of .rodata may not be resident yet, and
 * BPF cannot fault it in),
 * then dcchdr:::loop-end(N) once. Its last line, on stderr, says how often
 * the probe was enabled.
 */
#include <stdio.h>
#include <stdlib.h>

#include "usdt_hdr_prov.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, enabled = 0;

	for (int i = 1; i <= n; i++) {
		if (DCCHDR_TICK_ENABLED()) {
			char name[16];

			snprintf(name, sizeof(name), "tick-%d", i);
			enabled++;
			DCCHDR_TICK(i, (long long)i * i * 1000000007LL, name);
		}
	}
	DCCHDR_LOOP_END(n);
	fprintf(stderr, "enabled %d of %d\n", enabled, n);
	return 0;
}
