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

/* String equality once became one branch a word of the buffers (32 at
 * strsize 256); with those results live across index()'s loop and a
 * modulo, the paths multiplied past the verifier's million instructions
 * (E2BIG, gen seed 16). The words' differences are now one OR, tested once. */
E2E_TEST(gen, string_equality_kept_across_a_search_stays_one_test)
{
	const char *obj = e2e_build("gen_streq_paths",
		"#pragma D option quiet\n"
		"int g;\n"
		"string s;\n"
		"self string t;\n"
		"int a[int];\n"
		"BEGIN\n"
		"{\n"
		"	g = 1;\n"
		"	s = \"ab\";\n"
		"	self->t = \"x\";\n"
		"}\n"
		"BEGIN\n"
		"{\n"
		"	a[1] = (self->t != substr(probefunc, 7)) %\n"
		"	    ((index(substr(\"abc\", g & 15), s) & 0xff) + 1);\n"
		"	a[2] = (self->t == \"x\") + (s == \"ab\") * 2 + (s != self->t) * 4;\n"
		"	printf(\"%d %d\\n\", a[1], a[2]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "1 7\n\n");
	run_result_free(&r);
}

/* index()'s copy of the searched string is zero-padded for the needle's
 * words; at strsize=1024 the padding was a memset that LLVM, finding the
 * copy written over its start, shortened and merged into one of more than
 * 1024 bytes, which the BPF backend refused as "a call to memset" (gen
 * seeds 245, 354, 397, 575). The zeros now come after the copy. */
E2E_TEST(gen, a_search_in_a_short_string_for_a_long_one_zeroes_in_pieces)
{
	const char *obj = e2e_build("gen_search_pad",
		"#pragma D option quiet\n"
		"#pragma D option strsize=1024\n"
		"self string t;\n"
		"BEGIN\n"
		"{\n"
		"	self->t = \"string\";\n"
		"	printf(\"%d %d\\n\", rindex(\"a longer string, a string\", self->t),\n"
		"	    index(\"abc\", self->t));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "19 -1\n\n");
	run_result_free(&r);
}

/* A thread-local string is copied into scratch or zeroed there (found or
 * not); LLVM forwarded the copy's words to a comparison through a phi a
 * word, all live across index()'s loop, and at strsize=512 their spills
 * passed the 512 bytes of stack. The comparison's loads are volatile. */
E2E_TEST(gen, comparing_a_thread_local_string_keeps_its_words_off_the_stack)
{
	const char *obj = e2e_build("gen_streq_stack",
		"#pragma D option quiet\n"
		"#pragma D option strsize=512\n"
		"string s;\n"
		"self string t;\n"
		"BEGIN\n"
		"{\n"
		"	s = \"abcabc\";\n"
		"	printf(\"%d %d\\n\", (self->t != s) + index(s, \"ca\"),\n"
		"	    (self->t == \"\") + rindex(s, \"bc\"));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	/* the unset self->t is NULL: unequal to s and to "" */
	e2e_expect(&r, 0, "3 4\n\n");
	run_result_free(&r);
}

/* A thread-local string is copied to scratch, then into the key; LLVM made
 * that one copy from the map value, a memmove because it cannot tell two
 * map values apart, and the backend moved its 512 bytes through the stack
 * (gen seeds 260 and 365). Large copies are volatile now. */
E2E_TEST(gen, a_copy_of_a_copy_stays_two_copies)
{
	const char *obj = e2e_build("gen_copy_copy",
		"#pragma D option quiet\n"
		"#pragma D option strsize=512\n"
		"self string t;\n"
		"int a[string];\n"
		"BEGIN\n"
		"{\n"
		"	self->t = \"ab\";\n"
		"	a[self->t] = strlen(strjoin(self->t, \"cde\"));\n"
		"	printf(\"%d\\n\", a[\"ab\"]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "5\n\n");
	run_result_free(&r);
}

/* arg0 read on both sides of a branch: the backend kept ctx+16 in a
 * register for the second load, `r7 = *(u64 *)(r7 + 0)`, a moved context
 * pointer the verifier refuses (gen seed 232, EACCES). Context loads now
 * keep their offset from ctx (llvm.preserve.static.offset). */
E2E_TEST(gen, an_argument_read_twice_across_a_branch_loads_from_ctx_each_time)
{
	const char *obj = e2e_build("gen_ctx_offset",
		"#pragma D option quiet\n"
		"string s;\n"
		"syscall::getppid:return\n"
		"{\n"
		"	printf(\"%d\\n\", (-arg0 ? arg0 : strlen(strjoin(s, execname))) == ppid);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 1", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "1\n\n");
	run_result_free(&r);
}
