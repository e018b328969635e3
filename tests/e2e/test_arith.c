/*
 * D's integer arithmetic as DTrace computes it: the operand of higher rank
 * (width, then unsignedness) types the result, with no promotion to int
 * first, and the result wraps at that type's width. So two unsigned chars
 * add up modulo 256, an unsigned short and a signed char modulo 65536,
 * while an int constant makes the sum an int; and a shift takes the wider
 * type of its two operands, so int << int64_t shifts in 64 bits.
 */
#include "e2e/e2e.h"

E2E_TEST(arith, the_higher_ranked_operand_types_and_wraps_the_result)
{
	const char *obj = e2e_build("arith_rank",
		"#pragma D option quiet\n"
		"self unsigned char uc; self signed char sc; self unsigned short us;\n"
		"int64_t sh;\n"
		"BEGIN {\n"
		"	self->uc = 254; self->sc = 3; self->us = 65534; sh = 40;\n"
		"	printf(\"%d %d %d\\n\", self->uc + self->sc, self->uc + 3, self->uc * self->uc);\n"
		"	printf(\"%d %d\\n\", self->us + self->sc, self->us + self->uc);\n"
		"	self->sc = -3;\n"
		"	printf(\"%d %d\\n\", self->uc + self->sc, self->sc + self->sc);\n"
		"	printf(\"%d %d\\n\", 1 << sh, (1 << sh) >> 39);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	/* 257 -> 1; 254*254 = 64516 -> 4; 65537 -> 1; 65788 -> 252; 251; -6 */
	e2e_expect(&r, 0, "1 257 4\n1 252\n251 -6\n1099511627776 2\n\n");
	run_result_free(&r);
}

/* A character constant of several bytes packs them big-endian, as DTrace and
 * GCC do, and its type follows its value like a hex constant's: four bytes
 * with the top bit set are an unsigned int, eight bytes a long. */
E2E_TEST(arith, multi_character_constants_are_packed_integers)
{
	const char *obj = e2e_build("arith_chars",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	printf(\"%d %x %d\\n\", 'AB', '\\t\\x41z', '\\377');\n"
		"	printf(\"%d %d\\n\", sizeof('\\377abc'), sizeof('abcde'));\n"
		"	printf(\"%u %d %c\\n\", '\\377abc', 'hgfedcba', 'xyz');\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "16706 9417a 255\n4 8\n4284572259 7523094288207667809 z\n\n");
	run_result_free(&r);
}

/* x op= e reads x before it evaluates e, as DTrace does (C leaves the order
 * open): with side effects in e, the old x is the left operand. Each kind of
 * variable and each in-place store follows the same order. */
E2E_TEST(arith, compound_assignment_reads_its_target_before_the_right_side)
{
	const char *obj = e2e_build("arith_op_assign_order",
		"#pragma D option quiet\n"
		"struct pair { int lo; int hi; } g;\n"
		"BEGIN {\n"
		"	n = 7;\n"
		"	n += n++ * 2;\n"        /* 7 + 14, not 8 + 14 */
		"	m = 10;\n"
		"	m -= --m;\n"            /* 10 - 9 */
		"	this->t = 3; this->t *= ++this->t;\n" /* 3 * 4 */
		"	self->s = 5; self->s += self->s++;\n" /* 5 + 5 */
		"	a[\"k\"] = 6; a[\"k\"] <<= a[\"k\"]++ - 4;\n" /* 6 << 2 */
		"	g.hi = 2; g.hi += (g.hi = 40);\n" /* 2 + 40 */
		"	p = (int *)alloca(sizeof (int)); *p = 1; *p += (*p = 100);\n"
		"	printf(\"%d %d %d %d %d %d %d\\n\", n, m, this->t, self->s, a[\"k\"], g.hi, *p);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "21 1 12 10 24 42 101\n\n");
	run_result_free(&r);
}
