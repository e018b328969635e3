/*
 * trace() of an array or a struct writes its bytes as a dump, as DTrace for
 * Linux does, even when they would read as a string (a char array holding
 * text, a one-byte struct holding a digit); a string stays a string.
 */
#include "e2e.h"

E2E_TEST(trace_bytes, arrays_and_structs_are_dumped)
{
	const char *obj = e2e_build("trace_bytes",
		"struct one { char c; } o;\n"
		"char name[6];\n"
		"BEGIN\n{\n"
		"	name[0] = 'd'; name[1] = 'c'; name[2] = 'c';\n"
		"	o.c = '7';\n"
		"	trace(name);\n"
		"	trace(o);\n"
		"	trace(\"dcc\");\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "trace_bytes.arrays_and_structs_are_dumped");
	run_result_free(&r);
}
