/*
 * Inlines with parameters: "inline int minus[int a, int b] = a + b" is used as
 * minus[x, y] and expands to its body, each parameter replaced by its argument
 * converted to the parameter's type (so a uint8_t parameter wraps), the
 * arguments' own names left alone, and a translator usable in the body.
 */
#include "e2e/e2e.h"

E2E_TEST(inline, parameters_take_the_arguments_converted_to_their_types)
{
	const char *obj = e2e_build("inline_params",
		"#pragma D option quiet\n"
		"struct box { int v; };\n"
		"translator struct box < int T > { v = T * 10; };\n"
		"inline int minus[int a, int b] = a - b;\n"
		"inline uint8_t low[uint8_t v] = v;\n"
		"inline int boxed[int k] = (xlate < struct box > (k)).v;\n"
		"int a, b;\n"
		"BEGIN {\n"
		"	a = 5; b = 7;\n"
		"	printf(\"%d %d\\n\", minus[b, a], minus[a * 3, minus[9, b]]);\n"
		"	printf(\"%d %d\\n\", low[300], boxed[low[258]]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "2 13\n44 20\n\n");
	run_result_free(&r);
}

/* A struct variable takes a whole translated struct: every member the
 * translator defines, from the input, and zero in the others (here the
 * variables held other values before, so the zeros are written, not left).
 * Global, thread-local and clause-local struct variables alike. */
E2E_TEST(inline, struct_variable_takes_a_whole_translation)
{
	const char *obj = e2e_build("xlate_copy",
		"#pragma D option quiet\n"
		"struct src { int a; char c; };\n"
		"struct dst { int twice; int gap; char up; long tail; };\n"
		"translator struct dst < struct src s > { twice = s.a * 2; up = s.c - 32; };\n"
		"struct src in; struct dst g; self struct dst t; this struct dst l;\n"
		"BEGIN {\n"
		"	in.a = 21; in.c = 'q';\n"
		"	g.gap = 5; g.tail = 6; self->t.gap = 7; this->l.tail = 8;\n"
		"	g = xlate < struct dst > (in);\n"
		"	self->t = xlate < struct dst > (in);\n"
		"	this->l = xlate < struct dst > (in);\n"
		"	printf(\"%d %d %c %d\\n\", g.twice, g.gap, g.up, g.tail);\n"
		"	printf(\"%d %d %c\\n\", self->t.twice, self->t.gap, self->t.up);\n"
		"	printf(\"%d %d\\n\", this->l.twice, this->l.tail);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "42 0 Q 0\n42 0 Q\n42 0\n\n");
	run_result_free(&r);
}
