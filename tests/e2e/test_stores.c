/*
 * Stores through pointers into alloca() memory on the kernel: *p, p->m,
 * p[i] and compound assignments, read back through the same pointers and
 * through a copy of the pointer in another variable; and the faults of a
 * store or a load outside what the clause allocated, or of a pointer kept
 * from an earlier clause.
 */
#include "e2e.h"

E2E_TEST(stores, written_through_pointers_and_read_back)
{
	const char *obj = e2e_build("stores",
		"struct pair { short lo; char tag; long hi; };\n"
		"int *v;\n"
		"BEGIN\n{\n"
		"	v = alloca(4 * sizeof(int));\n"
		"	v[0] = 10; v[3] = -7; v[1] = v[0] * 3; v[1] += 2; v[2] <<= 1;\n"
		"	this->s = (char *)alloca(6);\n"
		"	*this->s = 'd'; this->s[1] = 'c'; this->s[2] = 'c';\n"
		"	self->p = (struct pair *)alloca(sizeof(struct pair));\n"
		"	self->p->lo = -300; self->p->tag = 'x'; self->p->hi = 0x123456789;\n"
		"	this->q = self->p;\n"
		"	(*this->q).hi |= 0x10;\n"
		"	w = v + 3;\n"
		"	*w *= 5;\n"
		"	printf(\"%d %d %d %d|%s|%d %c %x\\n\", v[0], v[1], v[2], v[3],\n"
		"	       stringof(this->s), self->p->lo, self->p->tag, this->q->hi);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "stores.written_through_pointers_and_read_back");
	run_result_free(&r);
}

E2E_TEST(stores, outside_the_allocation_is_a_fault)
{
	const char *obj = e2e_build("store_faults",
		"BEGIN\n{\n"
		"	s = (char *)alloca(15);\n"
		"	s[16] = 1;\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	this->i = (int *)alloca(8);\n"
		"	trace(this->i[-1]);\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	trace(*s);\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	this->d = (char *)alloca(20);\n"
		"	this->c = (char *)alloca(10);\n"
		"	bcopy(this->c, this->d, 20);\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	this->k = (long *)alloca(8);\n"
		"	this->k[0] = 5;\n"
		"	printf(\"in bounds %d\\n\", this->k[0]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "stores.outside_the_allocation_is_a_fault");
	e2e_expect_err(&r, "*error in *store_faults.d:1:1 *: invalid address (0xffff*)*",
		       "*error in *store_faults.d:7:1 *: invalid address (0xffff*)*",
		       "*error in *store_faults.d:13:1 *: invalid address (0xffff*)*",
		       "*error in *store_faults.d:18:1 *: invalid size (0x14)*", NULL);
	run_result_free(&r);
}

/* An array member of a struct that a pointer variable reaches (g->a[i]):
 * memory the pointer designates, stored through the checked path, not an
 * array variable's own storage. */
E2E_TEST(stores, array_members_through_a_pointer)
{
	const char *obj = e2e_build("store_members",
		"struct rec { int n; char tag[4]; short v[3]; };\n"
		"struct rec *g;\n"
		"BEGIN\n{\n"
		"	g = alloca(sizeof(struct rec));\n"
		"	g->tag[0] = 'p'; g->tag[1] = 'q';\n"
		"	g->v[2] = -9; g->v[0] = 4; g->v[0] *= 3;\n"
		"	this->r = g;\n"
		"	this->r->tag[2] = 'r';\n"
		"	printf(\"%c%c%c %d %d %d\\n\", g->tag[0], g->tag[1], this->r->tag[2],\n"
		"	       g->v[0], g->v[1], this->r->v[2]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "pqr 12 0 -9\n\n"); /* and the blank line at exit */
	run_result_free(&r);
}

/* A struct or union kept in an associative array or a thread-local, and
 * deleted by storing 0: 100 elements go in and out of an array with room
 * for 64 and nothing is dropped; a deleted one reads as zeros. */
E2E_TEST(stores, zero_deletes_struct_elements_and_thread_locals)
{
	/* ten clauses of ten: one would pass the BPF stack with its keys */
	char churn[100 * 64] = "";
	for (int k = 0; k < 100; k++)
		snprintf(churn + strlen(churn), sizeof(churn) - strlen(churn),
			 "%sthis->v.n = %d; t[%d] = this->v; t[%d] = 0;\n%s",
			 k % 10 ? "" : "BEGIN {\n", k, k, k, k % 10 == 9 ? "}\n" : "");
	const char *obj = e2e_build("stores_zero", e2e_fmt(
		"#pragma D option quiet\n"
		"#pragma D option dynvarsize=64\n"
		"this struct { int n; long m; } v;\n"
		"this union { int n; char c; } u;\n"
		"%sBEGIN\n{\n"
		"	this->v.n = 7; this->v.m = -2; t[200] = this->v;\n"
		"	this->u.n = 65; self->u = this->u; self->w = this->u;\n"
		"	self->u = 0;\n"
		"	printf(\"%%d %%d %%d %%d %%c %%d\\n\", t[200].n, t[200].m, t[5].n,\n"
		"	       self->u.n, self->w.c, self->w.n);\n"
		"	exit(0);\n"
		"}\n", churn));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "7 -2 0 0 A 65\n\n");
	e2e_expect_err(&r, NULL);
	run_result_free(&r);
}

/* A whole struct stored into a struct member of a global or clause-local
 * struct variable, from another variable's member, a thread-local and an
 * associative array element. */
E2E_TEST(stores, whole_struct_into_a_member)
{
	const char *obj = e2e_build("stores_member",
		"#pragma D option quiet\n"
		"struct pt { int x, y; };\n"
		"struct seg { struct pt from; struct pt to; };\n"
		"struct seg S;\n"
		"this struct seg t;\n"
		"this struct pt p;\n"
		"BEGIN\n{\n"
		"	this->p.x = 3; this->p.y = 4;\n"
		"	S.to = this->p;\n"
		"	this->t.from = S.to;\n"
		"	this->t.from.y++;\n"
		"	self->q = this->p; self->q.x = -1;\n"
		"	S.from = self->q;\n"
		"	k[\"a\"] = this->p; k[\"a\"].y = 9;\n"
		"	this->t.to = k[\"a\"];\n"
		"	printf(\"%d %d %d %d | %d %d %d %d\\n\", S.from.x, S.from.y, S.to.x, S.to.y,\n"
		"	       this->t.from.x, this->t.from.y, this->t.to.x, this->t.to.y);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "-1 4 3 4 | 3 5 3 9\n\n");
	run_result_free(&r);
}

/* A string member of a D struct holds strsize bytes in place: set from a
 * literal or a subroutine's result (cut to strsize characters, all kept:
 * DTrace's char[strsize] stores no NUL), read back, compared,
 * used as a key, copied with its struct, read (empty) through a pointer
 * to alloca() memory, and printed by print(); a struct of strings alone is complete. */
E2E_TEST(stores, string_members_of_d_structs)
{
	const char *obj = e2e_build("stores_strmember",
		"#pragma D option quiet\n"
		"#pragma D option strsize=16\n"
		"struct rec { int n; string name; char c; string tag; };\n"
		"struct { string a; string b; } pairs[int];\n"
		"struct rec g, h;\n"
		"self struct rec t;\n"
		"BEGIN\n{\n"
		"	g.n = 7; g.name = \"alpha\"; g.c = 'z'; g.tag = strjoin(\"x\", \"y\");\n"
		"	self->t.name = \"thread\"; pairs[1].a = \"one\"; pairs[1].b = g.tag;\n"
		"	h = g; h.name = \"0123456789abcdefXYZ\";\n"
		"	p = (struct rec *)alloca(sizeof(struct rec)); p->n = 5;\n"
		"	printf(\"%d %s %c %s|%s|%s %s|%s|%s|%s\\n\", g.n, g.name, g.c, g.tag,\n"
		"	       self->t.name, pairs[1].a, pairs[1].b, pairs[2].a, h.name, p->name);\n"
		"	printf(\"%d %d %d %d\\n\", g.name == \"alpha\", h.tag == g.tag,\n"
		"	       strlen(h.name), sizeof(struct rec));\n"
		"	@[pairs[1].a] = count();\n"
		"	print(g);\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"%s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.out, "7 alpha z xy|thread|one xy||0123456789abcdef|\n"
				"1 1 16 40\n"), "%s", r.out);
	cr_assert(strstr(r.out, ".name = (string)\"alpha\",\n"), "%s", r.out);
	cr_assert(strstr(r.out, ".tag = (string)\"xy\",\n"), "%s", r.out);
	cr_assert(strstr(r.out, "one 1\n"), "%s", r.out);
	run_result_free(&r);
}

/* An array variable assigned to a pointer variable is its address, as in
 * C: the pointer reads the array's elements (it took the first element's
 * value before). */
E2E_TEST(stores, array_assigned_to_a_pointer_is_its_address)
{
	const char *obj = e2e_build("stores_arrptr",
		"#pragma D option quiet\n"
		"int a[3];\n"
		"int *p;\n"
		"BEGIN { a[0] = 200; a[2] = 7; p = a; printf(\"%d %d %d\\n\", *p, p[2], p == &a[0]);"
		" exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "200 7 1\n\n");
	run_result_free(&r);
}

/* A string assigned to a char pointer variable is the address of its bytes
 * (DTrace takes the two for each other): the pointer indexes them and
 * stringof() reads them back, whether they are a builtin's, a subroutine's
 * result, a literal or another variable's. */
E2E_TEST(stores, string_assigned_to_a_char_pointer_is_its_address)
{
	const char *obj = e2e_build("stores_strptr",
		"#pragma D option quiet\n"
		"char *s;\n"
		"this char *t;\n"
		"self const char *u;\n"
		"string g;\n"
		"BEGIN {\n"
		"	s = probeprov; this->t = strjoin(\"ab\", \"cd\"); self->u = \"lit\";\n"
		"	printf(\"%c %c %c|%s|%s|%s\\n\", s[0], this->t[2], self->u[1], stringof(s),\n"
		"	       stringof(this->t), stringof(self->u));\n"
		"	g = \"kept\"; s = g;\n"
		"	printf(\"%s %d %d\\n\", stringof(s), s[3], s[4]);\n"
		"	exit(s[0] == 'k' ? 0 : 1);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "d c i|dtrace|abcd|lit\nkept 116 0\n\n");
	run_result_free(&r);
}

/* Stores through pointers into D's global arrays and structs (their .bss
 * storage): by index, by dereference of an offset pointer, compound
 * stores, a struct variable's members by their addresses, a pointer copied into
 * another variable; read back both ways. An address in no global and no
 * allocation is still the invalid address fault. */
E2E_TEST(stores, into_global_arrays_and_structs)
{
	const char *obj = e2e_build("stores_globals",
		"#pragma D option quiet\n"
		"struct cell { char c; long v; };\n"
		"int nums[4];\n"
		"struct cell box;\n"
		"short halves[3];\n"
		"int *ip;\n"
		"BEGIN\n{\n"
		"	ip = nums;\n"
		"	ip[0] = 400; *(ip + 1) = -3; ip[3] = 7; ip[3] *= 6;\n"
		"	q = &nums[2];\n"
		"	*q = ip[0] + ip[1];\n"
		"	this->v = &box.v;\n"
		"	*this->v = 0x1234567890; *(char *)&box.c = 'k';\n"
		"	this->h = (short *)halves;\n"
		"	this->h[2] = -2; this->h[1] = 300; this->h[1] += 1;\n"
		"	printf(\"%d %d %d %d|%d %d|%c %x|%d %d %d\\n\", nums[0], nums[1], nums[2],\n"
		"	       nums[3], ip[2], *(q - 2), box.c, box.v, halves[0], halves[1],\n"
		"	       this->h[2]);\n"
		"}\n"
		"BEGIN\n{\n"
		"	ip[-4096] = 1;\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "400 -3 397 42|397 400|k 1234567890|0 301 -2\n\n");
	e2e_expect_err(&r, "*error in *stores_globals.d:21:1 *: invalid address (0xffff*)*", NULL);
	run_result_free(&r);
}

/* ++ and -- through a pointer: into a global array, into alloca() memory,
 * the old value from x++ even where the step wraps; and &a[N], C's
 * one-past-the-end address */
E2E_TEST(stores, steps_through_pointers)
{
	const char *obj = e2e_build("stores_steps",
		"#pragma D option quiet\n"
		"int a[4];\n"
		"int *p;\n"
		"BEGIN\n{\n"
		"	p = a;\n"
		"	p[1]++; ++p[2]; p[2]++; (*p)--;\n"
		"	x = p[3]++; y = ++p[3];\n"
		"	this->c = (char *)alloca(2);\n"
		"	this->c[0] = 127; this->c[1] = -128;\n"
		"	old = this->c[0]++; older = (*(this->c + 1))--;\n"
		"	printf(\"%d %d %d %d|%d %d|%d %d %d %d|%d\\n\", a[0], a[1], a[2], a[3],\n"
		"	       x, y, this->c[0], this->c[1], old, older,\n"
		"	       (int)&a[4] - (int)&a[1]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "-1 1 2 2|0 2|-128 127 127 -128|12\n\n");
	run_result_free(&r);
}
