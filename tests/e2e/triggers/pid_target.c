/*
 * Trigger for the pid provider: calls dcc_pid_target_fn(i) for i = 1..N
 * (its return value is 3 * i + 1), dcc_pid_target_seven() (seven
 * arguments, returning their sum) once and getpid() N times. With an
 * optional second argument, first sleeps that many milliseconds (for -p).
 * It also calls dcc_pidoff_add(i) for i = 1..N, written in assembly so that
 * its instructions' offsets are known: at 0 %rax = %rdi + 1 (4 bytes), at 4
 * %rax += %rdi (3 bytes), at 7 the ret; it returns 2 * i + 1 and is 8 bytes.
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

long dcc_pidoff_add(long i);
__asm__(".pushsection .text\n"
	".globl dcc_pidoff_add\n"
	".type dcc_pidoff_add, @function\n"
	"dcc_pidoff_add:\n"
	"	leaq 1(%rdi), %rax\n" /* 48 8d 47 01 */
	"	addq %rdi, %rax\n"    /* 48 01 f8 */
	"	ret\n"
	".size dcc_pidoff_add, . - dcc_pidoff_add\n"
	".popsection\n");

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
		sink += dcc_pidoff_add(i);
	}
	sink += dcc_pid_target_seven(1, 2, 3, 4, 5, 6, 70);
	return sink == 0;
}
