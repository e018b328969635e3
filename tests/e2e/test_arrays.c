/*
 * Array-typed variables (`int a[5];` global, self-> and this->), stores
 * into bit-fields, and uregs[], through the kernel: exact values, and the
 * fault of an index computed past the end.
 */
#include "e2e.h"

E2E_TEST(arrays, array_variables_and_bitfield_stores)
{
	const char *obj = e2e_build_src("tst.array_vars");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0,
		   "q[2]=8\n"
		   "10 0 8 -1 30 p[4]=30\n"
		   "0 255 -25536 20\n"
		   "0 1099511627776\n"
		   "1 -2 ffffffffff\n"
		   "3 -2 5\n"
		   "fault 11 index 5, g[4] still 30\n\n");
	e2e_expect_err(&r,
		"dtrun: error in *tst.array_vars.d:50:1 for probe ID 1 (dtrace:::BEGIN): index out "
		"of bounds (5) at BPF pc *",
		NULL);
	run_result_free(&r);
}

E2E_TEST(arrays, uregs_reads_the_user_registers_at_a_syscall)
{
	/* at a syscall's entry x86_64 saves the call's number as orig_ax
	 * (R_ERR; getppid is 110) and -ENOSYS in ax until the call returns */
	const char *obj = e2e_build("uregs",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/\n"
		"{\n"
		"	printf(\"%d %d %d %d\\n\", uregs[R_ERR], (long)uregs[R_RAX],\n"
		"	       uregs[R_PC] != 0 && uregs[R_SP] != 0, uregs[R_EIP] == uregs[16]);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 2", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "110 -38 1 1\n110 -38 1 1\n\n");
	run_result_free(&r);
}

/* One clause of many associative-array and keyed-aggregation accesses:
 * their keys would pass the BPF stack's 512 bytes together, and go to
 * scratch memory once the clause's share of the stack is used. */
E2E_TEST(arrays, many_keyed_accesses_in_one_clause)
{
	char d[8192];
	int n = snprintf(d, sizeof(d), "#pragma D option quiet\nlong k[int, int];\nBEGIN\n{\n");
	for (int i = 0; i < 48; i++)
		n += snprintf(d + n, sizeof(d) - n,
			"	k[%d, %d] = %d * 3; total += k[%d, %d];\n"
			"	@n[%d %% 3, 1, 2, 3, 4, 5, 6, 7] = sum(%d);\n", i, i + 1, i, i, i + 1, i, i);
	snprintf(d + n, sizeof(d) - n,
		"	printf(\"%%d %%d\\n\", total, k[47, 48]);\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"%%d %%d %%@d\\n\", @n); }\n");
	const char *obj = e2e_build("many_keys", d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "3384 141\n0 1 360\n1 1 376\n2 1 392\n\n");
	run_result_free(&r);
}

/* A struct as an associative array's key is its members' values: two
 * variables holding the same values name the same element, a clause-local
 * copy does too, and storing 0 through one deletes it for the other. */
E2E_TEST(arrays, struct_keys_are_compared_by_value)
{
	const char *obj = e2e_build("struct_keys",
		"#pragma D option quiet\n"
		"struct pt { int x; char tag; };\n"
		"struct pt a, b, c;\n"
		"this struct pt t;\n"
		"BEGIN\n"
		"{\n"
		"	a.x = 3; a.tag = 'q';\n"
		"	b.x = 3; b.tag = 'q';\n"
		"	c.x = 4; c.tag = 'q';\n"
		"	m[a] = 10;\n"
		"	m[b] += 5;\n"
		"	m[c] = 7;\n"
		"	this->t = c;\n"
		"	n[this->t, \"s\"] = m[this->t] + 1;\n"
		"	printf(\"%d %d %d %d %d\\n\", m[a], m[b], m[c], n[c, \"s\"], n[a, \"s\"]);\n"
		"	m[a] = 0;\n"
		"	printf(\"%d %d\\n\", m[b], m[c]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "15 15 7 8 0\n0 7\n\n");
	run_result_free(&r);
}

/* Arrays of structs as global, clause-local and thread-local variables:
 * members stored, updated (compound, ++/--) and read in place, a whole
 * element stored from a struct, an element reached through a pointer,
 * sizeof, an untouched element reading zeros, and an index past the end
 * the out-of-bounds fault. */
E2E_TEST(arrays, arrays_of_structs)
{
	const char *obj = e2e_build("struct_arrays",
		"#pragma D option quiet\n"
		"struct slot { int n; short h; char c; };\n"
		"struct slot g[4];\n"
		"this struct slot t[2];\n"
		"self struct slot u[3];\n"
		"this struct slot one;\n"
		"BEGIN\n{\n"
		"	g[1].n = 40; g[1].n += 2; g[3].c = 'z'; g[2].h = -5; g[2].h--;\n"
		"	this->one.n = 17; this->one.h = 3; g[0] = this->one;\n"
		"	this->t[1].h = 600; ++this->t[1].h;\n"
		"	self->u[2].n = g[1].n * 2; self->u[0].c = g[3].c;\n"
		"	this->p = &g[1]; this->p[1].n = 9; this->p->h = 11;\n"
		"	printf(\"%d %d %c %d|%d %d|%d %d|%d %c|%d %d %d\\n\", g[1].n, g[1].h, g[3].c,\n"
		"	       g[2].h, g[0].n, g[0].h, this->t[1].h, this->t[0].n, self->u[2].n,\n"
		"	       self->u[0].c, g[2].n, this->p->n, sizeof(g));\n"
		"	i = 4;\n"
		"}\n"
		"BEGIN\n{\n"
		"	g[i].n = 1;\n"
		"}\n"
		"BEGIN\n{\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "42 11 z -6|17 3|601 0|84 z|9 42 32\n\n");
	e2e_expect_err(&r, "*error in *struct_arrays.d:19:1 *: index out of bounds (4)*", NULL);
	run_result_free(&r);
}
