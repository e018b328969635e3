/*
 * dtrace's command line as the loader sees it: the test mode of DTrace's own
 * suite (_DTRACE_TESTING: no CPU and ID columns), the one blank line that
 * ends a trace, and the macro variables $pid... of the loading process.
 */
#include <unistd.h>

#include "e2e.h"

E2E_TEST(cli, test_mode_drops_cpu_and_id_columns)
{
	const char *obj = e2e_build("cli_testmode",
				    "BEGIN { trace(7); @c[\"a\"] = count(); exit(0); }\n");
	struct run_result r;
	setenv("_DTRACE_TESTING", "t", 1);
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	unsetenv("_DTRACE_TESTING");
	e2e_expect(&r, 0, e2e_fmt("%32s\n%32s  %10d\n\n%s", "FUNCTION:NAME", ":BEGIN", 7,
				  e2e_agg_row("a", 1)));
	run_result_free(&r);
}

E2E_TEST(cli, exit_ends_with_one_blank_line)
{
	const char *obj = e2e_build("cli_blank", "BEGIN { @c[\"a\"] = count(); @d = sum(5); "
						 "printf(\"x\\n\"); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	/* one blank line, then both aggregations with none between them */
	e2e_expect(&r, 0, e2e_fmt("x\n\n%s%17d\n", e2e_agg_row("a", 1), 5));
	run_result_free(&r);
}

E2E_TEST(cli, macro_variables_are_the_loaders)
{
	const char *obj = e2e_build("cli_macros",
		"BEGIN {\n"
		"\tprintf(\"%d %d %d %d %d %d %d\\n\", $pid == pid, $ppid, $uid == uid,\n"
		"\t       $gid == gid, $euid, $egid, $sid > 0 && $pgid > 0);\n"
		"\texit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	/* BEGIN runs in dtrun itself; this test process is its parent */
	e2e_expect(&r, 0, e2e_fmt("1 %d 1 1 %d %d 1\n\n", (int)getpid(), (int)geteuid(),
				  (int)getegid()));
	run_result_free(&r);
}

E2E_TEST(cli, run_with_cpp_definitions)
{
	struct run_result r;
	/* -x define= is the compiler's: the runtime never sees it */
	e2e_run(&r, DCC_BIN, "run", "-q", "-C", "-x", "define=V=5", "-DW=2", "-n",
		"BEGIN { printf(\"%d\\n\", V * W); exit(0); }", NULL);
	e2e_expect(&r, 0, "10\n\n");
	run_result_free(&r);
}

/* bufsize must hold the largest record the program writes: here a fault
 * report (16-byte header, 16 bytes), behind the ring buffer's 8-byte header */
E2E_TEST(cli, bufsize_below_one_record_is_refused)
{
	const char *obj = e2e_build("cli_bufsize", "BEGIN { trace(3); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "bufsize=39", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.out);
	cr_assert_str_eq(r.err, "dtrun: could not enable tracing: Enabling exceeds size of buffer "
			 "(bufsize 39, a record takes up to 40 bytes)\n");
	run_result_free(&r);
	/* a clause with more to record needs more room */
	obj = e2e_build("cli_bufsize_big", "BEGIN { printf(\"%s %s %s\", execname, execname, "
					   "execname); exit(0); }\n");
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "bufsize=71", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dtrun: could not enable tracing: Enabling exceeds size of buffer "
			 "(bufsize 71, a record takes up to 80 bytes)\n");
	run_result_free(&r);
	/* -b is bufsize too, and 40 bytes are enough */
	e2e_run(&r, DCC_BIN, "run", "-q", "-b", "40", "-n", "BEGIN { trace(3); exit(0); }", NULL);
	e2e_expect(&r, 0, "3\n");
	run_result_free(&r);
}
