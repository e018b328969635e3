/*
 * deep_stack DEPTH: calls descend() DEPTH times deep (default 30) and, at the
 * bottom, getppid() once. Each descend() keeps a frame pointer, so a tracer
 * that walks the user stack at getppid's entry finds DEPTH-1 return
 * addresses inside descend (the deepest call's own return address is on the
 * stack, not in the frame chain, as getppid's libc stub makes no frame).
 */
#include <stdlib.h>
#include <unistd.h>

#define KEEP_FRAMES __attribute__((noinline, optimize("no-omit-frame-pointer", \
	"no-optimize-sibling-calls")))

static volatile long sink;

KEEP_FRAMES static long descend(long depth)
{
	if (depth <= 1)
		return getppid();
	long r = descend(depth - 1);
	sink += r; /* work after the call: no tail call */
	return r + 1;
}

KEEP_FRAMES int main(int argc, char **argv)
{
	long depth = argc > 1 ? strtol(argv[1], NULL, 10) : 30;

	sink = descend(depth);
	return 0;
}
