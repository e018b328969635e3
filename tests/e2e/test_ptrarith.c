/*
 * Pointer arithmetic through the kernel: a void * steps by bytes (as in
 * DTrace), a typed pointer by its type's size, in +, -, ++ and --, and a
 * difference of pointers counts elements.
 */
#include "e2e/e2e.h"

E2E_TEST(ptrarith, void_pointers_step_by_bytes)
{
	const char *obj = e2e_build("voidptr",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	p = (void *)alloca(24);\n"
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
