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
