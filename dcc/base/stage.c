/* The per-stage clock of `dcc -v` (stage.h): CLOCK_MONOTONIC, one process. */
#include "stage.h"

#include <time.h>

static const char *const names[STAGE_COUNT] = {
	[STAGE_DLIB] = "D library",
	[STAGE_PARSE] = "parse",
	[STAGE_BTF] = "BTF",
	[STAGE_SEMA] = "sema",
	[STAGE_TARGET] = "LLVM target",
	[STAGE_IR] = "IR",
	[STAGE_PASSES] = "LLVM passes",
	[STAGE_EMIT] = "emission",
	[STAGE_FREE] = "teardown",
};

static enum stage cur;
static long long last_ns;
static long long spent[STAGE_COUNT];
static unsigned char ran[STAGE_COUNT];

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

enum stage stage_enter(enum stage s)
{
	long long t = now_ns();
	enum stage prev = cur;
	if (cur != STAGE_NONE)
		spent[cur] += t - last_ns;
	last_ns = t;
	cur = s;
	ran[s] = 1;
	return prev;
}

void stage_report(FILE *f)
{
	stage_enter(STAGE_NONE);
	long long total = 0;
	for (int s = STAGE_NONE + 1; s < STAGE_COUNT; s++) {
		if (!ran[s])
			continue;
		total += spent[s];
		fprintf(f, "dcc: time: %-12s %8.3f ms\n", names[s], spent[s] / 1e6);
	}
	fprintf(f, "dcc: time: %-12s %8.3f ms\n", "total", total / 1e6);
}
