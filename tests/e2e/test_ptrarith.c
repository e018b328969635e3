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

/* A char pointer is an address like any other: trace() records its value,
 * and as an aggregation key or an associative array's key it keys by that
 * value, not by the bytes it points to (two pointers to equal strings are
 * two keys). */
E2E_TEST(ptrarith, char_pointers_are_values)
{
	const char *obj = e2e_build("charptr",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	a = (char *)0x1234;\n"
		"	b = (char *)alloca(4); c = (char *)alloca(4);\n"
		"	b[0] = 'x'; c[0] = 'x';\n"
		"	trace(a); printf(\"|\");\n"
		"	seen[a] = 5; seen[b] = 6; seen[c] = 7;\n"
		"	@k[a] = count(); @k[b] = count(); @k[c] = count(); @k[a] = count();\n"
		"	printf(\"%d %d %d %d\\n\", seen[a], seen[(char *)0x1234], seen[b], seen[c]);\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"%x %@d\\n\", @k); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(!strncmp(r.out, "4660|5 5 6 7\n", 13), "%s", r.out);
	cr_assert(strstr(r.out, "\n1234 2\n"), "%s", r.out);
	run_result_free(&r);
}
