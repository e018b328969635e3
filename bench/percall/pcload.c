// SPDX-License-Identifier: GPL-2.0
/*
 * pcload: the load generator of the per-call benchmark.
 *
 *   pcload sys N     N getppid() calls
 *   pcload read N    N one-byte read()s of /dev/zero
 *
 * The process renames itself "pcloop" first, so its syscalls are told apart
 * from everyone else's in @[execname]. After the loop it makes exactly two
 * more syscalls: one write() of its result line and exit_group(). In sys mode
 * the tracer must therefore count N + 2 syscalls for "pcloop"; in read mode
 * the open of /dev/zero comes before the loop and no read follows it.
 *
 * Output, one line: "<mode> <N> <wall ns of the loop>".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	/* vDSO: no syscall */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: pcload sys|read N\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t1, i, n;
	char line[96], *end;
	int fd = -1, len;
	char c;

	if (argc != 3)
		return usage();
	n = strtoull(argv[2], &end, 10);
	if (*end || !n)
		return usage();
	if (!strcmp(argv[1], "read")) {
		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0) {
			perror("pcload: /dev/zero");
			return 1;
		}
	} else if (strcmp(argv[1], "sys")) {
		return usage();
	}
	prctl(PR_SET_NAME, "pcloop", 0, 0, 0);

	t0 = now_ns();
	if (fd >= 0) {
		for (i = 0; i < n; i++) {
			if (read(fd, &c, 1) != 1)
				_exit(1);
		}
	} else {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	}
	t1 = now_ns();

	len = snprintf(line, sizeof(line), "%s %llu %llu\n", argv[1], n, t1 - t0);
	if (write(STDOUT_FILENO, line, (size_t)len) != len)
		_exit(1);
	_exit(0);
}
