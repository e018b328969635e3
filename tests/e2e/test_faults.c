/*
 * Faults around a trace, each through the real kernel: dtrun killed or
 * interrupted at any moment leaves nothing attached; a traced command that
 * dies by a signal or execs away and a -p process that exits at once end the
 * trace with END; an output that cannot be written is an error, never a
 * silent loss; a low RLIMIT_MEMLOCK, an unmounted tracefs and a missing
 * kernel BTF are handled or named; speculation buffers run out countably.
 */
#include "e2e.h"

#include <sched.h>
#include <sys/stat.h>
#include <sys/mount.h>

/* Links and programs belong to dtrun's descriptors: once it is gone, the
 * kernel frees them (asynchronously, hence the short wait). */
static int progs_left_after(double timeout_s)
{
	double end = e2e_now() + timeout_s;
	int n;

	while ((n = count_dcc_progs()) > 0 && e2e_now() < end)
		usleep(10000);
	return n;
}

E2E_TEST(faults, sigkill_leaves_nothing_attached)
{
	const char *obj = e2e_build("killed", "syscall:::entry { @[probefunc] = count(); }\n"
					      "tick-10ms { printf(\"tick\\n\"); }\n");
	const char *argv[] = { DTRUN_BIN, "-q", obj, NULL };
	struct e2e_bg b;
	struct run_result r;

	e2e_bg_start(&b, argv);
	/* a tick's line on stdout: every probe is attached by then */
	double end = e2e_now() + 20;
	while (!strstr(b.obuf ? b.obuf : "", "tick") && e2e_now() < end)
		e2e_bg_pump(&b, 50);
	cr_assert(count_dcc_progs() > 0, "nothing was loaded before the kill");
	kill(b.pid, SIGKILL);
	e2e_bg_finish(&b, &r, 20);
	cr_assert_eq(r.status, 128 + SIGKILL, "status %d", r.status);
	cr_assert_eq(progs_left_after(2), 0, "programs outlived a SIGKILLed dtrun");
	run_result_free(&r);
}

/* ^C at any moment of the start (opening, loading, attaching ~360 syscall
 * probes, BEGIN): dtrun ends cleanly, by itself, and detaches what it had. */
E2E_TEST(faults, sigint_at_any_moment_of_the_start)
{
	const char *obj = e2e_build("startint", "syscall:::entry { @[probefunc] = count(); }\n");
	static const int delays_ms[] = { 0, 2, 5, 10, 20, 40, 80 };

	for (size_t i = 0; i < sizeof(delays_ms) / sizeof(delays_ms[0]); i++) {
		const char *argv[] = { DTRUN_BIN, "-q", obj, NULL };
		struct e2e_bg b;
		struct run_result r;

		e2e_bg_start(&b, argv);
		usleep(delays_ms[i] * 1000);
		kill(b.pid, SIGINT);
		e2e_bg_finish(&b, &r, 20);
		/* 130: the signal came before dtrun's handler, nothing loaded */
		cr_assert(r.status == 0 || r.status == 1 || r.status == 128 + SIGINT,
			  "^C after %d ms: status %d\nstderr: %s", delays_ms[i], r.status, r.err);
		cr_assert_eq(progs_left_after(2), 0, "^C after %d ms left programs loaded",
			     delays_ms[i]);
		run_result_free(&r);
	}
}

static const char *const end_script =
	"syscall::getppid:entry /progenyof($target) && execname == \"getppid_n\"/ {\n"
	"\t@calls = count();\n}\n"
	"END { printf(\"end\\n\"); }\n";

/* The command kills itself after 5 getppid calls: END runs, the count is
 * exact, and dtrun's own status stays 0 (the command's is not ours). */
E2E_TEST(faults, command_killed_by_a_signal)
{
	const char *obj = e2e_build("cmdkilled", end_script);
	struct run_result r;

	e2e_run(&r, DTRUN_BIN, "-q", "-c",
		e2e_fmt("/bin/sh -c '%s 5; kill -KILL $$'", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "end\n\n                5\n");
	run_result_free(&r);
	/* not quiet: dtrace's notice of how the command ended */
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("/bin/sh -c 'kill -KILL $$'"), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d", r.status);
	e2e_expect_err(&r, "dtrun: script 'cmdkilled.d' matched 2 probes",
		       "dtrun: pid * terminated by SIGKILL", NULL);
	run_result_free(&r);
}

/* $target execs another program, which makes the calls: same process, so
 * they are traced, and its end ends the trace. */
E2E_TEST(faults, command_that_execs_away)
{
	const char *obj = e2e_build("cmdexec", end_script);
	struct run_result r;

	e2e_run(&r, DTRUN_BIN, "-q", "-c",
		e2e_fmt("/bin/sh -c 'exec %s 7'", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "end\n\n                7\n");
	run_result_free(&r);
}

/* A -p process that exits right after dtrun grabbed it ends the trace. */
E2E_TEST(faults, grabbed_process_that_exits_at_once)
{
	const char *obj = e2e_build("pidgone", end_script);
	pid_t child = fork();

	cr_assert_geq(child, 0);
	if (!child) {
		usleep(1000);
		_exit(0);
	}
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-p", e2e_fmt("%d", (int)child), obj, NULL);
	waitpid(child, NULL, 0);
	/* it may be gone before dtrun looks: then that is the one message */
	if (r.status)
		e2e_expect_err(&r, e2e_fmt("dtrun: failed to grab process %d: *", (int)child),
			       NULL);
	else
		e2e_expect(&r, 0, "end\n\n"); /* a count that never counted prints nothing */
	run_result_free(&r);
}

/* /dev/full refuses every write with ENOSPC, as a full filesystem does. */
E2E_TEST(faults, output_on_a_full_filesystem)
{
	const char *obj = e2e_build("full", "BEGIN { printf(\"lost?\\n\"); exit(0); }\n");
	struct run_result r;

	e2e_run(&r, DTRUN_BIN, "-q", "-o", "/dev/full", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	cr_assert_str_eq(r.err, "dtrun: failed to write the trace output to /dev/full: "
				"No space left on device\n");
	run_result_free(&r);
	run_sh(&r, e2e_fmt("%s -q %s > /dev/full", DTRUN_BIN, obj), E2E_TIMEOUT);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	cr_assert_str_eq(r.err, "dtrun: failed to write the trace output: "
				"No space left on device\n");
	run_result_free(&r);
}

/* Kernels since 5.11 charge BPF memory to the cgroup, not to memlock:
 * a zero RLIMIT_MEMLOCK changes nothing. */
E2E_TEST(faults, memlock_limit_of_zero)
{
	const char *obj = e2e_build("memlock", "BEGIN { @a[1] = count(); printf(\"up\\n\"); "
					       "exit(0); }\n");
	struct run_result r;

	run_sh(&r, e2e_fmt("ulimit -l 0 && exec %s -q %s", DTRUN_BIN, obj), E2E_TIMEOUT);
	e2e_expect(&r, 0, "up\n\n        1                1\n");
	run_result_free(&r);
}

/* In a mount namespace of its own, tracefs is unmounted: dtrun mounts it
 * again for the syscall provider's tracepoints, and the trace is exact. */
E2E_TEST(faults, tracefs_unmounted)
{
	const char *obj = e2e_build("notracefs", end_script);
	struct run_result r;

	run_sh(&r, e2e_fmt("unshare -m /bin/sh -c \"umount /sys/kernel/tracing 2>/dev/null; "
			   "umount /sys/kernel/debug/tracing 2>/dev/null; "
			   "test -e /sys/kernel/tracing/events && exit 99; "
			   "%s -q -c '%s 3' %s && test -e /sys/kernel/tracing/events\"",
			   DTRUN_BIN, e2e_trigger("getppid_n"), obj),
	       E2E_TIMEOUT);
	e2e_expect(&r, 0, "end\n\n                3\n");
	run_result_free(&r);
}

/* Without the kernel's BTF (hidden by an empty file bound over it in a
 * mount namespace): dcc names the place it needed kernel types and asks for
 * --btf; dtrun refuses a CO-RE object with one sentence saying why. */
E2E_TEST(faults, kernel_btf_missing)
{
	const char *src = e2e_tmp("nobtf.d");
	const char *obj = e2e_tmp("nobtf.bpf.o");
	struct run_result r;

	cr_assert_eq(write_file(src, "BEGIN\n{\n  @n[curthread->pid] = count();\n}\n", 42), 0);
	e2e_compile(src, obj);
	run_sh(&r, e2e_fmt("unshare -m /bin/sh -c 'mount --bind /dev/null "
			   "/sys/kernel/btf/vmlinux && %s %s -o %s.again'",
			   DCC_BIN, src, obj),
	       E2E_TIMEOUT);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	cr_assert_str_eq(r.err, e2e_fmt("%s:3:6: error: kernel types are needed here, but cannot "
					"read BTF from /sys/kernel/btf/vmlinux: Input/output error "
					"(use --btf FILE)\n"
					"  @n[curthread->pid] = count();\n"
					"     ^~~~~~~~~\n", src));
	run_result_free(&r);
	run_sh(&r, e2e_fmt("unshare -m /bin/sh -c 'mount --bind /dev/null "
			   "/sys/kernel/btf/vmlinux && %s -q %s'", DTRUN_BIN, obj),
	       E2E_TIMEOUT);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	e2e_expect_err(&r, "dtrun: *: failed to load the object: this kernel's BTF "
			   "(/sys/kernel/btf/vmlinux) is missing or unreadable; the object's "
			   "CO-RE relocations need it (a kernel built with CONFIG_DEBUG_INFO_BTF)",
		       NULL);
	run_result_free(&r);
}

/* One speculation buffer and three speculation() calls in one firing: two
 * fail, and the run says so with their exact count. */
E2E_TEST(faults, speculation_buffers_exhausted)
{
	const char *obj = e2e_build("specout", "#pragma D option nspec=1\n"
					      "BEGIN { a = speculation(); b = speculation(); "
					      "c = speculation(); printf(\"%d %d %d\\n\", a, b, c); "
					      "exit(0); }\n");
	struct run_result r;

	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect(&r, 0, "1 0 0\n\n");
	e2e_expect_err(&r, "dtrun: 2 failed speculations (no speculative buffer available)",
		       NULL);
	run_result_free(&r);
}

/* An object runs in the kernel with dtrun's privileges: one that another
 * user could have changed is refused unless --allow-writable says so. */
E2E_TEST(faults, an_object_others_may_write_is_refused)
{
	const char *obj = e2e_build("writable", "BEGIN { printf(\"ran\\n\"); exit(0); }\n");
	struct run_result r;

	cr_assert_eq(chmod(obj, 0646), 0);
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	cr_assert_str_empty(r.out);
	cr_assert_str_eq(r.err, e2e_fmt("dtrun: refusing to run %s: it is writable by every user; "
					"anyone who can change it chooses what runs in the kernel "
					"(--allow-writable runs it anyway)\n", obj));
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", "--allow-writable", obj, NULL);
	e2e_expect(&r, 0, "ran\n\n");
	run_result_free(&r);
	/* group-writable: refused for a group other than root's */
	cr_assert_eq(chmod(obj, 0664), 0);
	cr_assert_eq(chown(obj, 0, 0), 0);
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect(&r, 0, "ran\n\n");
	run_result_free(&r);
	cr_assert_eq(chown(obj, 0, 100), 0);
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	cr_assert(strstr(r.err, "is writable by group 100;"), "stderr: %s", r.err);
	run_result_free(&r);
	/* owned by another user */
	cr_assert_eq(chmod(obj, 0644), 0);
	cr_assert_eq(chown(obj, 65534, 0), 0);
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	cr_assert(strstr(r.err, "is owned by user 65534, not by root or you;"), "stderr: %s",
		  r.err);
	run_result_free(&r);
}
