/*
 * lock_contend THREADS ROUNDS: THREADS threads read and write one shared
 * file descriptor of a regular file ROUNDS times each. The kernel
 * serializes the shared file position with a mutex (f_pos_lock, taken by
 * read and write on a file used by more than one thread), so the threads
 * contend on a kernel mutex: lockstat's adaptive probes. (A pthread mutex
 * is a futex, which the kernel's lock contention tracepoints do not see.)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fd;
static long rounds;

static void *run(void *arg)
{
	char b[64] = { 0 };

	(void)arg;
	for (long i = 0; i < rounds; i++)
		if (write(fd, b, sizeof(b)) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
		    read(fd, b, sizeof(b)) < 0)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t t[64];
	char path[] = "/tmp/dcc-lock-XXXXXX";

	rounds = argc > 2 ? atol(argv[2]) : 20000;
	if (n < 1 || n > 64)
		return 2;
	usleep(100000);
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	unlink(path);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, run, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
