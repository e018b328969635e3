/*
 * trace() of a struct, a union or a non-char array writes its bytes as a
 * dump, as DTrace for Linux does, even when they would read as text (a
 * one-byte struct holding a digit). A char array is text when its bytes read
 * as a C string: printable up to the first NUL and nothing but NULs after
 * it, or printable throughout with no NUL at all; otherwise it is dumped too
 * (text after a NUL, an unprintable byte, a NUL first).
 */
#include <stdlib.h>

#include "e2e.h"

E2E_TEST(trace_bytes, structs_are_dumped_char_arrays_read_as_text)
{
	const char *obj = e2e_build("trace_bytes",
		"struct one { char c; } o;\n"
		"char name[6];\n"
		"char full[4];\n"
		"char gap[5];\n"
		"char bell[3];\n"
		"char none[2];\n"
		"short nums[2];\n"
		"BEGIN\n{\n"
		"	name[0] = 'd'; name[1] = 'c'; name[2] = 'c';\n"
		"	full[0] = 'w'; full[1] = 'x'; full[2] = 'y'; full[3] = 'z';\n"
		"	gap[0] = 'p'; gap[2] = 'q';\n"
		"	bell[0] = 'r'; bell[1] = 1;\n"
		"	nums[0] = 0x4142;\n"
		"	o.c = '7';\n"
		"	trace(name); trace(\"|\");\n"
		"	trace(full); trace(\"|\");\n"
		"	trace(gap);\n"
		"	trace(bell);\n"
		"	trace(none);\n"
		"	trace(nums);\n"
		"	trace(o);\n"
		"	trace(\"dcc\");\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "trace_bytes.structs_are_dumped_char_arrays_read_as_text");
	run_result_free(&r);
}

E2E_TEST(trace_bytes, char_array_text_is_padded_like_a_string)
{
	const char *obj = e2e_build("trace_bytes_pad",
		"char name[5];\n"
		"BEGIN\n{\n"
		"	name[0] = 'a'; name[1] = 'b';\n"
		"	trace(name);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	/* test mode: no CPU column, which depends on where BEGIN ran */
	setenv("_DTRACE_TESTING", "t", 1);
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	unsetenv("_DTRACE_TESTING");
	e2e_expect_out(&r, 0, "trace_bytes.char_array_text_is_padded_like_a_string");
	run_result_free(&r);
}
