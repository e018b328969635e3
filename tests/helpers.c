/* Process running and file helpers for the test programs (see helpers.h). */
#include "helpers.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

static void append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = realloc(*buf, *cap);
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int run_cmd(struct run_result *r, char *const argv[], const char *stdin_text, int timeout_s)
{
	int in[2], out[2], err[2];
	memset(r, 0, sizeof(*r));
	if (pipe(in) || pipe(out) || pipe(err))
		return -errno;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(in[1]);
		close(out[0]);
		close(err[0]);
		setpgid(0, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (stdin_text && *stdin_text) {
		ssize_t w = write(in[1], stdin_text, strlen(stdin_text));
		(void)w;
	}
	close(in[1]);
	size_t ocap = 0, ecap = 0;
	append(&r->out, &r->out_len, &ocap, "", 0);
	append(&r->err, &r->err_len, &ecap, "", 0);
	struct pollfd fds[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };
	int open_fds = 2;
	double deadline = now_s() + timeout_s;
	bool killed = false;
	while (open_fds > 0) {
		int left = (int)((deadline - now_s()) * 1000);
		if (left <= 0) {
			if (!killed)
				kill(-pid, SIGKILL);
			killed = true;
			left = 1000;
		}
		int n = poll(fds, 2, left);
		if (n < 0 && errno == EINTR)
			continue;
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char buf[4096];
			ssize_t k = read(fds[i].fd, buf, sizeof(buf));
			if (k <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			} else if (i == 0) {
				append(&r->out, &r->out_len, &ocap, buf, k);
			} else {
				append(&r->err, &r->err_len, &ecap, buf, k);
			}
		}
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

int run_sh(struct run_result *r, const char *cmdline, int timeout_s)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmdline, NULL };
	return run_cmd(r, argv, NULL, timeout_s);
}

void run_result_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	char tmp[4096];
	size_t k;
	append(&buf, &n, &cap, "", 0);
	while ((k = fread(tmp, 1, sizeof(tmp), f)) > 0)
		append(&buf, &n, &cap, tmp, k);
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -errno;
	size_t w = fwrite(data, 1, len, f);
	fclose(f);
	return w == len ? 0 : -EIO;
}

char *golden_expected(const char *path, const char *got, size_t got_len)
{
	const char *u = getenv("UPDATE");
	if (u && *u && strcmp(u, "0") && write_file(path, got, got_len))
		fprintf(stderr, "UPDATE: cannot write %s: %s\n", path, strerror(errno));
	return read_file(path, NULL);
}

int count_dcc_progs(void)
{
	__u32 id = 0;
	int n = 0;
	while (!bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strncmp(info.name, "dcc_", 4))
			n++;
		close(fd);
	}
	return n;
}
