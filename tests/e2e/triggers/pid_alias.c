/*
 * Trigger for the pid provider's names of aliased functions: calls each of
 * two functions N times (argument 1, default 3), both reachable by a
 * second name at the same address: dcc_alias_glob, a global function, is
 * also the weak _dcc_alias_glob; dcc_alias_stat, a static one, is also the
 * weak _dcc_alias_stat.
 */
#include <stdlib.h>

__attribute__((noinline)) int dcc_alias_glob(int i)
{
	__asm__ volatile("" ::: "memory");
	return i + 1;
}
extern int _dcc_alias_glob(int) __attribute__((weak, alias("dcc_alias_glob")));

__attribute__((noinline, used)) static int dcc_alias_stat(int i)
{
	__asm__ volatile("" ::: "memory");
	return i + 2;
}
extern int _dcc_alias_stat(int) __attribute__((weak, alias("dcc_alias_stat")));

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	volatile long sink = 0;

	for (int i = 1; i <= n; i++)
		sink += _dcc_alias_glob(i) + _dcc_alias_stat(i);
	return sink == 0;
}
