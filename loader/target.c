/*
 * The traced process: -c CMD forks a child that waits on a pipe until every
 * probe is attached and BEGIN ran, then execs CMD (its pid is $target); -p PID
 * watches an existing process through a pidfd. Either one ending ends the trace.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Characters that need a shell; without them CMD is split on blanks and
 * executed directly, as dtrace does, so no shell runs inside $target. */
static bool needs_shell(const char *cmd)
{
	return strpbrk(cmd, "|&;<>()$`\\\"'*?[]#~=%{}\n") != NULL;
}

/* The argv to exec for CMD, built before fork so that the child only makes
 * async-signal-safe calls. One allocation; free() releases it. */
static char **command_argv(const char *cmd)
{
	bool shell = needs_shell(cmd);
	size_t len = strlen(cmd), nwords = len / 2 + 2;
	size_t vec = (shell ? 4 : nwords + 1) * sizeof(char *);
	char **argv = calloc(1, vec + len + 16);
	char *text = (char *)argv + vec, *save = NULL;
	size_t n = 0;

	if (!argv)
		return NULL;
	if (shell) {
		snprintf(text, len + 16, "exec %s", cmd);
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = text;
		return argv;
	}
	memcpy(text, cmd, len + 1);
	for (char *w = strtok_r(text, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	if (!n) {
		free(argv);
		errno = EINVAL;
		return NULL;
	}
	return argv;
}

static void child(char **argv, int go_fd, int err_fd, bool trace)
{
	char c = 0;
	sigset_t none;
	int err;

	/* If the loader dies before letting us run, die too. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'g')
		_exit(127);
	close(go_fd);
	/* The process the user asked for must not die with us. */
	prctl(PR_SET_PDEATHSIG, 0);
	/* stop after exec: its pid probes are attached before it runs (see
	 * target_stop_at_entry()) */
	if (trace)
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	if (!strcmp(argv[0], "sh") && argv[1] && !strcmp(argv[1], "-c"))
		execv("/bin/sh", argv);
	else
		execvp(argv[0], argv);
	err = errno;
	while (write(err_fd, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	_exit(127);
}

int target_create(struct target *t, const char *cmd, const char *progname)
{
	char **argv = command_argv(cmd);
	int go[2] = { -1, -1 }, errp[2] = { -1, -1 }, err;
	pid_t pid;

	t->pidfd = t->go_fd = t->err_fd = -1;
	t->cmd = cmd;
	if (!argv || pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
		goto fail;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto fail;
	if (pid == 0) {
		close(go[1]);
		close(errp[0]);
		child(argv, go[0], errp[1], t->trace_exec);
	}
	free(argv);
	close(go[0]);
	close(errp[1]);
	t->pid = pid;
	t->created = true;
	t->go_fd = go[1];
	t->err_fd = errp[0];
	return 0;
fail:
	err = errno;
	free(argv);
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	fprintf(stderr, "%s: failed to execute %s: %s\n", progname, cmd, strerror(err));
	return -err;
}

int target_grab(struct target *t, pid_t pid, const char *progname)
{
	t->go_fd = t->err_fd = -1;
	if (kill(pid, 0) && errno == ESRCH) {
		fprintf(stderr, "%s: failed to grab pid %d: %s\n", progname, (int)pid,
			strerror(errno));
		return -ESRCH;
	}
	t->pid = pid;
	t->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

/* -c: let the child exec; 0, or -errno when exec failed (message printed). */
static int let_exec(struct target *t, const char *progname)
{
	ssize_t n;
	int err;

	while ((n = write(t->go_fd, "g", 1)) < 0 && errno == EINTR)
		;
	close(t->go_fd);
	t->go_fd = -1;
	/* The error pipe closes on a successful exec, or carries errno. */
	while ((n = read(t->err_fd, &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(t->err_fd);
	t->err_fd = -1;
	if (n == sizeof(err)) {
		fprintf(stderr, "%s: failed to execute %s: %s\n", progname, t->cmd,
			strerror(err));
		return -err;
	}
	return 0;
}

int target_start(struct target *t, const char *progname)
{
	if (t->stopped) {
		/* at its entry point, the pid probes attached: let it run */
		ptrace(PTRACE_DETACH, t->pid, NULL, NULL);
		t->stopped = false;
		return 0;
	}
	if (!t->created || t->go_fd < 0)
		return 0;
	return let_exec(t, progname);
}

/* The next stop of our traced child with SIGTRAP, passing it other signals. */
static int wait_trap(struct target *t)
{
	for (;;) {
		int st;

		if (waitpid(t->pid, &st, 0) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!WIFSTOPPED(st)) {
			t->status = st;
			t->gone = true;
			return -ESRCH;
		}
		if (WSTOPSIG(st) == SIGTRAP)
			return 0;
		ptrace(PTRACE_CONT, t->pid, NULL, (void *)(long)WSTOPSIG(st));
	}
}

/* AT_ENTRY of pid's auxiliary vector: the executable's entry point. */
static unsigned long entry_point(pid_t pid)
{
	char path[64];
	unsigned long av[2], entry = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	f = fopen(path, "re");
	while (f && fread(av, sizeof(av), 1, f) == 1 && av[0] != AT_NULL)
		if (av[0] == AT_ENTRY)
			entry = av[1];
	if (f)
		fclose(f);
	return entry;
}

/*
 * -c with pid probes: the child execs under ptrace and stops; a breakpoint
 * on its entry point runs it through the dynamic linker, so that every
 * library it links is mapped, and stops it again before its own code
 * (_start, then main) runs. The breakpoint's byte is put back and the
 * instruction pointer on it; target_start() detaches.
 */
int target_stop_at_entry(struct target *t, const char *progname)
{
	struct user_regs_struct regs;
	unsigned long entry;
	long word;
	int err;

	if (!t->created || !t->trace_exec || t->go_fd < 0)
		return 0;
	err = let_exec(t, progname);
	if (err)
		return err;
	if ((err = wait_trap(t)) || !(entry = entry_point(t->pid)))
		goto fail;
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, t->pid, (void *)entry, NULL);
	if (errno ||
	    ptrace(PTRACE_POKETEXT, t->pid, (void *)entry, (void *)((word & ~0xffL) | 0xcc)) ||
	    ptrace(PTRACE_CONT, t->pid, NULL, NULL) || (err = wait_trap(t)) ||
	    ptrace(PTRACE_POKETEXT, t->pid, (void *)entry, (void *)word) ||
	    ptrace(PTRACE_GETREGS, t->pid, NULL, &regs))
		goto fail;
	regs.rip = entry;
	if (ptrace(PTRACE_SETREGS, t->pid, NULL, &regs))
		goto fail;
	t->stopped = true;
	return 0;
fail:
	err = err ? err : errno ? -errno : -EIO;
	fprintf(stderr, "%s: failed to stop %s at its entry point: %s\n", progname, t->cmd,
		strerror(-err));
	return err;
}

bool target_exited(struct target *t)
{
	if (!t->pid || t->gone)
		return t->gone;
	if (t->created) {
		pid_t r = waitpid(t->pid, &t->status, WNOHANG);

		if (r == t->pid || (r < 0 && errno == ECHILD))
			t->gone = true;
	} else if (t->pidfd >= 0) {
		struct pollfd p = { .fd = t->pidfd, .events = POLLIN };

		if (poll(&p, 1, 0) > 0)
			t->gone = true;
	} else if (kill(t->pid, 0) && errno == ESRCH) {
		t->gone = true;
	}
	return t->gone;
}

void target_notice(struct target *t, FILE *err, const char *progname)
{
	if (t->created && WIFSIGNALED(t->status)) {
		const char *sig = sigabbrev_np(WTERMSIG(t->status));

		if (sig)
			fprintf(err, "%s: pid %d terminated by SIG%s\n", progname, (int)t->pid,
				sig);
		else
			fprintf(err, "%s: pid %d terminated by signal %d\n", progname, (int)t->pid,
				WTERMSIG(t->status));
	} else if (t->created && WEXITSTATUS(t->status)) {
		fprintf(err, "%s: pid %d exited with status %d\n", progname, (int)t->pid,
			WEXITSTATUS(t->status));
	} else {
		fprintf(err, "%s: pid %d has exited\n", progname, (int)t->pid);
	}
}

void target_release(struct target *t)
{
	if (t->go_fd >= 0)
		close(t->go_fd);
	if (t->err_fd >= 0)
		close(t->err_fd);
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->go_fd = t->err_fd = t->pidfd = -1;
	if (t->created && !t->gone) {
		/* dtrace kills the process it created when the trace ends first. */
		kill(t->pid, SIGKILL);
		while (waitpid(t->pid, &t->status, 0) < 0 && errno == EINTR)
			;
		t->gone = true;
	}
}
