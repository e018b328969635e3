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
