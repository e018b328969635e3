/*
 * pingpong N: two threads, "ping" (the main one) and "pong", pass a byte
 * back and forth over two pipes N times. Each writes only once the other is
 * asleep in its read (its /proc state is S), so every write wakes a
 * sleeping thread: ping wakes pong exactly N times and pong wakes ping
 * exactly N times.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int to_pong[2], to_ping[2];
static long rounds;
static volatile pid_t tids[2];

/* until thread `tid` of this process sleeps */
static void wait_asleep(pid_t tid)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	for (;;) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		if (f)
			fclose(f);
		buf[n] = 0;
		const char *s = strrchr(buf, ')');
		if (s && s[1] == ' ' && s[2] == 'S')
			return;
	}
}

static void *pong(void *arg)
{
	char c;

	(void)arg;
	pthread_setname_np(pthread_self(), "pong");
	tids[1] = (pid_t)syscall(SYS_gettid);
	for (long i = 0; i < rounds; i++) {
		if (read(to_pong[0], &c, 1) != 1)
			exit(1);
		while (!tids[0])
			;
		wait_asleep(tids[0]);
		if (write(to_ping[1], &c, 1) != 1)
			exit(1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char c = 'x';

	rounds = argc > 1 ? strtol(argv[1], NULL, 0) : 1;
	if (pipe(to_pong) || pipe(to_ping))
		return 1;
	pthread_setname_np(pthread_self(), "ping");
	tids[0] = (pid_t)syscall(SYS_gettid);
	if (pthread_create(&t, NULL, pong, NULL))
		return 1;
	while (!tids[1])
		;
	for (long i = 0; i < rounds; i++) {
		wait_asleep(tids[1]);
		if (write(to_pong[1], &c, 1) != 1)
			return 1;
		if (read(to_ping[0], &c, 1) != 1)
			return 1;
	}
	return pthread_join(t, NULL) != 0;
}
