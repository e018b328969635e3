/*
 * Shared by the end-to-end tests: compile a D script with the real dcc, run
 * the object with the real dtrun on this kernel, compare exact bytes, and
 * check after every test that no BPF program of ours is left loaded.
 *
 * Every test file includes this once and declares its tests with
 * E2E_TEST(suite, name) so that the root check, the scratch directory and the
 * leak check wrap each of them (NOKERNEL_TEST for those that load nothing). Strings made by the helpers (e2e_fmt,
 * e2e_tmp...) and anything passed to e2e_keep are freed when the test ends;
 * run results are the caller's to free with run_result_free.
 */
#ifndef DCC_E2E_H
#define DCC_E2E_H

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <bpf/bpf.h>

#include "helpers.h"

#define E2E_TIMEOUT 60 /* seconds for one dcc or dtrun run */

static char e2e_dir[64];

/* Strings the helpers hand out live until the end of the test (freed by
 * e2e_fini), so tests can build expectations inline and stay leak-free
 * under LeakSanitizer. */
static void *e2e_kept[4096];
static int e2e_nkept;

static inline void *e2e_keep(void *p)
{
	if (p && e2e_nkept < 4096)
		e2e_kept[e2e_nkept++] = p;
	return p;
}

/*
 * DCC_E2E_SHARED=1 is for machines where someone else runs dcc programs at
 * the same time (developers sharing a box): instead of "no dcc_* program at
 * all", a leak is a dcc_* program that no live process holds a descriptor
 * of, i.e. one that outlived the dtrun that loaded it. CI uses the strict
 * count.
 */
static inline bool e2e_shared(void)
{
	const char *s = getenv("DCC_E2E_SHARED");
	return s && *s && strcmp(s, "0");
}

/* dcc_* programs that no process holds (by prog_id in any fdinfo). */
static inline int e2e_orphan_progs(void)
{
	static __u32 held[65536];
	int nheld = 0;
	FILE *p = popen("cat /proc/[0-9]*/fdinfo/* 2>/dev/null | sed -n 's/^prog_id:[ \t]*//p'",
			"r");
	if (p) {
		unsigned v;
		while (nheld < 65536 && fscanf(p, "%u", &v) == 1)
			held[nheld++] = v;
		pclose(p);
	}
	__u32 id = 0;
	int n = 0;
	while (!bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strncmp(info.name, "dcc_", 4)) {
			bool found = false;
			for (int i = 0; i < nheld && !found; i++)
				found = held[i] == id;
			n += !found;
		}
		close(fd);
	}
	return n;
}

static inline int e2e_count(void)
{
	return e2e_shared() ? e2e_orphan_progs() : count_dcc_progs();
}

/* Progs are freed when dtrun's descriptors close; perf-event detach may defer
 * the last reference a little, so poll briefly before calling it a leak. */
static inline int e2e_progs_left(void)
{
	int n = e2e_count();
	for (int i = 0; n > 0 && i < 40; i++) {
		usleep(50 * 1000);
		n = e2e_count();
	}
	return n;
}

/* The scratch directory alone: what a test that never touches the kernel needs. */
static inline void e2e_init_scratch(void)
{
	snprintf(e2e_dir, sizeof(e2e_dir), "/tmp/dcc-e2e.XXXXXX");
	cr_assert_not_null(mkdtemp(e2e_dir), "mkdtemp: %s", strerror(errno));
}

static inline void e2e_fini_scratch(void)
{
	if (!e2e_dir[0])
		return;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e2e_dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", e2e_dir);
	while (e2e_nkept > 0)
		free(e2e_kept[--e2e_nkept]);
}

static inline void e2e_init(void)
{
	if (geteuid() != 0)
		cr_skip_test("end-to-end tests load BPF programs: run them as root");
	e2e_init_scratch();
	int left = e2e_progs_left();
	cr_assert_eq(left, 0, "%d dcc_* BPF programs are loaded before the test started%s", left,
		     e2e_shared() ? "" : " (DCC_E2E_SHARED=1 if others run dcc on this machine)");
}

static inline void e2e_fini(void)
{
	if (!e2e_dir[0])
		return;
	e2e_fini_scratch();
	int left = e2e_progs_left();
	cr_assert_eq(left, 0, "%d dcc_* BPF programs still loaded after the test", left);
}

#define E2E_TEST(suite, name, ...) \
	Test(suite, name, .init = e2e_init, .fini = e2e_fini, ##__VA_ARGS__)

/* A test that runs dcc (or dtrun on what it must refuse before loading) but
 * never loads anything: it runs as any user, with the scratch directory and
 * no leak check. Such tests live under tests/compile/, outside the kernel lock. */
#define NOKERNEL_TEST(suite, name, ...) \
	Test(suite, name, .init = e2e_init_scratch, .fini = e2e_fini_scratch, ##__VA_ARGS__)

/* Paths of a file in this test's scratch directory, in tests/e2e/, and of a
 * trigger program (kept until the end of the test). */
__attribute__((format(printf, 1, 2))) static inline char *e2e_fmt(const char *fmt, ...);
static inline const char *e2e_tmp(const char *name);
static inline const char *e2e_src(const char *name);
static inline const char *e2e_trigger(const char *name);

/* Printable form of bytes for failure messages (malloc'd, leaked: tests are
 * short-lived processes). */
static inline char *e2e_show(const char *s)
{
	size_t n = strlen(s);
	char *o = e2e_keep(malloc(n * 4 + 3)), *p = o;
	*p++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		if (c == '\n') {
			p += sprintf(p, "\\n");
		} else if (c == '\t') {
			p += sprintf(p, "\\t");
		} else if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = c;
		} else if (c < 32 || c > 126) {
			p += sprintf(p, "\\%03o", c);
		} else {
			*p++ = c;
		}
	}
	*p++ = '"';
	*p = 0;
	return o;
}

/* Assert that got == want byte for byte; on mismatch name the first differing
 * line of each so the failing case is obvious. */
static inline void e2e_assert_bytes(const char *what, const char *got, const char *want)
{
	if (!strcmp(got, want))
		return;
	size_t i = 0, line = 1, bol = 0;
	while (got[i] && got[i] == want[i]) {
		if (got[i] == '\n') {
			line++;
			bol = i + 1;
		}
		i++;
	}
	const char *ge = strchr(got + bol, '\n'), *we = strchr(want + bol, '\n');
	size_t gn = ge ? (size_t)(ge - got - bol) + 1 : strlen(got + bol);
	size_t wn = we ? (size_t)(we - want - bol) + 1 : strlen(want + bol);
	char *gl = e2e_keep(strndup(got + bol, gn)), *wl = e2e_keep(strndup(want + bol, wn));
	cr_assert_fail("%s differs at line %zu (byte %zu):\n  got:  %s\n  want: %s\n"
		       "whole output: %s\nexpected:     %s",
		       what, line, i, e2e_show(gl), e2e_show(wl), e2e_show(got), e2e_show(want));
}

static inline void e2e_runv(struct run_result *r, int timeout_s, const char *const argv[])
{
	int rc = run_cmd(r, (char *const *)argv, NULL, timeout_s);
	cr_assert_eq(rc, 0, "could not run %s: %s", argv[0], strerror(-rc));
}

/* e2e_run(&r, arg0, arg1, ..., NULL) with the default timeout. */
static inline void e2e_run(struct run_result *r, const char *arg0, ...)
{
	const char *argv[64];
	int n = 0;
	va_list ap;
	argv[n++] = arg0;
	va_start(ap, arg0);
	while (n < 63 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	e2e_runv(r, E2E_TIMEOUT, argv);
}

/* Compile src (a .d path) into obj with `dcc src -o obj`; it must succeed
 * silently. */
static inline void e2e_compile(const char *src, const char *obj)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, src, "-o", obj, NULL);
	e2e_keep(r.out);
	e2e_keep(r.err);
	cr_assert_eq(r.status, 0, "dcc %s failed with status %d:\n%s", src, r.status, r.err);
	cr_assert_str_empty(r.err, "dcc %s printed on stderr:\n%s", src, r.err);
}

/* Write text to <scratch>/<name>.d, compile it to <scratch>/<name>.bpf.o and
 * return the object's path. */
static inline const char *e2e_build(const char *name, const char *text)
{
	char d[256], *o = e2e_keep(malloc(256));
	snprintf(d, sizeof(d), "%s/%s.d", e2e_dir, name);
	snprintf(o, 256, "%s/%s.bpf.o", e2e_dir, name);
	cr_assert_eq(write_file(d, text, strlen(text)), 0, "cannot write %s", d);
	e2e_compile(d, o);
	return o;
}

/* Compile tests/e2e/<name>.d into the scratch directory. */
static inline const char *e2e_build_src(const char *name)
{
	char d[512], *o = e2e_keep(malloc(256));
	snprintf(d, sizeof(d), "%s/e2e/%s.d", TESTS_SRC_DIR, name);
	snprintf(o, 256, "%s/%s.bpf.o", e2e_dir, name);
	e2e_compile(d, o);
	return o;
}

/* Assert status and exact stdout of a finished run; stderr shown on failure. */
static inline void e2e_expect(const struct run_result *r, int status, const char *out)
{
	cr_assert_eq(r->status, status, "exit status %d, want %d\nstdout: %s\nstderr: %s",
		     r->status, status, e2e_show(r->out), r->err);
	e2e_assert_bytes("stdout", r->out, out);
}

/* The text of tests/e2e/<file>, to compare with got (UPDATE=1 rewrites it:
 * golden_expected). */
static inline const char *e2e_golden(const char *file, const char *got)
{
	const char *path = e2e_fmt("%s/e2e/%s", TESTS_SRC_DIR, file);
	char *want = e2e_keep(golden_expected(path, got, strlen(got)));
	cr_assert_not_null(want, "missing expected output %s (UPDATE=1 writes it)", path);
	return want;
}

/* Assert that got equals tests/e2e/expected/<name>.out byte for byte. */
static inline void e2e_assert_file(const char *what, const char *got, const char *name)
{
	e2e_assert_bytes(what, got, e2e_golden(e2e_fmt("expected/%s.out", name), got));
}

/* e2e_expect with the stdout of tests/e2e/expected/<name>.out; the status is
 * checked first, so that an update never records the output of a failed run. */
static inline void e2e_expect_out(const struct run_result *r, int status, const char *name)
{
	cr_assert_eq(r->status, status, "exit status %d, want %d\nstdout: %s\nstderr: %s",
		     r->status, status, e2e_show(r->out), r->err);
	e2e_assert_file("stdout", r->out, name);
}

/* The same for a script's own tests/e2e/<script>.out, next to <script>.d. */
static inline void e2e_expect_script_out(const struct run_result *r, int status,
					 const char *script)
{
	cr_assert_eq(r->status, status, "exit status %d, want %d\nstdout: %s\nstderr: %s",
		     r->status, status, e2e_show(r->out), r->err);
	e2e_assert_bytes("stdout", r->out, e2e_golden(e2e_fmt("%s.out", script), r->out));
}

/* Number of lines of s. */
static inline int e2e_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Assert that stderr is exactly the lines matching the fnmatch patterns given
 * (NULL-terminated), in order. */
static inline void e2e_expect_err(const struct run_result *r, ...)
{
	va_list ap;
	const char *p = r->err;
	int i = 0;
	va_start(ap, r);
	for (const char *pat; (pat = va_arg(ap, const char *)); i++) {
		const char *e = strchr(p, '\n');
		cr_assert_not_null(e, "stderr has %d lines, want a line %d like '%s':\n%s", i, i + 1,
				   pat, r->err);
		char *line = strndup(p, e - p);
		cr_assert_eq(fnmatch(pat, line, 0), 0, "stderr line %d is '%s', want '%s'\nstderr:\n%s",
			     i + 1, line, pat, r->err);
		free(line);
		p = e + 1;
	}
	va_end(ap);
	cr_assert_str_empty(p, "unexpected extra stderr lines:\n%s", p);
}

static inline double e2e_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A process running in the background whose output we collect. */
struct e2e_bg {
	pid_t pid;
	int out, err;
	char *obuf, *ebuf;
	size_t olen, elen;
};

static inline void e2e_bg_start(struct e2e_bg *b, const char *const argv[])
{
	int out[2], err[2];
	memset(b, 0, sizeof(*b));
	cr_assert(!pipe(out) && !pipe(err));
	b->pid = fork();
	cr_assert(b->pid >= 0);
	if (b->pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		dup2(null, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		setpgid(0, 0);
		/* a test that fails midway must not leave it running (and its
		 * programs loaded for the next test to find) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	b->out = out[0];
	b->err = err[0];
	b->obuf = calloc(1, 1);
	b->ebuf = calloc(1, 1);
}

static inline void e2e_bg_append(char **buf, size_t *len, const char *data, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = 0;
}

/* Read whatever is available for up to ms milliseconds; false at EOF on both. */
static inline bool e2e_bg_pump(struct e2e_bg *b, int ms)
{
	struct pollfd fds[2] = { { b->out, POLLIN, 0 }, { b->err, POLLIN, 0 } };
	if (b->out < 0 && b->err < 0)
		return false;
	int n = poll(fds, 2, ms);
	if (n <= 0)
		return true;
	for (int i = 0; i < 2; i++) {
		if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		char buf[4096];
		ssize_t k = read(fds[i].fd, buf, sizeof(buf));
		if (k <= 0) {
			close(fds[i].fd);
			if (i == 0)
				b->out = -1;
			else
				b->err = -1;
		} else if (i == 0) {
			e2e_bg_append(&b->obuf, &b->olen, buf, k);
		} else {
			e2e_bg_append(&b->ebuf, &b->elen, buf, k);
		}
	}
	return true;
}

/* Wait until stderr contains needle (true) or timeout_s passes (false). */
static inline bool e2e_bg_wait_err(struct e2e_bg *b, const char *needle, double timeout_s)
{
	double end = e2e_now() + timeout_s;
	while (!strstr(b->ebuf, needle)) {
		if (e2e_now() > end || !e2e_bg_pump(b, 50))
			return strstr(b->ebuf, needle) != NULL;
	}
	return true;
}

/* Collect the rest of the output and the exit status into r (SIGKILL after
 * timeout_s). */
static inline void e2e_bg_finish(struct e2e_bg *b, struct run_result *r, double timeout_s)
{
	double end = e2e_now() + timeout_s;
	bool killed = false;
	while (e2e_bg_pump(b, 50)) {
		if (!killed && e2e_now() > end) {
			kill(-b->pid, SIGKILL);
			killed = true;
		}
	}
	int st;
	while (waitpid(b->pid, &st, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = b->obuf;
	r->out_len = b->olen;
	r->err = b->ebuf;
	r->err_len = b->elen;
}

/* Format into a malloc'd string (expected outputs built with C's printf). */
__attribute__((format(printf, 1, 2))) static inline char *e2e_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	cr_assert(vasprintf(&s, fmt, ap) >= 0);
	va_end(ap);
	return e2e_keep(s);
}

static inline const char *e2e_tmp(const char *name)
{
	return e2e_fmt("%s/%s", e2e_dir, name);
}

static inline const char *e2e_src(const char *name)
{
	return e2e_fmt("%s/e2e/%s", TESTS_SRC_DIR, name);
}

static inline const char *e2e_trigger(const char *name)
{
	return e2e_fmt("%s/%s", TRIGGER_DIR, name);
}

/* DTrace's default aggregation row for one string key and a count:
 * "  %-50s %16lld\n". */
static inline char *e2e_agg_row(const char *key, long long v)
{
	return e2e_fmt("  %-50s %16lld\n", key, v);
}

#endif
