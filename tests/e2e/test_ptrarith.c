/*
 * Pointer arithmetic through the kernel: a pointer steps by its type's size
 * (a char * by bytes), in +, -, ++ and --, and a difference of pointers
 * counts elements. (Arithmetic on void * is refused, as in DTrace.)
 */
#include "e2e/e2e.h"

E2E_TEST(ptrarith, pointers_step_by_their_type_size)
{
	const char *obj = e2e_build("voidptr",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	p = (char *)alloca(24);\n"
		"	q = p + 3;\n"
		"	r = p; r++; ++r; r--;\n"
		"	s = (int *)p; s++;\n"
		"	printf(\"%d %d %d %d\\n\", q - p, r - p, s - (int *)p, (long)s - (long)p);\n"
		"	e = (struct ethhdr *)p;\n"
		"	printf(\"%d %d\\n\", e + 1 - e, (long)(e + 1) - (long)e);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "3 1 1 4\n1 14\n\n");
	run_result_free(&r);
}
