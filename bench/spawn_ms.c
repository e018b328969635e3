/*
 * spawn_ms CMD [ARG...]: runs CMD (stdout and stderr to /dev/null) and
 * prints the milliseconds from fork to its exit, with one decimal; exits 1
 * if CMD failed. lib.sh's time_ms uses it where cc is found: a bash fork
 * copies bash, and on a virtual machine that was ~2 ms of every timing
 * (bench/RESULTS.md, 2026-11-29), the same for each tool timed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static long long now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: spawn_ms CMD [ARG...]\n");
		return 2;
	}
	long long t0 = now_us();
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	long long t1 = now_us();
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench: failed: %s\n", argv[1]);
		return 1;
	}
	printf("%lld.%lld\n", (t1 - t0) / 1000, (t1 - t0) % 1000 / 100);
	return 0;
}
