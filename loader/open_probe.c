/*
 * libbpf 1.1 trusts an object's BTF and can crash, or loop, on a corrupted
 * one while opening it. Before opening an object for real, dtrun and `dcc
 * run` open it in a child: a crash there, or 10 s of work, refuses the
 * object with one line instead of killing the tracer or hanging it. dtrun
 * starts the child first and waits for it just before its own open, so
 * that the fork and the child's work overlap the check of the kernel.
 */
#include "internal.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

pid_t loader_open_probe_start(const void *obj, size_t size)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0; /* cannot tell: open it for real */
	if (pid == 0) {
		struct bpf_object *o;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		libbpf_set_print(quiet);
		o = bpf_object__open_mem(obj, size, NULL);
		bpf_object__close(o); /* valgrind's leak check follows children */
		_exit(o ? 0 : 1);
	}
	return pid;
}

void loader_open_probe_cancel(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int loader_open_probe_wait(pid_t pid, char *why, size_t whylen)
{
	enum { TIMEOUT_MS = 10000 };
	struct pollfd pfd = { .events = POLLIN };
	int st;

	if (pid <= 0)
		return 0;
	/* a parser stuck in a loop would hang the real open too */
	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd.fd >= 0) {
		int n;

		while ((n = poll(&pfd, 1, TIMEOUT_MS)) < 0 && errno == EINTR)
			;
		close(pfd.fd);
		if (n == 0) {
			loader_open_probe_cancel(pid);
			snprintf(why, whylen, "corrupted object: libbpf did not finish reading "
				 "it in %d s", TIMEOUT_MS / 1000);
			return -1;
		}
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFSIGNALED(st)) {
		const char *sig = sigabbrev_np(WTERMSIG(st));

		snprintf(why, whylen, "corrupted object: libbpf crashed reading it (SIG%s)",
			 sig ? sig : "?");
		return -1;
	}
	return 0;
}

int loader_open_in_child(const void *obj, size_t size, char *why, size_t whylen)
{
	return loader_open_probe_wait(loader_open_probe_start(obj, size), why, whylen);
}
