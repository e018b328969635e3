/*
 * The ERROR probe: a fault stops its clause, the consumer reports it on
 * stderr, the ERROR clauses run with the fault's description in arg1..arg5,
 * and tracing goes on. A fault inside an ERROR clause is only counted.
 */
#include "e2e.h"

/* Faults of four kinds in four BEGIN clauses (clauses 2 to 5 from 1; arg2
 * counts from 0, the ERROR clause included), then a clause that still runs. */
E2E_TEST(error_probe, error_clauses_see_each_fault)
{
	const char *obj = e2e_build("error_args",
		"#pragma D option quiet\n"
		"ERROR { printf(\"ERROR %d %d %d %d %d %s:::%s id %d\\n\", arg0, arg1, arg2,\n"
		"               arg4, arg5, probeprov, probename, id); }\n"
		"BEGIN { x = (int *)0x4000; y = *x; printf(\"not reached\\n\"); }\n"
		"BEGIN { z = 0; printf(\"%d\\n\", 7 % z); }\n"
		"BEGIN { p = (struct task_struct *)NULL; trace(p->pid); }\n"
		"BEGIN { trace(strjoin(\"0123456789\", \"0123456789\")); } /* cut, no fault */\n"
		"BEGIN { printf(\"faults %d %d\\n\", DTRACEFLT_BADADDR, DTRACEFLT_DIVZERO); exit(0); }\n"
		"#pragma D option strsize=16\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0,
		   "ERROR 0 1 1 1 16384 dtrace:::ERROR id 3\n"
		   "ERROR 0 1 2 4 0 dtrace:::ERROR id 3\n"
		   "ERROR 0 1 3 1 0 dtrace:::ERROR id 3\n"
		   "0123456789012345faults 1 4\n\n");
	e2e_expect_err(&r,
		"dtrun: error in *error_args.d:4:1 for probe ID 1 (dtrace:::BEGIN): invalid address "
		"(0x4000) at BPF pc *",
		"dtrun: error in *error_args.d:5:1 for probe ID 1 (dtrace:::BEGIN): divide-by-zero "
		"at BPF pc *",
		"dtrun: error in *error_args.d:6:1 for probe ID 1 (dtrace:::BEGIN): invalid address "
		"(0x0) at BPF pc *",
		NULL);
	run_result_free(&r);
}

/* An ERROR clause that ends the run: END still runs, and the faulting
 * clause's statements after the fault do not. A fault in the ERROR clause
 * itself is counted, not reported again. */
E2E_TEST(error_probe, exit_from_error_and_faults_inside_it)
{
	const char *obj = e2e_build("error_exit",
		"#pragma D option quiet\n"
		"ERROR { printf(\"error in clause %d\\n\", arg2); }\n"
		"ERROR { trace(*(int *)arg5); printf(\"not reached\\n\"); }\n"
		"ERROR /arg4 == DTRACEFLT_BADADDR/ { exit(3); }\n"
		"END { printf(\"end\\n\"); }\n"
		"BEGIN { trace(*(char *)NULL); printf(\"not reached\\n\"); exit(1); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 3, "error in clause 4\nend\n\n");
	e2e_expect_err(&r,
		"dtrun: error in *error_exit.d:6:1 for probe ID 1 (dtrace:::BEGIN): invalid address "
		"(0x0) at BPF pc *",
		"dtrun: 1 error in ERROR probe enabling",
		NULL);
	run_result_free(&r);
}
