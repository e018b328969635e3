/*
 * alloca() memory on the kernel, what the stores and subrs tests leave out:
 * alloca(0), bcopy() from strings (a literal, a string variable), byte
 * counts computed at run time for bcopy() and copyinto() and the faults of
 * one too large, stores into an array member through a pointer, and
 * print()'s printsize option changed by setopt(), and where a clause's
 * allocations end.
 */
#include "e2e.h"

E2E_TEST(scratch, empty_allocations_and_copies_from_strings)
{
	const char *obj = e2e_build("scratch_copies",
		"string g;\n"
		"BEGIN\n{\n"
		"	a = alloca(0);\n"
		"	c = (char *)alloca(3);\n"
		"	b = alloca(0);\n"
		"	printf(\"%d %d %d\\n\", a == (void *)c, b == alloca(0), (char *)b - c);\n"
		"	g = \"xyz\";\n"
		"	e = (char *)alloca(16);\n"
		"	bcopy(\"hi\", e, 2);\n"
		"	bcopy(g, e + 2, 3);\n"
		"	this->n = 3;\n"
		"	bcopy(g, e + 5, this->n - 1);\n"
		"	printf(\"%s\\n\", stringof(e));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "scratch.empty_allocations_and_copies_from_strings");
	run_result_free(&r);
}

/* A run-time count is checked against the clause's allocations: more than
 * all of them is an invalid size, past the destination's room an invalid
 * address; copyinto() with a fitting count reads the trigger's buffer. */
E2E_TEST(scratch, run_time_counts_are_checked)
{
	const char *obj = e2e_build("scratch_counts",
		/* declared first: D knows a global from its declaration or
		 * first assignment on, and done is assigned in the last clause */
		"int done; syscall::write:entry /pid == $target && arg2 == 2 && !done/\n{\n"
		"	this->p = (char *)alloca(8);\n"
		"	this->n = arg2 + 7;\n"
		"	bcopy(\"abcdefghij\", this->p, this->n);\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"syscall::write:entry /pid == $target && arg2 == 2 && !done/\n{\n"
		"	this->p = (char *)alloca(8);\n"
		"	this->n = arg2 * 4;\n"
		"	bcopy(\"abcdefgh\", this->p + 4, this->n);\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"syscall::write:entry /pid == $target && arg2 == 2 && !done/\n{\n"
		"	this->p = (char *)alloca(16);\n"
		"	this->n = arg2;\n"
		"	copyinto(arg1, this->n, this->p + 1);\n"
		"	this->p[0] = '<';\n"
		"	this->p[this->n + 1] = '>';\n"
		"	done = 1;\n"
		"	printf(\"%s\\n\", stringof(this->p));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_trigger("subrs"), obj, NULL);
	e2e_expect_out(&r, 0, "scratch.run_time_counts_are_checked");
	e2e_expect_err(&r, "*error in *scratch_counts.d:1:11 *: invalid size (0x9)*",
		       "*error in *scratch_counts.d:8:1 *: invalid address (0xffff*)*", NULL);
	run_result_free(&r);
}

E2E_TEST(scratch, array_members_through_a_pointer_and_printsize)
{
	const char *obj = e2e_build("scratch_print",
		"#pragma D option printsize=8\n"
		"struct s3 { int a; char b[5]; long c; };\n"
		"BEGIN\n{\n"
		"	p = (struct s3 *)alloca(sizeof(struct s3));\n"
		"	p->a = 3; p->b[0] = 'o'; p->b[1] = 'k'; p->c = 5;\n"
		"	print(*p);\n"
		"	setopt(\"printsize\", \"64\");\n"
		"	print(*p);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "scratch.array_members_through_a_pointer_and_printsize");
	run_result_free(&r);
}

/* What a clause allocates is one span before its temporaries: a string read
 * from alloca() memory ends where the memory does, though the bytes have no
 * NUL and a temporary string comes next in scratch, and a store just past
 * the allocation is an invalid address even with a temporary there (and the
 * faulting clause's output is dropped). */
E2E_TEST(scratch, allocations_end_before_the_temporaries)
{
	const char *obj = e2e_build("scratch_span",
		"BEGIN\n{\n"
		"	this->p = (char *)alloca(8);\n"
		"	bcopy(\"abcdefghij\", this->p, 8);\n"
		"	printf(\"%s|%s|\", pid > 0 ? \"temp\" : \"none\", stringof(this->p));\n"
		"	this->p[4] = 0;\n"
		"	printf(\"%s|%s|%s|\\n\", stringof(this->p + 2), stringof(this->p + 5),\n"
		"	       stringof(this->p + 7));\n"
		"}\n"
		"BEGIN\n{\n"
		"	this->q = (char *)alloca(8);\n"
		"	printf(\"%s|\\n\", strjoin(execname, \"-x\"));\n"
		"	this->q[8] = 'z';\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "temp|abcdefgh|cd|fgh|h|\n\n");
	e2e_expect_err(&r, "*error in *scratch_span.d:10:1 *: invalid address (0xffff*)*", NULL);
	run_result_free(&r);
}
