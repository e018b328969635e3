/*
 * tracemem() and the destructive actions on this kernel: an object using
 * them is refused without -w with DTrace's message and nothing loaded;
 * raise() and stop() signal the destr trigger, system() prints in order
 * with printf(), copyout() and copyoutstr() write the trigger's buffer (or,
 * where the kernel refuses bpf_probe_write_user, dtrun says so), tracemem()
 * dumps the trigger's bytes.
 */
#include "e2e/e2e.h"

#define REFUSED "dtrun: could not enable tracing: Destructive actions not allowed"

E2E_TEST(destructive, refused_without_w)
{
	struct run_result r;
	const char *obj = e2e_build("raise", "BEGIN { raise(SIGUSR1); exit(0); }");

	/* what matched first, as dtrace compiles before it enables */
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 1, "");
	e2e_expect_err(&r, "dtrun: script 'raise.d' matched 1 probe", REFUSED, NULL);
	run_result_free(&r);
	/* -q leaves the refusal alone */
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect(&r, 1, "");
	e2e_expect_err(&r, REFUSED, NULL);
	run_result_free(&r);
	/* tracemem() alone is not destructive */
	obj = e2e_build("tracemem", "BEGIN { tracemem(&curthread->comm[0], 4, 2); exit(0); }");
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "destructive.refused_without_w");
	run_result_free(&r);
}

E2E_TEST(destructive, allowed_by_w_or_the_option)
{
	struct run_result r;
	const char *obj = e2e_build("sys", "BEGIN { system(\"echo ok\"); exit(0); }");

	e2e_build("sys_pragma", "#pragma D option destructive\n"
				"BEGIN { system(\"echo ok\"); exit(0); }");
	e2e_run(&r, DTRUN_BIN, "-w", obj, NULL);
	e2e_expect_err(&r, "dtrun: script 'sys.d' matched 1 probe",
		       "dtrun: allowing destructive actions", NULL);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "destructive", obj, NULL);
	e2e_expect_out(&r, 0, "destructive.allowed_by_w_or_the_option.1");
	run_result_free(&r);
	/* dcc run compiled the script itself: its pragma counts */
	e2e_run(&r, DCC_BIN, "run", "-q", e2e_tmp("sys_pragma.d"), NULL);
	e2e_expect_out(&r, 0, "destructive.allowed_by_w_or_the_option.2");
	run_result_free(&r);
}

/* An object is data: whatever options it carries, dtrun's user allows
 * destructive actions, with -w or -x destructive. */
E2E_TEST(destructive, an_objects_own_option_does_not_count_in_dtrun)
{
	struct run_result r;
	const char *pragma = e2e_build("sys_pragma", "#pragma D option destructive\n"
					"BEGIN { system(\"echo ok\"); exit(0); }");

	e2e_run(&r, DTRUN_BIN, "-q", pragma, NULL);
	cr_assert_eq(r.status, 1, "status %d", r.status);
	cr_assert_str_empty(r.out);
	cr_assert_str_eq(r.err, "dtrun: could not enable tracing: Destructive actions not allowed\n"
				"dtrun: the object's own destructive option does not count: allow "
				"them with -w\n");
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", "-w", pragma, NULL);
	e2e_expect_out(&r, 0, "destructive.allowed_by_w_or_the_option.2");
	run_result_free(&r);
}

E2E_TEST(destructive, raise_signals_every_firing)
{
	struct run_result r;
	const char *obj = e2e_build("raise", "syscall::getppid:entry /pid == $target/ "
				    "{ raise(SIGUSR1); }");

	e2e_run(&r, DTRUN_BIN, "-w", "-q", "-c", e2e_fmt("%s signals 7", e2e_trigger("destr")),
		obj, NULL);
	e2e_expect_out(&r, 0, "destructive.raise_signals_every_firing");
	run_result_free(&r);
}

/* The state letter of /proc/PID/stat, '?' if it can't be read. */
static char proc_state(int pid)
{
	char *s = read_file(e2e_fmt("/proc/%d/stat", pid), NULL), *p, c = '?';

	if (s && (p = strrchr(s, ')')) && p[1] == ' ')
		c = p[2];
	free(s);
	return c;
}

E2E_TEST(destructive, stop_stops_the_process)
{
	const char *obj = e2e_build("stop", "syscall::getppid:entry /pid == $target/ "
				    "{ stop(); printf(\"stopped %d\\n\", pid); }");
	const char *argv[] = { DTRUN_BIN, "-w", "-q", "-c",
			       e2e_fmt("%s stop", e2e_trigger("destr")), obj, NULL };
	struct run_result r;
	struct e2e_bg b;
	double end = e2e_now() + 20;
	char state = '?';
	int pid = 0;

	e2e_bg_start(&b, argv);
	while (!pid && e2e_now() < end && e2e_bg_pump(&b, 50)) {
		const char *p = strstr(b.obuf, "pid ");
		if (p && strchr(p, '\n'))
			pid = atoi(p + 4);
	}
	while (pid > 0 && e2e_now() < end && (state = proc_state(pid)) != 'T')
		usleep(20 * 1000);
	/* resume it whatever happened, so that no stopped process stays */
	if (pid > 0)
		kill(pid, SIGCONT);
	e2e_bg_finish(&b, &r, E2E_TIMEOUT);
	cr_assert_gt(pid, 0, "no pid from the trigger: %s", e2e_show(r.out));
	cr_assert_eq(state, 'T', "the trigger's state is %c, not T (stopped)", state);
	cr_assert_eq(r.status, 0, "exit status %d\n%s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, e2e_fmt("stopped %d\n", pid)), "%s", e2e_show(r.out));
	cr_assert_not_null(strstr(r.out, "resumed\n"), "%s", e2e_show(r.out));
	run_result_free(&r);
}

E2E_TEST(destructive, system_in_order_with_printf)
{
	struct run_result r;
	const char *obj = e2e_build("system", "BEGIN { printf(\"one\\n\"); n = 2; "
				    "system(\"echo %d\", n); printf(\"three\\n\"); "
				    "system(\"echo %s\", \"four\"); exit(0); }");

	e2e_run(&r, DTRUN_BIN, "-w", "-q", obj, NULL);
	e2e_expect_out(&r, 0, "destructive.system_in_order_with_printf");
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-w", obj, NULL);
	const char *tail = ":BEGIN one\n2\nthree\nfour\n\n\n";
	cr_assert_eq(r.status, 0);
	cr_assert(strlen(r.out) > strlen(tail) &&
		  !strcmp(r.out + strlen(r.out) - strlen(tail), tail), "%s", e2e_show(r.out));
	run_result_free(&r);
}

E2E_TEST(destructive, copyout_writes_the_traced_buffer)
{
	struct run_result r;
	const char *trig = e2e_fmt("%s copyout", e2e_trigger("destr"));
	const char *obj = e2e_build("copyout", "syscall::pwrite64:entry /pid == $target/ "
				    "{ copyout(copyin(arg1 + 8, 8), arg1, 8); }");
	const char *objstr = e2e_build("copyoutstr", "syscall::pwrite64:entry /pid == $target/ "
				       "{ copyoutstr(\"hello\", arg1, 16); }");

	e2e_run(&r, DTRUN_BIN, "-w", "-q", "-c", trig, obj, NULL);
	/* a locked-down kernel refuses the helper: dtrun's check of the
	 * kernel, made when the load fails, says so (the loader's own message
	 * is for a kernel the check could not ask) */
	if (r.status == 1 && (strstr(r.err, "\ndtrun: copyout() and copyoutstr() need "
				     "bpf_probe_write_user(), which this kernel refuses") ||
			      !strcmp(r.err, e2e_fmt("dtrun: this kernel cannot run %s: program "
				      "dcc_c1 calls helper bpf_probe_write_user (36), which this "
				      "kernel does not allow in tracepoint programs\n", obj)))) {
		run_result_free(&r);
		e2e_run(&r, DTRUN_BIN, "-w", "-q", "-c", trig, objstr, NULL);
		cr_assert_eq(r.status, 1);
		cr_assert_not_null(strstr(r.err, "bpf_probe_write_user"), "%s", r.err);
		run_result_free(&r);
		cr_skip_test("this kernel refuses bpf_probe_write_user (lockdown)");
	}
	e2e_expect_out(&r, 0, "destructive.copyout_writes_the_traced_buffer.1");
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-w", "-q", "-c", trig, objstr, NULL);
	e2e_expect_out(&r, 0, "destructive.copyout_writes_the_traced_buffer.2");
	run_result_free(&r);
}

E2E_TEST(destructive, tracemem_dumps_the_bytes)
{
	struct run_result r;
	const char *obj = e2e_build("tracemem", "syscall::pwrite64:entry /pid == $target/ "
				    "{ tracemem(copyin(arg1, 20), 20); "
				    "tracemem(copyin(arg1, 20), 20, arg2 - 15); }");
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s bytes", e2e_trigger("destr")), obj, NULL);
	e2e_expect_out(&r, 0, "destructive.tracemem_dumps_the_bytes");
	run_result_free(&r);
}

/* An action that records nothing still makes its firing print the probe line,
 * as any action does in DTrace; a clause of assignments alone prints nothing. */
E2E_TEST(destructive, raise_prints_the_probe_line)
{
	struct run_result r;
	const char *obj = e2e_build("raise_line", "BEGIN { raise(0); }\n"
						  "BEGIN { self->x = 1; }\n"
						  "BEGIN { exit(0); }\n");

	e2e_run(&r, "/usr/bin/taskset", "-c", "0", DTRUN_BIN, "-w", obj, NULL);
	e2e_expect(&r, 0,
		   "CPU     ID                    FUNCTION:NAME\n"
		   "  0      1                           :BEGIN \n"
		   "  0      1                           :BEGIN \n\n");
	run_result_free(&r);
}
