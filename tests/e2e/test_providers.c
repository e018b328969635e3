/*
 * Providers beyond syscall: sdt (tracepoints, args[] from the tracefs
 * format) and rawtp (tp_btf, args[] typed from BTF), on this kernel, with
 * the -c command's own exec and exit. fbt needs fentry, which this kernel
 * refuses: tests/vm/cases/fbt.d runs it on the 6.1 guest.
 */
#include "e2e/e2e.h"

E2E_TEST(providers, sdt_fields_of_sched_process_exit)
{
	const char *obj = e2e_build("sdt",
		"#pragma D option quiet\n"
		"sdt:sched::sched_process_exit /args[1] == $target/ {\n"
		"	printf(\"%s:%s:%s:%s comm=%s is_target=%d\\n\", probeprov, probemod,\n"
		"	    probefunc, probename, stringof(args[0]), args[1] == pid);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", "/bin/true", obj, NULL);
	e2e_expect_out(&r, 0, "providers.sdt_fields_of_sched_process_exit");
	run_result_free(&r);
}

E2E_TEST(providers, rawtp_typed_task_of_sched_process_exec)
{
	const char *obj = e2e_build("rawtp",
		"#pragma D option quiet\n"
		"rawtp:sched::sched_process_exec /args[0]->tgid == $target/ {\n"
		"	printf(\"%s comm=%s old_pid_is_target=%d\\n\", probename,\n"
		"	    args[0]->comm, args[1] == $target);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", "/bin/true", obj, NULL);
	e2e_expect_out(&r, 0, "providers.rawtp_typed_task_of_sched_process_exec");
	run_result_free(&r);
}

E2E_TEST(providers, unknown_tracepoint_is_a_compile_error)
{
	const char *src = e2e_tmp("nosuch.d");
	const char *text = "sdt:sched::dcc_no_such_event { }\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-e", src, NULL);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "does not match any probes"), "%s", r.err);
	run_result_free(&r);
}
