/*
 * The string subroutines on the kernel: every one of them with DTrace's
 * edge cases in BEGIN (tst.strings_begin), then on a path the open_paged
 * trigger passes to openat(2), copied in with copyinstr() and cut, searched
 * and converted in four clauses (tst.strings_openat); strjoin() past strsize, cut
 * there, and the fault DTrace raises for a base out of 2..36.
 */
#include "e2e.h"

#define PATH "no/such//dir/File.Name-42.txt/"

E2E_TEST(strings, every_function_and_its_edge_cases_in_begin)
{
	const char *obj = e2e_build_src("tst.strings_begin");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect_script_out(&r, 0, "tst.strings_begin");
	run_result_free(&r);
}

E2E_TEST(strings, a_path_from_openat_cut_searched_and_converted)
{
	const char *obj = e2e_build_src("tst.strings_openat");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 1 %s", e2e_trigger("open_paged"), PATH), obj,
		NULL);
	e2e_expect_out(&r, 0, "strings.a_path_from_openat_cut_searched_and_converted");
	run_result_free(&r);
}

E2E_TEST(strings, strjoin_past_strsize_is_cut_and_a_bad_base_is_an_error)
{
	const char *obj = e2e_build("strings_faults",
		"#pragma D option quiet\n"
		"#pragma D option strsize=10\n"
		"BEGIN { printf(\"[%s]\\n\", strjoin(\"0123456\", \"789\")); }\n"
		"BEGIN { printf(\"[%s]\\n\", strjoin(\"0123456789\", \"abcdef\")); }\n"
		"BEGIN { trace(lltostr(1, 37)); }\n"
		"BEGIN { trace(strtoll(\"1\", 1)); }\n"
		"BEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	/* DTrace for Linux cuts the joined string at strsize characters */
	cr_assert_str_eq(r.out, "[0123456789]\n[0123456789]\n\n");
	cr_assert_null(strstr(r.err, "scratch"), "%s", r.err);
	cr_assert(strstr(r.err, ":5:1 for probe ID 1 (dtrace:::BEGIN): illegal operation"), "%s",
		  r.err);
	cr_assert(strstr(r.err, ":6:1 for probe ID 1 (dtrace:::BEGIN): illegal operation"), "%s",
		  r.err);
	run_result_free(&r);
}

/* A string keeps strsize characters however it was made: a literal longer
 * than that is cut where it is written, so strlen() and substr() see what
 * printf() prints, as do a variable it was stored in and strjoin()'s result. */
E2E_TEST(strings, literals_keep_strsize_characters_like_every_string)
{
	const char *obj = e2e_build("strings_litcut",
		"#pragma D option quiet\n"
		"#pragma D option strsize=10\n"
		"BEGIN {\n"
		"	x = \"abcdefghijklmnopqrstuvwxyz\";\n"
		"	this->y = \"ABCDEFGHIJKLMNOP\";\n"
		"	printf(\"%d %d %d %d\\n\", strlen(\"abcdefghijklmnopqrstuvwxyz\"), strlen(x),\n"
		"	       strlen(this->y), strlen(strjoin(x, this->y)));\n"
		"	printf(\"%s|%s|%s|%s\\n\", x, this->y, substr(\"abcdefghijklmnop\", 7),\n"
		"	       strjoin(\"abcdef\", this->y));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "10 10 10 10\nabcdefghij|ABCDEFGHIJ|hij|abcdefABCD\n\n");
	run_result_free(&r);
}

/* s[i] reads a byte of a string (0 past its buffer), a pointer cast to
 * string reads the kernel string there, copyinstr(a, n) keeps n bytes with
 * the NUL and (string)copyin(a, n) the n bytes copied. */
E2E_TEST(strings, indexed_cast_from_pointers_and_sized_copies)
{
	const char *obj = e2e_build("strings_index",
		"#pragma D option quiet\n"
		"syscall::openat:entry\n/pid == $target && arg3 == 0421/\n{\n"
		"	this->s = \"ABCDEFG\";\n"
		"	g = \"xyz\";\n"
		"	self->t = copyinstr(arg1, 8);\n"
		"	printf(\"%d %d %c %d %d\\n\", this->s[1], g[2], self->t[3], g[3], g[9999]);\n"
		"	printf(\"[%s] [%s] %d\\n\", self->t, (string)copyin(arg1, 5),\n"
		"	       (string)(uintptr_t)&curthread->comm == execname);\n"
		"	printf(\"%c%c\\n\", (s = copyinstr(arg1))[0], s[strlen(s) - 1]);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 1 %s", e2e_trigger("open_paged"), PATH), obj,
		NULL);
	e2e_expect_out(&r, 0, "strings.indexed_cast_from_pointers_and_sized_copies");
	run_result_free(&r);
}

/* rawbytes dumps a traced string's storage, strsize bytes and a NUL; a
 * strsize that isn't a multiple of 8 still caps strjoin()'s result. */
E2E_TEST(strings, rawbytes_dumps_strsize_and_a_nul)
{
	const char *obj = e2e_build("strings_rawbytes",
		"#pragma D option quiet\n"
		"#pragma D option rawbytes\n"
		"#pragma D option strsize=10\n"
		"BEGIN { trace(strjoin(\"abcdef\", \"ghijkl\")); trace(substr(\"xyz\", 1)); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect_out(&r, 0, "strings.rawbytes_dumps_strsize_and_a_nul");
	run_result_free(&r);
}

/* DTrace for Linux keeps strsize characters whatever strsize is (its
 * string is recorded as strsize + 1 bytes, the NUL after them), and
 * sizeof(string) and a D struct's string member are strsize bytes, its
 * char[strsize]: with strsize=16 a literal, a join, a copy in a variable,
 * an aggregation key and a char * made a string keep 16 characters, and
 * rawbytes shows 17. */
E2E_TEST(strings, a_strsize_multiple_of_8_keeps_that_many_characters)
{
	const char *obj = e2e_build("strings_keep16",
		"#pragma D option quiet\n"
		"#pragma D option strsize=16\n"
		"struct rec { string name; int after; };\n"
		"struct rec r;\n"
		"self string t;\n"
		"BEGIN {\n"
		"	self->t = strjoin(\"0123456789\", \"abcdefghij\");\n"
		"	g = \"ABCDEFGHIJKLMNOPQRS\";\n"
		"	printf(\"%s|%s|%d|%d|%d|%d\\n\", self->t, g, strlen(self->t), strlen(g),\n"
		"	       sizeof(string), offsetof(struct rec, after));\n"
		"	@[g] = count();\n"
		"	printa(\"%s %@d\\n\", @);\n"
		"	setopt(\"rawbytes\");\n"
		"}\n"
		"BEGIN { this->p = (char *)alloca(20); bcopy(\"ABCDEFGHIJKLMNOPQRS\", this->p, 20);\n"
		"	printf(\"%d|\", strlen(stringof(this->p))); }\n"
		"BEGIN { trace(g); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0,
		   "0123456789abcdef|ABCDEFGHIJKLMNOP|16|16|16|16\n"
		   "ABCDEFGHIJKLMNOP 1\n"
		   "16|\n"
		   "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
		   "         0: 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP\n"
		   "        10: 00                                               .\n"
		   "\n");
	run_result_free(&r);
}

/* <, <=, >, >= order strings by their bytes, unsigned, up to the first
 * NUL; many comparisons of long strings that share a long prefix, in one
 * clause, still load (each was a walk over every byte before). */
E2E_TEST(strings, ordering_of_long_strings_with_long_common_prefixes)
{
	char d[4096];
	int n = snprintf(d, sizeof(d),
		"#pragma D option quiet\n"
		"BEGIN\n{\n"
		"	p = \"%s\";\n"
		"	a = strjoin(p, \"alpha\"); b = strjoin(p, \"alphabet\");\n"
		"	c = strjoin(p, \"beta\"); e = \"\"; h = \"\\xe9t\\xe9\";\n"
		"	printf(\"%%d%%d%%d%%d%%d%%d%%d%%d\\n\", a < b, b < a, a < b, b < a, a < b,\n"
		"	       b < a, a <= b, b <= a);\n"
		"	printf(\"", "0123456789abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
	const char *cmp[] = { "a < b", "a <= b", "a > b", "a >= b", "b < a", "b > a",
			      "a < c", "c < b", "c >= c", "c > c", "a <= a", "e < a",
			      "a < e", "e <= e", "h > a", "\"z\" > h", "p < a", "a < p" };
	int k = (int)(sizeof(cmp) / sizeof(cmp[0]));
	for (int i = 0; i < k; i++)
		n += snprintf(d + n, sizeof(d) - n, "%%d");
	n += snprintf(d + n, sizeof(d) - n, "\\n\"");
	for (int i = 0; i < k; i++)
		n += snprintf(d + n, sizeof(d) - n, ",\n	    %s", cmp[i]);
	snprintf(d + n, sizeof(d) - n, ");\n	exit(0);\n}\n");
	const char *obj = e2e_build("str_order", d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "10101010\n110001101011011010\n\n");
	run_result_free(&r);
}

/* NULL where a string goes: assigned, compared (it equals only itself and
 * sorts before ""), kept by variables of each kind, the result of a search
 * that finds nothing; a subroutine given it faults, strtok() goes on with
 * it, and strtok(NULL, ...) with nothing to go on from faults. */
E2E_TEST(strings, null_strings_compare_store_and_fault)
{
	const char *obj = e2e_build("strings_null",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	g = \"set\"; g = NULL; empty = \"\";\n"
		"	this->c = strchr(\"hello\", 'z'); self->t = strstr(\"hello\", \"xyz\");\n"
		"	arm = 1 ? NULL : \"arm\";\n"
		"	printf(\"%d %d %d %d %d\\n\", g == NULL, this->c == g, self->t == 0,\n"
		"	       empty == NULL, arm == g);\n"
		"	printf(\"%d %d %d %d %d\\n\", g < empty, empty > g, g <= g, \"a\" > NULL,\n"
		"	       NULL < g);\n"
		"	printf(\"[%s] [%s]\\n\", strrchr(\"hello\", 'l'), strstr(\"hello\", \"ll\"));\n"
		"}\n"
		"BEGIN { trace(strlen(g)); }\n"
		"BEGIN { trace(strtok(NULL, \",\")); }\n"
		"BEGIN { trace(strtok(\"a,b\", NULL)); }\n"
		"BEGIN { trace(strjoin(\"a\", this->c)); }\n"
		"BEGIN { printf(\"%s %s\\n\", strtok(\"a,b\", \",\"), strtok(self->t, \",\")); }\n"
		"BEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	e2e_assert_file("stdout", r.out, "strings.null_strings_compare_store_and_fault");
	for (int line = 12; line <= 15; line++)
		cr_assert(strstr(r.err, e2e_fmt("strings_null.d:%d:1 for probe ID 1 (dtrace:::BEGIN): "
						"invalid address (0x0)", line)), "%s", r.err);
	run_result_free(&r);
}

/* A string is at most strsize characters wherever it is printed, though
 * its storage is rounded up to 8 bytes: a literal, the probe's provider
 * name and a key, by printf(), trace() (and its raw bytes) and printa(). */
E2E_TEST(strings, printed_strings_stop_at_strsize_characters)
{
	const char *obj = e2e_build("strings_cut",
		"#pragma D option quiet\n"
		"#pragma D option strsize=5\n"
		"BEGIN {\n"
		"	printf(\"%s|%s|\", \"abcdefgh\", probeprov);\n"
		"	trace(\"ABCDEFG\"); trace(\"|\");\n"
		"	@[\"xyzwvut\"] = count();\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"%s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "abcde|dtrac|ABCDE|xyzwv 1\n\n");
	run_result_free(&r);
}

/* strtok() leaves the delimiter that ends a token for the next call to
 * skip (with that call's delimiters), and a call that finds no token
 * gives NULL, not "": compared with NULL it is equal, and trace() of it
 * reads address 0, an invalid address. */
E2E_TEST(strings, strtok_with_no_token_left_is_null)
{
	const char *obj = e2e_build("strings_tok_null",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	printf(\"[%s]\", strtok(\"ab:cd\", \":\"));\n"
		"	printf(\"[%s]\", strtok(NULL, \"x\"));\n"
		"	printf(\"%d %d %d\\n\", strtok(NULL, \":\") == NULL,\n"
		"	       strtok(\":::\", \":\") == NULL, strtok(\"q\", \":\") == NULL);\n"
		"}\n"
		"BEGIN { trace(strtok(NULL, \":\")); printf(\"not reached\\n\"); }\n"
		"BEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "[ab][:cd]1 1 0\n\n");
	cr_assert(strstr(r.err, "strings_tok_null.d:8:1 for probe ID 1 (dtrace:::BEGIN): invalid "
				"address (0x0)"), "%s", r.err);
	run_result_free(&r);
}

/* A string thread-local or array element that was never stored (or was
 * stored 0) is D's NULL string, a null pointer in DTrace for Linux: it
 * equals NULL and not "", a copy of it is NULL too, and whatever reads its
 * characters -- trace(), printf("%s"), strlen() -- faults on address 0. */
E2E_TEST(strings, unset_dynamic_strings_are_null)
{
	const char *obj = e2e_build("strings_unset",
		"#pragma D option quiet\n"
		"self string ts;\n"
		"string as[int];\n"
		"string g;\n"
		"BEGIN {\n"
		"	printf(\"%d %d %d %d %d\\n\", self->ts == NULL, as[1] == NULL, self->ts == \"\",\n"
		"	       as[2] != NULL, self->ts < \"\");\n"
		"	g = self->ts; self->ts = \"set\"; as[6] = \"six\"; as[6] = 0;\n"
		"	printf(\"%d %d %d %d\\n\", g == NULL, self->ts == NULL, as[6] == NULL, g == as[7]);\n"
		"}\n"
		"BEGIN { trace(as[4]); }\n"
		"BEGIN { printf(\"[%s]\\n\", as[3]); }\n"
		"BEGIN { trace(strlen(as[5])); }\n"
		"BEGIN { printf(\"%s|\\n\", g); }\n"
		"BEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "1 1 0 0 1\n1 0 1 1\n\n");
	for (int line = 11; line <= 14; line++)
		cr_assert(strstr(r.err, e2e_fmt("strings_unset.d:%d:1 for probe ID 1 "
						"(dtrace:::BEGIN): invalid address (0x0)", line)),
			  "line %d: %s", line, r.err);
	run_result_free(&r);
}

/* D's NULL string as an aggregation key or an array index faults on
 * address 0 (DTrace reads each string of a key tuple through its
 * pointer) whether the element is stored, read or the key counted; the
 * key is not made, and a key that is "" is not NULL. */
E2E_TEST(strings, null_string_keys_fault)
{
	const char *obj = e2e_build("strings_nullkey",
		"#pragma D option quiet\n"
		"self string unset;\n"
		"BEGIN { @c[self->unset] = count(); printf(\"not reached 1\\n\"); }\n"
		"BEGIN { arr[self->unset, 1] = 5; printf(\"not reached 2\\n\"); }\n"
		"BEGIN { trace(arr[\"k\", 2]); trace(arr[self->unset, 2]); }\n"
		"BEGIN { @c[\"\"] = count(); arr[\"\", 3] = 4;\n"
		"	printf(\"%d\\n\", arr[\"\", 3]); exit(0); }\n"
		"END { printa(\"[%s] %@d\\n\", @c); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "4\n[] 1\n\n");
	for (int line = 3; line <= 5; line++)
		cr_assert(strstr(r.err, e2e_fmt("strings_nullkey.d:%d:1 for probe ID 1 "
						"(dtrace:::BEGIN): invalid address (0x0)", line)),
			  "line %d: %s", line, r.err);
	run_result_free(&r);
}

/* stringof() of an integer reads the string at that address, as of a
 * pointer; address 0 (stringof(NULL), a null pointer) is D's NULL string,
 * which recording faults on, and another unreadable address reads "". */
E2E_TEST(strings, stringof_an_address)
{
	const char *obj = e2e_build("strings_stringof_addr",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	this->at = (long)(char *)curthread->comm;\n"
		"	printf(\"[%s] [%s] %d %d\\n\", stringof(this->at), stringof(12),\n"
		"	       stringof(NULL) == NULL, stringof(this->at - this->at) == NULL);\n"
		"	s = stringof((char *)0);\n"
		"	printf(\"%d %d\\n\", s == NULL, stringof(12) == \"\");\n"
		"}\n"
		"BEGIN { trace(stringof(NULL)); }\n"
		"BEGIN { printf(\"%s\\n\", stringof(0)); }\n"
		"BEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "[dtrun] [] 1 1\n1 1\n\n");
	for (int line = 9; line <= 10; line++)
		cr_assert(strstr(r.err, e2e_fmt("strings_stringof_addr.d:%d:1 for probe ID 1 "
						"(dtrace:::BEGIN): invalid address (0x0)", line)),
			  "line %d: %s", line, r.err);
	run_result_free(&r);
}

/* A D struct's string member is DTrace's char[strsize]: it keeps strsize
 * characters as any string does (its NUL is not stored), in a global, a
 * thread-local and a clause-local struct, read by printf, strlen, strjoin,
 * comparisons and trace, with the next member left alone. */
E2E_TEST(strings, struct_string_members_keep_strsize_characters)
{
	const char *obj = e2e_build("strings_member",
		"#pragma D option quiet\n"
		"#pragma D option strsize=8\n"
		"struct s { string a; int b; };\n"
		"struct s x;\n"
		"self struct s y;\n"
		"this struct s z;\n"
		"BEGIN {\n"
		"	x.a = \"abcdefghijkl\"; x.b = -1; g = \"abcdefghijkl\";\n"
		"	self->y.a = \"0123456789\"; self->y.b = 7; this->z.a = \"short\";\n"
		"	printf(\"[%s] %d %d %d %d\\n\", x.a, strlen(x.a), sizeof(x), x.a == g, x.b);\n"
		"	printf(\"[%s] [%s] [%s] %d\\n\", strjoin(x.a, \"Z\"), self->y.a, this->z.a,\n"
		"	       self->y.b);\n"
		"	trace(x.a);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "[abcdefgh] 8 12 1 -1\n[abcdefgh] [01234567] [short] 7\nabcdefgh\n");
	run_result_free(&r);
}

/* s + n and n + s: the string from offset n on, as DTrace's string
 * arithmetic gives it, whatever holds s; past the end it is "". */
E2E_TEST(strings, adding_an_integer_skips_characters)
{
	const char *obj = e2e_build("strings_offset",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	s = \"hello\"; this->t = \"world\"; self->u = probename; a[1] = \"abc\";\n"
		"	printf(\"[%s] [%s] [%s] [%s]\\n\", s + 1, 2 + this->t, self->u + 3, a[1] + 1);\n"
		"	printf(\"[%s] [%s] [%s]\\n\", s + 5, s + 40, strjoin(\"ab\", \"cd\") + 3);\n"
		"	x = (s + 1) + 1;\n"
		"	printf(\"[%s] %d %d\\n\", x, strlen(s + 2), s + 4 == \"o\");\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "[ello] [rld] [IN] [bc]\n[] [] [d]\n[llo] 3 1\n\n");
	run_result_free(&r);
}

/* A strsize that is no multiple of 8 still bounds a literal to strsize
 * characters (its buffer has a few more bytes): strlen() and offsets see
 * the same 6 characters that printf() prints. */
E2E_TEST(strings, a_literal_keeps_strsize_characters)
{
	const char *obj = e2e_build("strings_strsize6",
		"#pragma D option quiet\n"
		"#pragma D option strsize=6\n"
		"BEGIN {\n"
		"	g = \"abcdefgh\"; this->l = \"abcdefgh\";\n"
		"	printf(\"%d %d [%s] [%s] [%s]\\n\", strlen(g), strlen(this->l), g, g + 1,\n"
		"	       substr(\"abcdefgh\", 2));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "6 6 [abcdef] [bcdef] [cdef]\n\n");
	run_result_free(&r);
}
