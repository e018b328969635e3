/*
 * The syscall provider on this kernel: trigger programs make a known number
 * of calls under `dtrun -c`, and the counts, arguments, errno and built-ins a
 * script reports must match exactly what the trigger did.
 */
#include "e2e.h"

/* `dtrun -q -c CMD obj` for tests/e2e/<script>.d; returns the result. */
static struct run_result trace_cmd(const char *script, const char *cmd)
{
	const char *obj = e2e_build_src(script);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", cmd, obj, NULL);
	cr_assert_str_empty(r.err, "dtrun -q printed on stderr:\n%s", r.err);
	return r;
}

/* Command line of a trigger, pinned to CPU 0 where record order matters. */
static const char *trig(const char *name, const char *args)
{
	return e2e_fmt("taskset -c 0 %s %s", e2e_trigger(name), args);
}

E2E_TEST(syscall, getppid_count_is_exact)
{
	struct run_result r = trace_cmd("tst.getppid_count", trig("getppid_n", "1000"));
	e2e_expect(&r, 0, e2e_fmt("\n%s", e2e_agg_row("getppid", 1000)));
	run_result_free(&r);
}

E2E_TEST(syscall, getppid_printf_per_call)
{
	struct run_result r = trace_cmd("tst.getppid_printf", trig("getppid_n", "500"));
	char *want = e2e_keep(calloc(1, 500 * 8 + 2));
	for (int i = 0; i < 500; i++)
		strcat(want, "getppid\n");
	strcat(want, "\n");
	cr_assert_eq(e2e_lines(r.out), 501, "%d lines, want 500 + the final newline",
		     e2e_lines(r.out));
	e2e_expect(&r, 0, want);
	run_result_free(&r);
}

E2E_TEST(syscall, probe_tuple_entry_and_return)
{
	struct run_result r = trace_cmd("tst.probe_names", trig("getppid_n", "2"));
	e2e_expect_out(&r, 0, "syscall.probe_tuple_entry_and_return");
	run_result_free(&r);
}

E2E_TEST(syscall, aggregation_with_two_string_keys)
{
	struct run_result r = trace_cmd("tst.two_keys", trig("getppid_n", "25"));
	/* Equal values: sorted by key, "entry" < "return". */
	e2e_expect(&r, 0,
		   e2e_fmt("\n  %-50s  %-50s %16lld\n  %-50s  %-50s %16lld\n", "getppid", "entry",
			   25LL, "getppid", "return", 25LL));
	run_result_free(&r);
}

E2E_TEST(syscall, self_thread_local_timing)
{
	struct run_result r = trace_cmd("tst.self_timing", trig("getppid_n", "300"));
	/* Sorted by value, then key: "later" < "paired"; no "unpaired" and no
	 * "not cleared" rows. */
	e2e_expect(&r, 0, e2e_fmt("\n%s%s", e2e_agg_row("later", 300), e2e_agg_row("paired", 300)));
	run_result_free(&r);
}

E2E_TEST(syscall, execname_string_predicate)
{
	struct run_result r = trace_cmd("tst.execname_pred", trig("getppid_n", "77"));
	e2e_expect(&r, 0, e2e_fmt("\n%s", e2e_agg_row("getppid_n", 77)));
	run_result_free(&r);
}

E2E_TEST(syscall, errno_on_failing_openat)
{
	struct run_result r = trace_cmd("tst.errno", e2e_fmt("%s 5", e2e_trigger("errno_n")));
	e2e_expect(&r, 0,
		   e2e_fmt("errno=2\nerrno=2\nerrno=2\nerrno=2\nerrno=2\n\n%s",
			   e2e_agg_row("ENOENT", 5)));
	run_result_free(&r);
}

E2E_TEST(syscall, write_arguments_and_return_values)
{
	struct run_result r = trace_cmd("tst.write_args", trig("write_n", "4"));
	e2e_expect_out(&r, 0, "syscall.write_arguments_and_return_values");
	run_result_free(&r);
}

E2E_TEST(syscall, wildcard_descriptions)
{
	struct run_result r = trace_cmd("tst.wildcard", trig("getppid_n", "12"));
	/* Two aggregations, printed in declaration order, each with its own
	 * leading newline. */
	e2e_expect(&r, 0,
		   e2e_fmt("\n%s%s", e2e_agg_row("getppid", 12), e2e_agg_row("getppid", 12)));
	run_result_free(&r);
}

E2E_TEST(syscall, identity_builtins_match_the_trigger)
{
	const char *file = e2e_tmp("ids.txt");
	struct run_result r = trace_cmd("tst.ids", e2e_fmt("%s %s", e2e_trigger("ids"), file));
	char *mine = e2e_keep(read_file(file, NULL));
	cr_assert_not_null(mine, "the ids trigger did not write %s", file);
	cr_assert(strstr(mine, "uid=1234 gid=4321"), "ids: %s", mine);
	e2e_expect(&r, 0, e2e_fmt("%s\n", mine));
	run_result_free(&r);
}

E2E_TEST(syscall, global_counter_printed_by_end)
{
	struct run_result r = trace_cmd("tst.globals_count", trig("getppid_n", "7"));
	e2e_expect_out(&r, 0, "syscall.global_counter_printed_by_end");
	run_result_free(&r);
}

/* -p PID: trace a process that is already running; its exit ends the trace. */
E2E_TEST(syscall, attach_to_running_pid)
{
	const char *obj = e2e_build_src("tst.getppid_count");
	const char *targv[] = { e2e_trigger("delayed_getppid"), "2500", "40", NULL };
	struct e2e_bg t;
	e2e_bg_start(&t, targv);
	struct run_result r;
	char pidstr[16];
	snprintf(pidstr, sizeof(pidstr), "%d", (int)t.pid);
	e2e_run(&r, DTRUN_BIN, "-q", "-p", pidstr, obj, NULL);
	struct run_result tr;
	e2e_bg_finish(&t, &tr, 10);
	cr_assert_eq(tr.status, 0, "trigger status %d", tr.status);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 0, e2e_fmt("\n%s", e2e_agg_row("getppid", 40)));
	run_result_free(&r);
	run_result_free(&tr);
}

/* Not quiet: the matched-probes line on stderr, the header, then
 * "%3d %6d %32s " (cpu, probe id, func:name) before the record. */
E2E_TEST(syscall, default_output_of_a_syscall_probe)
{
	const char *obj = e2e_build_src("tst.default_syscall");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("taskset -c 1 %s 1", e2e_trigger("getppid_n")), obj,
		NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	/* dtrace also says "pid N has exited" when the -c command ends; allow it. */
	char *pidline = strstr(r.err, "dtrun: pid ");
	if (pidline && fnmatch("dtrun: pid * has exited\n", pidline, 0) == 0)
		*pidline = 0;
	e2e_expect_err(&r, "dtrun: script '*tst.default_syscall.d' matched 1 probe", NULL);
	const char *hdr = "CPU     ID                    FUNCTION:NAME\n";
	cr_assert_eq(strncmp(r.out, hdr, strlen(hdr)), 0, "no header: %s", e2e_show(r.out));
	const char *line = r.out + strlen(hdr);
	/* "  1 " + 6-digit id + " " + %32s + " " + " %10d" + "\n" + final "\n" */
	cr_assert_eq(strlen(line), 4 + 6 + 1 + 32 + 1 + 11 + 1 + 1, "line %s", e2e_show(line));
	cr_assert_eq(strncmp(line, "  1 ", 4), 0, "cpu column: %s", e2e_show(line));
	int id = atoi(line + 4);
	cr_assert(id > 3, "syscall probe id %d collides with BEGIN/END/ERROR", id);
	cr_assert_eq(strcmp(line + 10, e2e_fmt(" %32s  %10d\n\n", "getppid:entry", 1)), 0,
		     "line %s", e2e_show(line));
	run_result_free(&r);
}

/* With a one-page buffer most of 20000 records cannot fit between drains:
 * every record is either printed or counted in a "N drops on CPU C" line,
 * never lost silently. */
E2E_TEST(syscall, drops_are_reported_not_lost)
{
	const char *obj = e2e_build_src("tst.drops");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "bufsize=4k", "-c", trig("getppid_n", "20000"), obj,
		NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	long printed = e2e_lines(r.out) - 1, dropped = 0;
	char *save = NULL, *err = e2e_keep(strdup(r.err));
	for (char *l = strtok_r(err, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		long n;
		int cpu;
		char word[16];
		int k = sscanf(l, "dtrun: %ld %15s on CPU %d", &n, word, &cpu);
		cr_assert_eq(k, 3, "unexpected stderr line '%s'", l);
		cr_assert_str_eq(word, n == 1 ? "drop" : "drops", "in '%s'", l);
		dropped += n;
	}
	cr_assert_gt(dropped, 0, "no drops reported with a 4k buffer; printed %ld", printed);
	cr_assert_eq(printed + dropped, 20000, "printed %ld + dropped %ld != 20000", printed,
		     dropped);
	run_result_free(&r);
}

E2E_TEST(syscall, six_arguments)
{
	struct run_result r = trace_cmd("tst.args6", trig("args6", ""));
	e2e_expect_out(&r, 0, "syscall.six_arguments");
	run_result_free(&r);
}

/* Nine syscalls in a description take raw_syscalls: the same arguments,
 * probefunc, return value and errno as one syscall's own tracepoint. */
E2E_TEST(syscall, raw_syscalls_group_sees_what_one_tracepoint_sees)
{
	struct run_result r = trace_cmd("tst.raw_group", e2e_trigger("args6"));
	e2e_expect(&r, 0, "sendto:entry -1 1111 2222 3333 4444 5555\n"
			  "sendto:return -9 errno=9\n\n");
	run_result_free(&r);
}
