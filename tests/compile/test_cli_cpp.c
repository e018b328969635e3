/*
 * The C preprocessor in front of the compiler, as dtrace -C runs it: -D, -U,
 * -x define=/undef=, DTrace's predefined macros, diagnostics that keep the
 * script's lines through cpp's line markers, and without -C a directive that
 * is refused, as dtrace refuses it. dcc -e compiles and writes nothing: no
 * kernel.
 */
#include "e2e/e2e.h"

static const char *script(const char *name, const char *text)
{
	const char *d = e2e_fmt("%s/%s.d", e2e_dir, name);
	cr_assert_eq(write_file(d, text, strlen(text)), 0, "cannot write %s", d);
	return d;
}

/* The one clause that survives: an undeclared name in it is the error we read. */
static const char *const branches =
	"BEGIN\n"
	"{\n"
	"#if defined(__linux) && defined(__SUNW_D) && defined(WANT)\n"
	"\tx = defined_branch;\n"
	"#else\n"
	"\tx = other_branch;\n"
	"#endif\n"
	"}\n";

NOKERNEL_TEST(cpp, define_picks_a_branch_and_lines_stay)
{
	const char *d = script("cpp_define", branches);
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-e", "-C", "-DWANT", d, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, e2e_fmt("%s:4:6: error: use of undeclared identifier "
					"'defined_branch'", d)), "%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(cpp, undef_of_a_predefined_macro)
{
	const char *d = script("cpp_undef", branches);
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-e", "-x", "cpp", "-x", "define=WANT", "-x", "undef=__linux", d,
		NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, e2e_fmt("%s:6:6: error: use of undeclared identifier "
					"'other_branch'", d)), "%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(cpp, macros_expand_and_the_object_compiles)
{
	/* a "#!" interpreter line is dropped before cpp, as dtrace -C does */
	const char *d = script("cpp_ok", "#!/usr/sbin/dtrace -Cs\n"
					 "#define GREETING \"hi\\n\"\n"
					 "BEGIN { printf(GREETING); exit(__SUNW_D); }\n");
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-e", "-C", d, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.err, "%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(cpp, a_preprocessor_error_fails_the_compile)
{
	const char *d = script("cpp_bad", "#if 1\nBEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-e", "-C", d, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	/* cpp's own message names the script, not its standard input */
	cr_assert(strstr(r.err, e2e_fmt("%s:1: error: unterminated #if", d)), "%s", r.err);
	cr_assert(strstr(r.err, e2e_fmt("dcc: error: the C preprocessor failed on %s\n", d)),
		  "%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(cpp, without_C_a_directive_is_an_error)
{
	const char *d = script("cpp_none", "BEGIN { exit(0); }\n#if 0\n#endif\n");
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-e", d, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, e2e_fmt("%s:2:1: error: preprocessor directive '#if' needs the "
					"C preprocessor: use -C\n", d)), "%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(cpp, a_bad_option_value_exits_1_as_dtrace)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-x", "bufsize=4q", "-n", "BEGIN { exit(0); }", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: failed to set -x bufsize=4q: Invalid value for specified "
				"option\n");
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "run", "-b", "-1", "-n", "BEGIN { exit(0); }", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: failed to set -b -1: Invalid value for specified option\n");
	run_result_free(&r);
}

NOKERNEL_TEST(cpp, run_e_compiles_and_stops)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-e", "-n", "BEGIN { printf(\"never\"); exit(0); }", NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.out, "%s", r.out);
	cr_assert_str_empty(r.err, "%s", r.err);
	run_result_free(&r);
}
