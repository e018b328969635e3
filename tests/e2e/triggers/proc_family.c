/*
 * proc_family FILE: a family for the proc provider's test, one child at a
 * time, each waited for: the first execs /proc/self/exe (this program again,
 * which exits 0 when its argv[1] is "-"); the second fails to
 * exec /nonexistent/dcc-proc (ENOENT) and exits 5; the third handles one
 * SIGUSR1 from its parent and exits 0; the fourth is killed by SIGKILL.
 * Writes "self=P enoent=P handled=P killed=P\n" (the children's pids) to FILE.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_usr1(int sig)
{
	(void)sig;
}

static pid_t child(int which, int ready)
{
	pid_t p = fork();
	if (p)
		return p;
	/* the paths on the stack: a forked child has no page table entries
	 * for the parent's file-backed .rodata yet, which the tracer reads */
	char t[] = "/proc/self/exe", n[] = "/nonexistent/dcc-proc", a0[] = "dcc-proc", a1[] = "-";
	char *const argv[] = { a0, a1, NULL };
	if (which == 0)
		execv(t, argv);
	if (which == 1) {
		execv(n, argv);
		_exit(5);
	}
	if (which == 2) {
		sigset_t usr1, none;
		sigemptyset(&usr1);
		sigemptyset(&none);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		signal(SIGUSR1, on_usr1);
		if (write(ready, "r", 1) != 1)
			_exit(1);
		sigsuspend(&none);
		_exit(0);
	}
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	FILE *f;
	pid_t pids[4];
	int fds[2];
	char c;

	if (argc == 2 && !strcmp(argv[1], "-"))
		return 0;
	if (argc < 2 || !(f = fopen(argv[1], "w")) || pipe(fds))
		return 1;
	for (int i = 0; i < 4; i++) {
		pids[i] = child(i, fds[1]);
		if (pids[i] < 0)
			return 1;
		if (i == 2 && (read(fds[0], &c, 1) != 1 || kill(pids[i], SIGUSR1)))
			return 1;
		if (i == 3 && kill(pids[i], SIGKILL))
			return 1;
		if (waitpid(pids[i], NULL, 0) != pids[i])
			return 1;
	}
	fprintf(f, "self=%d enoent=%d handled=%d killed=%d\n", (int)pids[0], (int)pids[1],
		(int)pids[2], (int)pids[3]);
	return fclose(f) ? 1 : 0;
}
