/*
 * How D gives variables their types and values across a script: a
 * variable takes the type of its first assignment wherever that stands,
 * a predicate's included.
 */
#include "e2e/e2e.h"

/* The first assignment of p is in a predicate, inside a conditional: the
 * body, which converts p to a long, still knows p as a pointer, and the
 * counter the predicate increments is an integer everywhere. */
E2E_TEST(vars, a_predicate_assignment_types_the_variable)
{
	const char *obj = e2e_build("pred_assign",
		"#pragma D option quiet\n"
		"BEGIN / (n++ == 0) ? p = alloca(16) : p / {\n"
		"	q = (int *)((long)p + 4);\n"
		"	*q = 7;\n"
		"	printf(\"%d %d %d\\n\", n, *(int *)((long)p + 4), (long)q - (long)p);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "1 7 4\n\n");
	run_result_free(&r);
}

/* execargs is the process's command line with spaces between the
 * arguments (the trigger's own path, which varies, is left out by
 * basename()); a short strsize cuts it, NUL-terminated within it. */
E2E_TEST(vars, execargs_joins_the_arguments)
{
	const char *obj = e2e_build("execargs",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	printf(\"[%s]\\n\", basename(execargs));\n"
		"}\n");
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "%s 2 0 0 0", e2e_trigger("getppid_n"));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", cmd, obj, NULL);
	e2e_expect(&r, 0, "[getppid_n 2 0 0 0]\n[getppid_n 2 0 0 0]\n\n");
	run_result_free(&r);
	obj = e2e_build("execargs_short",
		"#pragma D option quiet\n"
		"#pragma D option strsize=6\n"
		"syscall::getppid:entry /pid == $target/ { printf(\"%d\\n\", strlen(execargs)); }\n");
	e2e_run(&r, DTRUN_BIN, "-c", cmd, obj, NULL);
	e2e_expect(&r, 0, "5\n5\n\n");
	run_result_free(&r);
}
