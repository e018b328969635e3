/*
 * printf in BEGIN, byte for byte. Each case is one D printf and the same
 * value rendered by C's printf (D-LANGUAGE.md §8: C semantics at the
 * argument's own size and signedness). A test turns its table into a script
 * of BEGIN clauses (at most 8 printfs each, run in order), compiles it with
 * dcc, runs it with `dtrun -q` and compares the whole stdout: every line,
 * then the newline the consumer prints at exit.
 */
#include <limits.h>

#include "e2e.h"

struct pcase {
	char *d;    /* the D statement */
	char *want; /* its exact output */
};

struct ptable {
	struct pcase c[64];
	int n;
};

static void add(struct ptable *t, char *d, char *want)
{
	cr_assert_lt(t->n, 64);
	t->c[t->n].d = d;
	t->c[t->n].want = want;
	t->n++;
}

/* Same format in D and C: CASE(t, "%5d|", "42", 42). */
#define CASE(t, fmt, dargs, ...) \
	add(t, e2e_fmt("printf(\"%s\\n\", %s);", fmt, dargs), e2e_fmt(fmt "\n", __VA_ARGS__))
/* A D format whose C rendering needs another length modifier or a literal. */
#define CASE2(t, fmt, dargs, cfmt, ...) \
	add(t, e2e_fmt("printf(\"%s\\n\", %s);", fmt, dargs), e2e_fmt(cfmt "\n", __VA_ARGS__))
#define CASE0(t, fmt) add(t, e2e_fmt("printf(\"%s\\n\");", fmt), e2e_fmt(fmt "\n"))

/* Build, run quietly, compare. */
static void check(const char *name, struct ptable *t)
{
	size_t cap = 4096;
	char *src = calloc(1, cap), *want = calloc(1, cap);
	cr_assert(src && want);
	size_t sl = 0, wl = 0;
	for (int i = 0; i < t->n; i++) {
		size_t need = strlen(t->c[i].d) + strlen(t->c[i].want) + 64;
		if (sl + need >= cap || wl + need >= cap) {
			cap = cap * 2 + need;
			src = realloc(src, cap);
			want = realloc(want, cap);
		}
		if (i % 8 == 0)
			sl += sprintf(src + sl, "%sBEGIN\n{\n", i ? "}\n\n" : "");
		sl += sprintf(src + sl, "\t%s\n", t->c[i].d);
		wl += sprintf(want + wl, "%s", t->c[i].want);
	}
	sl += sprintf(src + sl, "%sBEGIN\n{\n\texit(0);\n}\n", t->n ? "}\n\n" : "");
	e2e_keep(src);
	e2e_keep(want);
	strcat(want, "\n");

	const char *obj = e2e_build(name, src);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "dtrun -q printed on stderr:\n%s", r.err);
	if (strcmp(r.out, want)) {
		/* Name the first failing case by its D statement. */
		const char *g = r.out;
		for (int i = 0; i < t->n; i++) {
			size_t k = strlen(t->c[i].want);
			if (strncmp(g, t->c[i].want, k)) {
				const char *e = strchr(g, '\n');
				char *got = e2e_keep(strndup(g, e ? (size_t)(e - g) + 1 : strlen(g)));
				cr_assert_fail("case %d: %s\n  got:  %s\n  want: %s\nscript:\n%s", i + 1,
					       t->c[i].d, e2e_show(got), e2e_show(t->c[i].want), src);
			}
			g += k;
		}
	}
	e2e_expect(&r, 0, want);
	run_result_free(&r);
}

E2E_TEST(begin_printf, signed_decimal)
{
	struct ptable t = { 0 };
	CASE(&t, "%d", "42", 42);
	CASE(&t, "%d", "-42", -42);
	CASE(&t, "%i", "-7", -7);
	CASE(&t, "%d", "0", 0);
	CASE(&t, "%5d|", "42", 42);
	CASE(&t, "%-5d|", "42", 42);
	CASE(&t, "%05d|", "42", 42);
	CASE(&t, "%05d|", "-42", -42);
	CASE(&t, "%+d", "42", 42);
	CASE(&t, "%+d", "-42", -42);
	CASE(&t, "% d|", "42", 42);
	CASE(&t, "% 5d|", "-42", -42);
	CASE(&t, "%.4d", "42", 42);
	CASE(&t, "%8.4d|", "-42", -42);
	CASE(&t, "%-+8d|", "42", 42);
	CASE2(&t, "%-08d|", "42", "%s", "42      |");
	CASE(&t, "%.0d|", "0", 0);
	CASE(&t, "%+.3i|", "5", 5);
	CASE(&t, "%*d|", "6, 42", 6, 42);
	CASE(&t, "%-*d|", "6, 42", 6, 42);
	CASE(&t, "%.*d|", "3, 7", 3, 7);
	CASE(&t, "%d", "2147483647", 2147483647);
	CASE(&t, "%d", "-2147483647 - 1", INT_MIN);
	CASE(&t, "%d %d %d", "1, -2, 3", 1, -2, 3);
	check("signed_decimal", &t);
}

E2E_TEST(begin_printf, unsigned_octal_hex)
{
	struct ptable t = { 0 };
	CASE(&t, "%u", "42", 42u);
	CASE2(&t, "%u", "-1", "%u", 4294967295u);
	CASE(&t, "%x", "255", 255);
	CASE(&t, "%X", "255", 255);
	CASE(&t, "%#x", "255", 255);
	CASE(&t, "%#X", "255", 255);
	CASE(&t, "%o", "8", 8);
	CASE(&t, "%#o", "8", 8);
	CASE(&t, "%#o|", "0", 0);
	CASE(&t, "%#x|", "0", 0);
	CASE(&t, "%08x|", "48879", 48879);
	CASE(&t, "%-8x|", "48879", 48879);
	CASE(&t, "%#10x|", "48879", 48879);
	CASE(&t, "%#010x|", "48879", 48879);
	CASE(&t, "%.6x|", "255", 255);
	CASE(&t, "%x", "-1", 0xffffffffu);
	CASE(&t, "%X", "-2", 0xfffffffeu);
	CASE(&t, "%o", "-1", 037777777777u);
	CASE(&t, "%u", "0xffffffff", 0xffffffffu);
	CASE2(&t, "%d", "0xffffffff", "%u", 0xffffffffu);
	CASE2(&t, "%i", "4294967295U", "%u", 4294967295u);
	CASE(&t, "%10u|", "3000000000U", 3000000000u);
	CASE(&t, "%-12o|", "511", 511);
	check("unsigned_octal_hex", &t);
}

E2E_TEST(begin_printf, sixty_four_bit)
{
	struct ptable t = { 0 };
	CASE2(&t, "%d", "9223372036854775807LL", "%lld", LLONG_MAX);
	CASE2(&t, "%d", "-9223372036854775807LL - 1", "%lld", LLONG_MIN);
	CASE2(&t, "%d", "0x100000000", "%lld", 0x100000000LL);
	CASE2(&t, "%u", "-1LL", "%llu", ULLONG_MAX);
	CASE2(&t, "%x", "-1LL", "%llx", ULLONG_MAX);
	CASE2(&t, "%X", "0xdeadbeefcafeLL", "%llX", 0xdeadbeefcafeULL);
	CASE2(&t, "%o", "0x8000000000000000ULL", "%llo", 0x8000000000000000ULL);
	CASE2(&t, "%d", "18446744073709551615ULL", "%llu", ULLONG_MAX);
	CASE2(&t, "%i", "-4294967296LL", "%lld", -4294967296LL);
	CASE2(&t, "%ld", "1LL << 40", "%lld", 1LL << 40);
	CASE2(&t, "%lld", "-1234567890123LL", "%lld", -1234567890123LL);
	CASE2(&t, "%20d|", "-1234567890123LL", "%20lld|", -1234567890123LL);
	CASE2(&t, "%-20x|", "0x123456789aLL", "%-20llx|", 0x123456789aULL);
	CASE2(&t, "%#llx", "0x123456789aLL", "%#llx", 0x123456789aULL);
	CASE2(&t, "%+.12d|", "123456789012LL", "%+.12lld|", 123456789012LL);
	CASE2(&t, "%ld", "-5", "%d", -5);
	CASE2(&t, "%llu", "42", "%u", 42u);
	check("sixty_four_bit", &t);
}

E2E_TEST(begin_printf, char_short_casts)
{
	struct ptable t = { 0 };
	CASE(&t, "%d", "(char)-17", -17);
	CASE2(&t, "%x", "(char)-17", "%s", "ef");
	CASE2(&t, "%X", "(char)-1", "%s", "FF");
	CASE2(&t, "%o", "(char)-1", "%s", "377");
	CASE2(&t, "%u", "(char)-17", "%u", 239u);
	CASE(&t, "%d", "(short)-2", -2);
	CASE2(&t, "%x", "(short)-2", "%s", "fffe");
	CASE2(&t, "%u", "(short)-2", "%u", 65534u);
	CASE(&t, "%d", "(short)70000", (short)70000);
	CASE(&t, "%d", "(unsigned char)300", 44);
	CASE(&t, "%d", "(unsigned short)-1", 65535);
	CASE2(&t, "%d", "(unsigned int)-1", "%u", 4294967295u);
	CASE(&t, "%d", "(int)4294967297LL", 1);
	CASE2(&t, "%d", "(long)-1", "%ld", -1L);
	CASE2(&t, "%u", "(long)-1", "%lu", ULONG_MAX);
	CASE2(&t, "%d", "(unsigned long)-1", "%lu", ULONG_MAX);
	CASE2(&t, "%x", "(long)-2", "%lx", (unsigned long)-2L);
	CASE(&t, "%c", "(char)65", 'A');
	CASE(&t, "%hd", "(short)-2", -2);
	CASE(&t, "%hhu", "(unsigned char)200", 200);
	CASE(&t, "%5d|", "(char)-17", -17);
	CASE2(&t, "%#06x|", "(short)-2", "%s|", "0xfffe");
	check("char_short_casts", &t);
}

E2E_TEST(begin_printf, chars_and_strings)
{
	struct ptable t = { 0 };
	CASE(&t, "%c", "65", 'A');
	CASE(&t, "%c", "'z'", 'z');
	CASE(&t, "%3c|", "'x'", 'x');
	CASE(&t, "%-3c|", "'x'", 'x');
	CASE(&t, "%c%c%c", "'a', 'b', 'c'", 'a', 'b', 'c');
	CASE(&t, "%s", "\"hello\"", "hello");
	CASE(&t, "%10s|", "\"hello\"", "hello");
	CASE(&t, "%-10s|", "\"hello\"", "hello");
	CASE(&t, "%.3s|", "\"hello\"", "hello");
	CASE(&t, "%10.3s|", "\"hello\"", "hello");
	CASE(&t, "%-10.3s|", "\"hello\"", "hello");
	CASE(&t, "%.0s|", "\"hello\"", "hello");
	CASE(&t, "%s|", "\"\"", "");
	CASE(&t, "[%s] [%s]", "\"a\", \"bc\"", "a", "bc");
	CASE(&t, "%s", "\"tab\\there\"", "tab\there");
	CASE(&t, "%s", "\"\\101\\x42\\\\\\\"\"", "AB\\\"");
	CASE(&t, "%*s|", "8, \"ab\"", 8, "ab");
	CASE(&t, "%-*s|", "8, \"ab\"", 8, "ab");
	CASE(&t, "%.*s|", "2, \"abcdef\"", 2, "abcdef");
	CASE(&t, "%s=%d (%x) %c", "\"k\", -1, 255, 'q'", "k", -1, 255, 'q');
	CASE(&t, "%s", "\"a string that is longer than sixty-four bytes, to pass any small "
		 "buffer\"", "a string that is longer than sixty-four bytes, to pass any small "
		 "buffer");
	check("chars_and_strings", &t);
}

E2E_TEST(begin_printf, percent)
{
	struct ptable t = { 0 };
	CASE0(&t, "100%%");
	CASE0(&t, "%%%%");
	CASE(&t, "%d%%|%%%s", "5, \"x\"", 5, "x");
	CASE0(&t, "no conversions at all");
	check("percent", &t);
}

/* The same through `dcc run -n`, compiled in memory and run at once. */
E2E_TEST(begin_printf, dcc_run_n)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n",
		"BEGIN { printf(\"%d|%5s|%-3c|%x|%s\\n\", -3, \"ab\", 65, 4095, \"end\"); exit(0); }",
		NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 0, e2e_fmt("%d|%5s|%-3c|%x|%s\n\n", -3, "ab", 65, 4095, "end"));
	run_result_free(&r);
}

/* `dcc run -s FILE`: a checked-in script. */
E2E_TEST(begin_printf, dcc_run_s)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-s", e2e_src("tst.printf_mix.d"), NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_script_out(&r, 0, "tst.printf_mix");
	run_result_free(&r);
}

/* Several printfs of one clause and several BEGIN clauses keep their order;
 * integer expressions are evaluated at run time from globals. */
E2E_TEST(begin_printf, globals_and_operators)
{
	const char *obj = e2e_build_src("tst.operators");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_script_out(&r, 0, "tst.operators");
	run_result_free(&r);
}

/* Compound assignments and ++/-- on global integers. */
E2E_TEST(begin_printf, assignment_operators)
{
	const char *obj = e2e_build_src("tst.assign_ops");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_script_out(&r, 0, "tst.assign_ops");
	run_result_free(&r);
}

/* ++ and -- on a variable never declared make it a 64-bit integer, as in
 * DTrace: trace() gives it 8 bytes' width, and it doesn't wrap at 32 bits. */
E2E_TEST(begin_printf, increment_declares_a_64_bit_variable)
{
	const char *obj = e2e_build("incdecl",
		"BEGIN { trace(++x); trace(self->y++); n--; n -= 0x7fffffff; n -= 2;\n"
		"        printf(\"|%d\", n); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, ":BEGIN                    1                   0|-2147483650\n"),
		  "%s", r.out);
	run_result_free(&r);
}

/* C's declarations and type names in D (extern functions, function
 * pointers, implicit int, uchar_t, the kernel's uint) compile and run. */
E2E_TEST(begin_printf, c_declarations_and_type_names)
{
	const char *obj = e2e_build_src("tst.c_decls");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_script_out(&r, 0, "tst.c_decls");
	run_result_free(&r);
}

/* -x settings reach the compiler as pragmas before the script's do: strsize
 * truncates a string in the kernel, defaultargs makes unset $1 and $$2 0 and
 * "". dtrun refuses to change what an object was compiled with. */
E2E_TEST(begin_printf, x_options_reach_the_compiler)
{
	const char *prog = "BEGIN { s = \"0123456789abcdefghij\"; printf(\"%s|%d|%s|\\n\", s, $1, "
			   "$$2); exit(0); }";
	const char *obj = e2e_tmp("x16.bpf.o");
	struct run_result r;

	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "strsize=16", "-x", "defaultargs", "-n", prog,
		NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 0, "begin_printf.x_options_reach_the_compiler.1");
	run_result_free(&r);

	e2e_run(&r, DCC_BIN, "-x", "strsize=16", "-xdefaultargs", "-n", prog, "-o", obj, NULL);
	e2e_expect(&r, 0, "");
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "strsize=16", obj, NULL);
	e2e_expect_out(&r, 0, "begin_printf.x_options_reach_the_compiler.2");
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "strsize=32", obj, NULL);
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err, "dtrun: failed to set -x strsize=32: it is fixed when the script "
				"is compiled (strsize=16 here): compile with -x strsize=32\n");
	run_result_free(&r);
}
