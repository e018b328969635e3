/*
 * The loader on the real kernel (root): dtrun runs the hand-made objects of
 * tests/data/handmade.bpf.c with -c, -p, -o, -x, exit(), ^C, refuses broken
 * objects with one line, and leaves no dcc_ program loaded. Also the option
 * parsers in-process.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "helpers.h"
#include "internal.h"
#include "loader.h"

#define DATA_DIR TRIGGER_DIR "/../data"
#define OBJ DATA_DIR "/handmade.bpf.o"
#define OBJ_EXIT DATA_DIR "/handmade_exit.bpf.o"
#define OBJ_TICK DATA_DIR "/handmade_tick.bpf.o"
#define OBJ_BAD DATA_DIR "/handmade_badprobe.bpf.o"
#define OBJ_FENTRY DATA_DIR "/handmade_fentry.bpf.o"
#define OBJ_FENTRY_REQ DATA_DIR "/handmade_fentry_req.bpf.o"
#define OBJ_UPROBE DATA_DIR "/handmade_uprobe.bpf.o"
#define OBJ_VERIFIER DATA_DIR "/handmade_verifier.bpf.o"
#define OBJ_HUGEMAP DATA_DIR "/handmade_hugemap.bpf.o"
#define GETPPID TRIGGER_DIR "/getppid_n"

#define HELLO_TARGET "hello from BEGIN 42 target=1 wall=1\n"
#define HELLO_NOTARGET "hello from BEGIN 42 target=0 wall=1\n"
/* print_aggs: "\n", then the keyless count (no blank line of its own at the end).
 * ^C or SIGTERM adds dtrace's newline where it stopped the trace, before END. */
#define AGG(n) "\n" n "\n"

/* Other test programs may be tracing at the same moment: give their
 * programs a few seconds to go before calling ours leftovers. */
static void check_clean(void)
{
	int n = 0;

	for (int i = 0; i < 50 && (n = count_dcc_progs()) != 0; i++)
		usleep(100000);
	cr_assert_eq(n, 0, "dcc_ programs left loaded");
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void dtrun(struct run_result *r, const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s", DTRUN_BIN, args);
	cr_assert_eq(run_sh(r, cmd, 60), 0);
}

Test(loader, c_counts_exactly_n_getppid)
{
	struct run_result r;

	dtrun(&r, "-q -c '" GETPPID " 5' " OBJ);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, HELLO_TARGET "goodbye 0\n" AGG("                5"));
	cr_expect_eq(r.status, 0);
	run_result_free(&r);
	check_clean();
}

Test(loader, c_through_a_shell)
{
	struct run_result r;

	/* A shell metacharacter: run by /bin/sh -c "exec ...", still $target. */
	dtrun(&r, "-q -c '" GETPPID " 7 >/dev/null' " OBJ);
	cr_expect_str_eq(r.err, "");
	/* dash's own getppid() for $PPID counts: the shell becomes $target. */
	cr_expect(!strcmp(r.out, HELLO_TARGET "goodbye 0\n" AGG("                7")) ||
		  !strcmp(r.out, HELLO_TARGET "goodbye 0\n" AGG("                8")),
		  "got %s", r.out);
	cr_expect_eq(r.status, 0);
	run_result_free(&r);
	check_clean();
}

Test(loader, messages_without_q)
{
	struct run_result r;
	char want[256];
	int pid;

	dtrun(&r, "-c '" GETPPID " 2' " OBJ);
	cr_expect_eq(r.status, 0);
	cr_assert(sscanf(r.err, "dtrun: script 'handmade.d' matched 3 probes\n"
			 "dtrun: pid %d has exited\n", &pid) == 1, "stderr: %s", r.err);
	snprintf(want, sizeof(want), "dtrun: script 'handmade.d' matched 3 probes\n"
		 "dtrun: pid %d has exited\n", pid);
	cr_expect_str_eq(r.err, want);
	run_result_free(&r);

	dtrun(&r, "-c '" GETPPID " 2 0 0 3' " OBJ);
	cr_expect_eq(r.status, 0);
	cr_assert(sscanf(r.err, "dtrun: script 'handmade.d' matched 3 probes\n"
			 "dtrun: pid %d exited with status 3\n", &pid) == 1, "stderr: %s", r.err);
	run_result_free(&r);

	dtrun(&r, "-c 'sh -c \"kill -TERM \\$\\$\"' " OBJ);
	cr_expect_eq(r.status, 0);
	cr_assert(sscanf(r.err, "dtrun: script 'handmade.d' matched 3 probes\n"
			 "dtrun: pid %d terminated by SIGTERM\n", &pid) == 1, "stderr: %s", r.err);
	run_result_free(&r);
	check_clean();
}

Test(loader, exit_status_and_description)
{
	struct run_result r;

	dtrun(&r, "-w " OBJ_EXIT);
	cr_expect_eq(r.status, 3);
	cr_expect_str_eq(r.err, "dtrun: description 'BEGIN { exit(3); }' matched 3 probes\n"
		"dtrun: allowing destructive actions\n");
	run_result_free(&r);

	dtrun(&r, "-q " OBJ_EXIT);
	cr_expect_eq(r.status, 3);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, HELLO_NOTARGET "goodbye 0\n\n");
	run_result_free(&r);
	check_clean();
}

Test(loader, quiet_from_x_option)
{
	struct run_result r;

	dtrun(&r, "-x quiet -x bufsize=5000 -x switchrate=100ms " OBJ_EXIT);
	cr_expect_eq(r.status, 3);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, HELLO_NOTARGET "goodbye 0\n\n");
	run_result_free(&r);
	check_clean();
}

Test(loader, tick_and_profile)
{
	struct run_result r;
	char want[256];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t spin[64];

	/* cpu-clock events do not fire on an idle CPU: keep every CPU busy. */
	cr_assert(ncpu > 0 && ncpu < 64);
	for (long i = 0; i < ncpu; i++) {
		spin[i] = fork();
		cr_assert(spin[i] >= 0);
		if (spin[i] == 0) {
			alarm(20);
			for (;;)
				;
		}
	}
	dtrun(&r, "-q " OBJ_TICK);
	for (long i = 0; i < ncpu; i++) {
		kill(spin[i], SIGKILL);
		waitpid(spin[i], NULL, 0);
	}
	snprintf(want, sizeof(want), HELLO_NOTARGET "tick\ngoodbye %lld\n\n",
		 (1LL << ncpu) - 1);
	cr_expect_eq(r.status, 4);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, want);
	run_result_free(&r);

	dtrun(&r, OBJ_TICK);
	cr_expect_eq(r.status, 4);
	cr_expect_str_eq(r.err, "dtrun: script 'handmade_tick.d' matched 5 probes\n");
	run_result_free(&r);
	check_clean();
}

Test(loader, required_probe_missing_is_fatal)
{
	struct run_result r;

	dtrun(&r, "-q -c '" GETPPID " 1' " OBJ_BAD);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: failed to enable tracepoint syscalls/sys_enter_dcc_nosuch "
			 "(program dcc_c1): No such file or directory\n");
	cr_expect_str_eq(r.out, "");
	run_result_free(&r);
	check_clean();
}

/* fentry programs fail to load on this kernel and kprobes are missing: an
 * optional probe is left out, a required one names itself. */
Test(loader, optional_probes_this_kernel_lacks)
{
	struct run_result r;

	dtrun(&r, "-q -c '" GETPPID " 3' " OBJ_FENTRY);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, HELLO_TARGET "goodbye 0\n" AGG("                3"));
	run_result_free(&r);

	dtrun(&r, "-q -c '" GETPPID " 3' " OBJ_FENTRY_REQ);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: failed to load program dcc_c5 for fentry do_nanosleep: "
			 "Operation not permitted (-v shows the verifier log)\n");
	cr_expect_str_eq(r.out, "");
	run_result_free(&r);
	check_clean();
}

/* A uprobe on libc's getppid() and the tracepoint count into the same @. */
Test(loader, uprobe_path_offset)
{
	struct run_result r;

	dtrun(&r, "-q -c '" GETPPID " 6' " OBJ_UPROBE);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, HELLO_TARGET "goodbye 0\n" AGG("               12"));
	run_result_free(&r);
	check_clean();
}

Test(loader, verifier_refusal_names_the_program)
{
	struct run_result r;

	dtrun(&r, "-q " OBJ_VERIFIER);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: failed to load program dcc_c1 for tracepoint "
			 "syscalls/sys_enter_getppid and others: Permission denied "
			 "(-v shows the verifier log)\n");
	run_result_free(&r);

	dtrun(&r, "-q -v " OBJ_VERIFIER " 2>&1 | grep -e 'modified ctx' -e '^dtrun' | "
	      "grep -v '^dtrun: timing: '");
	cr_expect_str_eq(r.out, "dereference of modified ctx ptr R6 off=100000 disallowed\n"
			 "dtrun: failed to load program dcc_c1 for tracepoint "
			 "syscalls/sys_enter_getppid and others: Permission denied\n");
	run_result_free(&r);
	check_clean();
}

Test(loader, huge_maps_are_refused_before_load, .timeout = 30)
{
	struct run_result r;
	char want[512];
	unsigned long long n = 1ULL << 30, bytes = n * (8ULL * libbpf_num_possible_cpus() + 8);

	dtrun(&r, "-q " OBJ_HUGEMAP);
	snprintf(want, sizeof(want), "dtrun: " OBJ_HUGEMAP ": map dcc_drops would take %.1f GiB "
		 "(%llu entries of 8 bytes): corrupted or oversized object\n",
		 bytes / (double)(1ULL << 30), n);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, want);
	run_result_free(&r);
	check_clean();
}

Test(loader, output_file_is_appended)
{
	struct run_result r;
	char path[] = "/tmp/dcc_loader_outXXXXXX", *got;
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, "before\n", 7), 7);
	close(fd);
	char args[256];
	snprintf(args, sizeof(args), "-q -o %s " OBJ_EXIT, path);
	dtrun(&r, args);
	cr_expect_eq(r.status, 3);
	cr_expect_str_eq(r.out, "");
	cr_expect_str_eq(r.err, "");
	got = read_file(path, NULL);
	cr_expect_str_eq(got, "before\n" HELLO_NOTARGET "goodbye 0\n\n");
	free(got);
	unlink(path);
	run_result_free(&r);
	check_clean();
}

Test(loader, p_ends_with_the_process)
{
	struct run_result r;
	char args[256];
	pid_t pid = fork();

	cr_assert(pid >= 0);
	if (pid == 0) {
		execl(GETPPID, GETPPID, "6", "1", (char *)NULL);
		_exit(127);
	}
	snprintf(args, sizeof(args), "-q -p %d " OBJ, (int)pid);
	dtrun(&r, args);
	waitpid(pid, NULL, 0);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, HELLO_TARGET "goodbye 0\n" AGG("                6"));
	run_result_free(&r);

	dtrun(&r, "-p 999999999 " OBJ);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: failed to grab pid 999999999: No such process\n");
	run_result_free(&r);
	check_clean();
}

/* Start dtrun -q -c target OBJ (plus `extra` option) with DCC_TIMING and
 * wait until it says its probes are attached. */
static pid_t start_attached(const char *target, const char *extra, int *out_fd, char *ebuf,
			    size_t ebuf_size)
{
	int out[2], err[2];
	size_t elen = 0;
	pid_t pid;

	cr_assert(!pipe(out) && !pipe(err));
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		setenv("DCC_TIMING", "1", 1);
		if (extra)
			execl(DTRUN_BIN, DTRUN_BIN, "-q", extra, "-c", target, OBJ, (char *)NULL);
		else
			execl(DTRUN_BIN, DTRUN_BIN, "-q", "-c", target, OBJ, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	ebuf[0] = 0;
	while (!strstr(ebuf, "probes attached") && elen < ebuf_size - 1) {
		ssize_t n = read(err[0], ebuf + elen, ebuf_size - 1 - elen);

		cr_assert(n > 0, "dtrun ended early: %s", ebuf);
		elen += n;
		ebuf[elen] = 0;
	}
	close(err[0]);
	*out_fd = out[0];
	return pid;
}

static void finish(struct run_result *r, pid_t pid, int out_fd, const char *ebuf)
{
	int st;

	memset(r, 0, sizeof(*r));
	r->out = calloc(1, 65536);
	for (size_t len = 0;;) {
		ssize_t n = read(out_fd, r->out + len, 65535 - len);

		if (n <= 0)
			break;
		len += n;
	}
	close(out_fd);
	waitpid(pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->err = strdup(ebuf);
}

/* Let the target run a little after attach, then send `sig` to dtrun. */
static void interrupt_run(struct run_result *r, const char *target, int sig)
{
	char ebuf[4096];
	int out_fd;
	pid_t pid = start_attached(target, NULL, &out_fd, ebuf, sizeof(ebuf));

	usleep(300000);
	kill(pid, sig);
	finish(r, pid, out_fd, ebuf);
}

Test(loader, sigint_runs_end_and_prints_aggregations)
{
	struct run_result r;

	interrupt_run(&r, GETPPID " 4 0 30", SIGINT);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, HELLO_TARGET "\n" "goodbye 0\n" AGG("                4"));
	run_result_free(&r);
	check_clean();
}

Test(loader, sigterm_too)
{
	struct run_result r;

	interrupt_run(&r, GETPPID " 3 0 30", SIGTERM);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, HELLO_TARGET "\n" "goodbye 0\n" AGG("                3"));
	run_result_free(&r);
	check_clean();
}

/* Is a dcc_ringbuf map of exactly `size` bytes loaded? */
static bool ringbuf_of_size(uint32_t size)
{
	__u32 id = 0;
	bool found = false;

	while (!found && !bpf_map_get_next_id(id, &id)) {
		int fd = bpf_map_get_fd_by_id(id);
		struct bpf_map_info info = { 0 };
		__u32 len = sizeof(info);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, "dcc_ringbuf") &&
		    info.max_entries == size)
			found = true;
		close(fd);
	}
	return found;
}

Test(loader, bufsize_sets_the_ring_buffer)
{
	struct run_result r;
	char ebuf[4096];
	int out_fd;
	long page = sysconf(_SC_PAGESIZE);
	pid_t pid;

	/* 5000 bytes round up to two pages; nobody else uses that size. */
	pid = start_attached(GETPPID " 2 0 30", "-xbufsize=5000", &out_fd, ebuf, sizeof(ebuf));
	cr_expect(ringbuf_of_size(2 * page), "no %ld-byte dcc_ringbuf loaded", 2 * page);
	usleep(300000);
	kill(pid, SIGINT);
	finish(&r, pid, out_fd, ebuf);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, HELLO_TARGET "\n" "goodbye 0\n" AGG("                2"));
	run_result_free(&r);
	/* The kernel frees maps shortly after their last fd is closed. */
	bool gone = false;

	for (int i = 0; i < 50 && !(gone = !ringbuf_of_size(2 * page)); i++)
		usleep(100000);
	cr_expect(gone, "the ring buffer outlived dtrun");
	check_clean();
}

/* In a private mount namespace without tracefs: dtrun mounts it, or says
 * exactly why it cannot. */
Test(loader, mounts_tracefs)
{
	struct run_result r;

	dtrun(&r, "-h >/dev/null; unshare -m --propagation private sh -c "
	      "'umount /sys/kernel/tracing 2>/dev/null; test ! -e /sys/kernel/tracing/events && "
	      "exec " DTRUN_BIN " -q -c \"" GETPPID " 3\" " OBJ "'");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "");
	cr_expect_str_eq(r.out, HELLO_TARGET "goodbye 0\n" AGG("                3"));
	run_result_free(&r);

	dtrun(&r, "-h >/dev/null; unshare -m --propagation private sh -c "
	      "'mount -t tmpfs -o ro,size=64k none /sys/kernel && "
	      "exec " DTRUN_BIN " -q -c \"" GETPPID " 3\" " OBJ "'");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: tracefs is not mounted and mounting it on "
			 "/sys/kernel/tracing failed: No such file or directory\n");
	cr_expect_str_eq(r.out, "");
	run_result_free(&r);
	check_clean();
}

static void fuzz_one(const char *path, const void *data, size_t len, bool expect_refusal)
{
	struct run_result r;
	char args[256];

	cr_assert_eq(write_file(path, data, len), 0);
	snprintf(args, sizeof(args), "-q -c /bin/true %s", path);
	dtrun(&r, args);
	/* 128 + SIGABRT, SIGBUS, SIGFPE, SIGKILL (timeout), SIGSEGV */
	cr_assert(r.status != 134 && r.status != 135 && r.status != 136 && r.status != 137 &&
		  r.status != 139, "dtrun crashed or hung (status %d) on %zu bytes", r.status, len);
	if (expect_refusal) {
		cr_assert_eq(r.status, 1, "a %zu-byte truncation was accepted", len);
		cr_assert_eq(count_lines(r.err), 1, "not one line for %zu bytes: %s", len, r.err);
		cr_assert(!strncmp(r.err, "dtrun: ", 7), "%s", r.err);
		cr_assert_str_eq(r.out, "");
	}
	run_result_free(&r);
}

/* 280 s: ~35-50 s in the plain build; under ASan ~110 s, past the old 110 s
 * limit beside a fuzzing campaign (ctest's limit for this file is 600 s) */
Test(loader, truncated_objects_are_refused, .timeout = 280)
{
	size_t size;
	char *obj = read_file(OBJ_EXIT, &size);
	const char *path = "/tmp/dcc_loader_trunc.bpf.o";

	cr_assert(obj && size > 4096);
	for (size_t len = 1; len < size; len += len < 128 ? 1 : 53)
		fuzz_one(path, obj, len, true);
	fuzz_one(path, obj, size - 1, true);
	free(obj);
	unlink(path);
	check_clean();
}

Test(loader, corrupted_objects_never_crash, .timeout = 280)
{
	size_t size;
	char *obj = read_file(OBJ_EXIT, &size);
	const char *path = "/tmp/dcc_loader_flip.bpf.o";
	unsigned seed = 12345;

	cr_assert(obj);
	for (int i = 0; i < 250; i++) {
		size_t pos = (size_t)rand_r(&seed) % size;
		char saved = obj[pos];

		obj[pos] ^= (char)(1 + rand_r(&seed) % 255);
		fuzz_one(path, obj, size, false);
		obj[pos] = saved;
	}
	/* Every byte of the metadata header and the first tables. */
	char *meta = memmem(obj, size, "DCCMETA", 8);

	cr_assert(meta);
	for (size_t i = 0; i < 160; i++) {
		meta[i] ^= 0x5a;
		fuzz_one(path, obj, size, false);
		meta[i] ^= 0x5a;
	}
	free(obj);
	unlink(path);
	check_clean();
}

Test(loader, not_dcc_objects)
{
	struct run_result r;

	dtrun(&r, "/bin/true");
	cr_expect_eq(r.status, 1);
	cr_expect_eq(count_lines(r.err), 1, "%s", r.err);
	cr_expect(!strncmp(r.err, "dtrun: /bin/true: ", 18), "%s", r.err);
	run_result_free(&r);

	dtrun(&r, "/dev/null");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: /dev/null: empty file\n");
	run_result_free(&r);

	dtrun(&r, "/nonexistent.bpf.o");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: failed to read /nonexistent.bpf.o: "
			 "No such file or directory\n");
	run_result_free(&r);
}

Test(loader, unprivileged_user_is_told_why)
{
	struct run_result r;

	dtrun(&r, "-h >/dev/null; exec setpriv --reuid=65534 --regid=65534 --clear-groups "
	      DTRUN_BIN " -q " OBJ_EXIT);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: " OBJ_EXIT ": failed to load the object: Operation not "
			 "permitted (tracing needs root, or CAP_BPF and CAP_PERFMON)\n");
	cr_expect_str_eq(r.out, "");
	run_result_free(&r);
}

Test(loader, bad_usage_exits_2)
{
	struct run_result r;

	dtrun(&r, "");
	cr_expect_eq(r.status, 2);
	cr_expect(!strncmp(r.err, "dtrun: no object file given\nUsage: dtrun ", 41), "%s", r.err);
	run_result_free(&r);

	dtrun(&r, "-z " OBJ);
	cr_expect_eq(r.status, 2);
	cr_expect(!strncmp(r.err, "dtrun: invalid option -- 'z'\nUsage: dtrun ", 42), "%s", r.err);
	run_result_free(&r);

	dtrun(&r, OBJ " -o");
	cr_expect_eq(r.status, 2);
	cr_expect(!strncmp(r.err, "dtrun: option requires an argument -- 'o'\nUsage: ", 49), "%s",
		  r.err);
	run_result_free(&r);

	dtrun(&r, "-x nosuch=1 " OBJ);
	cr_expect_eq(r.status, 1); /* a bad option value: dtrace exits 1 */
	cr_expect_str_eq(r.err, "dtrun: failed to set -x nosuch=1: Invalid option name\n");
	run_result_free(&r);

	dtrun(&r, "-x bufsize=lots " OBJ);
	cr_expect_eq(r.status, 1); /* a bad option value: dtrace exits 1 */
	cr_expect_str_eq(r.err, "dtrun: failed to set -x bufsize=lots: "
			 "Invalid value for specified option\n");
	run_result_free(&r);

	dtrun(&r, "-p 12x " OBJ);
	cr_expect_eq(r.status, 2);
	cr_expect(!strncmp(r.err, "dtrun: invalid process ID '12x'\n", 32), "%s", r.err);
	run_result_free(&r);

	dtrun(&r, "-c true -p 1 " OBJ);
	cr_expect_eq(r.status, 2);
	cr_expect(!strncmp(r.err, "dtrun: only one -c or -p may be given\n", 38), "%s", r.err);
	run_result_free(&r);

	dtrun(&r, "-h");
	cr_expect_eq(r.status, 0);
	cr_expect(!strncmp(r.out, "Usage: dtrun [-hqvw]", 20), "%s", r.out);
	cr_expect_str_eq(r.err, "");
	run_result_free(&r);
}

Test(loader, exec_failure_of_c)
{
	struct run_result r;

	dtrun(&r, "-q -c /nonexistent/cmd " OBJ);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "dtrun: failed to execute /nonexistent/cmd: "
			 "No such file or directory\n");
	run_result_free(&r);
	check_clean();
}

Test(loader, timing_is_logged)
{
	struct run_result r;
	double total = -1;
	const char *p;

	dtrun(&r, "-q -v " OBJ_EXIT " 2>&1 >/dev/null | grep -c '^libbpf: '");
	cr_expect(atoi(r.out) > 10, "-v shows libbpf's messages: %s", r.out);
	run_result_free(&r);

	dtrun(&r, "-q -v " OBJ_EXIT " 2>&1 >/dev/null | grep '^dtrun: timing'");
	p = strstr(r.out, "probes attached ");
	cr_assert(p, "%s", r.out);
	cr_assert_eq(sscanf(p, "probes attached %lf ms after start", &total), 1);
	cr_expect(total > 0 && total < 5000);
	run_result_free(&r);
	check_clean();
}

/* In-process: the loader's option rules (the value parsers are abi_opt's: test_abi_opt.c). */

Test(loader_opts, ringbuf_size_rounds_to_power_of_two_pages)
{
	long page = sysconf(_SC_PAGESIZE);

	cr_expect_eq(loader_ringbuf_size(1), page);
	cr_expect_eq(loader_ringbuf_size(5000), 2 * page);
	cr_expect_eq(loader_ringbuf_size(4 << 20), 4 << 20);
	cr_expect_eq(loader_ringbuf_size((4 << 20) + 1), 8 << 20);
}

Test(loader_opts, check)
{
	const char *why;

	cr_expect_eq(loader_opt_check("quiet", NULL, &why), 0);
	cr_expect_eq(loader_opt_check("quiet", "1", &why), -EINVAL);
	cr_expect_str_eq(why, "Invalid value for specified option");
	cr_expect_eq(loader_opt_check("bufsize", NULL, &why), -EINVAL);
	cr_expect_eq(loader_opt_check("strsize", "512", &why), 0);
	cr_expect_eq(loader_opt_check("nspec", "2x", &why), -EINVAL);
	cr_expect_eq(loader_opt_check("oformat", "json", &why), 0);
	cr_expect_eq(loader_opt_check("bogus", NULL, &why), -EINVAL);
	cr_expect_str_eq(why, "Invalid option name");
}

struct extra_seen {
	const char *script;
	const char *desc;
};

static int extra(int opt, const char *arg, void *ctx)
{
	struct extra_seen *s = ctx;

	if (opt == 's')
		s->script = arg;
	else if (opt == 'n')
		s->desc = arg;
	else
		return 1;
	return 0;
}

Test(loader_opts, parse_shared_with_dcc_run)
{
	char *argv[] = { "dcc", "-q", "-s", "x.d", "-x", "bufsize=8m", "-c", "ls /", "-w",
			 "-x", "quiet", "-o", "out.txt", "-n", "BEGIN", "-v", "extra", NULL };
	struct loader_opts o = { .progname = "dcc" };
	struct extra_seen s = { 0 };
	int i = loader_parse_opts(17, argv, &o, "s:n:", extra, &s);

	cr_assert_eq(i, 16);
	cr_expect_str_eq(argv[i], "extra");
	cr_expect(o.quiet && o.destructive && o.verbose);
	cr_expect_str_eq(o.cmd, "ls /");
	cr_expect_str_eq(o.out_path, "out.txt");
	cr_expect_eq(o.pid, 0);
	cr_assert_eq(o.nxopts, 2);
	cr_expect_str_eq(o.xopts[0], "bufsize=8m");
	cr_expect_str_eq(o.xopts[1], "quiet");
	cr_expect_str_eq(s.script, "x.d");
	cr_expect_str_eq(s.desc, "BEGIN");
	free((void *)o.xopts);

	char *argv2[] = { "dtrun", "-p", "42", "obj.o", NULL };
	struct loader_opts o2 = { 0 };

	cr_assert_eq(loader_parse_opts(4, argv2, &o2, NULL, NULL, NULL), 3);
	cr_expect_eq(o2.pid, 42);
	cr_expect_str_eq(o2.progname, "dtrun");
}
