// SPDX-License-Identifier: GPL-2.0
/*
 * pcopen: the load generator of W3 (printf per openat) in bench/workloads.sh.
 *
 *   pcopen N     N openat() calls of /dev/null, each closed
 *
 * Renamed "pcloop" before the loop, as pcload. Output, one line:
 * "open <N> <wall ns of the loop>".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc == 2 ? atol(argv[1]) : 0;
	struct timespec t0, t1;

	if (n <= 0) {
		fprintf(stderr, "usage: pcopen N\n");
		return 2;
	}
	prctl(PR_SET_NAME, "pcloop");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		int fd = openat(AT_FDCWD, "/dev/null", O_RDONLY);
		if (fd < 0)
			return 1;
		close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("open %ld %lld\n", n, (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL +
	       (t1.tv_nsec - t0.tv_nsec));
	return 0;
}
