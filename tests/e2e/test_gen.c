/*
 * Programs the whole-compiler fuzzer (tests/gen) found the verifier refusing,
 * cut down to the expression that was compiled wrong.
 */
#include "e2e/e2e.h"

/* `c ? arg0 : self->t` once became one load through a pointer chosen between
 * the context (ctx+16) and the thread-local's map value: the verifier refuses
 * a load through a modified context pointer (EACCES). */
E2E_TEST(gen, a_conditional_between_an_argument_and_a_variable_loads_each_apart)
{
	const char *obj = e2e_build("gen_ctx_select",
		"#pragma D option quiet\n"
		"int k;\n"
		"self int t;\n"
		"syscall::getppid:return\n"
		"{\n"
		"	self->t = 7;\n"
		"	printf(\"%d %d\\n\", (k ? arg0 : self->t) == ppid, k ? self->t : arg0 == ppid);\n"
		"	k++;\n"
		"}\n"
		"syscall::getppid:return\n"
		"/k == 2/\n"
		"{\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 5", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "0 1\n1 7\n\n");
	run_result_free(&r);
}

/* With strsize=1024 an aggregation's key and value and a string next to them
 * once made one memset of over 1024 bytes, more than the BPF backend expands
 * into stores: the clause was refused as "a call to memset". */
E2E_TEST(gen, zeroing_more_than_1024_bytes_goes_in_pieces)
{
	const char *obj = e2e_build("gen_big_memset",
		"#pragma D option quiet\n"
		"#pragma D option strsize=1024\n"
		"string s;\n"
		"BEGIN\n"
		"{\n"
		"	s = \"abc\";\n"
		"	@n[s != \"\"] = sum(rindex(\"abcabc\", s));\n"
		"	printa(\"%d %@d\\n\", @n);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "1 3\n\n");
	run_result_free(&r);
}
