/* Diagnostics: exact clang-style text, carets, ranges, tabs, EOF positions. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static char *buf;
static size_t buf_len;
static FILE *out;
static struct diag *dg;

static void setup(void)
{
	out = open_memstream(&buf, &buf_len);
	dg = diag_new(out);
}

static void teardown(void)
{
	diag_free(dg);
	fclose(out);
	free(buf);
}

static const char *text(void)
{
	fflush(out);
	return buf;
}

static struct loc at(uint32_t file, uint32_t off, uint32_t len, uint32_t line, uint32_t col)
{
	return (struct loc){ .file = file, .off = off, .len = len, .line = line, .col = col };
}

TestSuite(diag, .init = setup, .fini = teardown);

Test(diag, caret_and_range)
{
	const char *src = "BEGIN\n{\n  @x = execname + 1;\n}\n";
	uint32_t f = diag_add_source(dg, "trace.d", src, strlen(src));
	int r = diag_error(dg, at(f, 15, 8, 3, 8), "operator '+' cannot be applied to '%s'", "string");
	cr_assert_eq(r, -1);
	cr_assert_str_eq(text(), "trace.d:3:8: error: operator '+' cannot be applied to 'string'\n"
				 "  @x = execname + 1;\n"
				 "       ^~~~~~~~\n");
	cr_assert_eq(diag_errors(dg), 1);
}

Test(diag, length_zero_and_one_is_a_bare_caret)
{
	const char *src = "x = 1\n";
	uint32_t f = diag_add_source(dg, "a.d", src, strlen(src));
	diag_error(dg, at(f, 4, 0, 1, 5), "zero");
	diag_error(dg, at(f, 4, 1, 1, 5), "one");
	cr_assert_str_eq(text(), "a.d:1:5: error: zero\nx = 1\n    ^\n"
				 "a.d:1:5: error: one\nx = 1\n    ^\n");
	cr_assert_eq(diag_errors(dg), 2);
}

Test(diag, tabs_expand_to_eight_columns)
{
	const char *src = "\tx = 1 +\t;\n";
	uint32_t f = diag_add_source(dg, "t.d", src, strlen(src));
	/* ';' is byte 9: the tab before it ends at column 16 */
	diag_error(dg, at(f, 9, 1, 1, 10), "expected expression");
	cr_assert_str_eq(text(), "t.d:1:10: error: expected expression\n"
				 "        x = 1 + ;\n"
				 "                ^\n");
}

Test(diag, range_over_a_tab_is_underlined_in_full)
{
	const char *src = "a\tb\n";
	uint32_t f = diag_add_source(dg, "t.d", src, strlen(src));
	diag_error(dg, at(f, 0, 3, 1, 1), "range");
	cr_assert_str_eq(text(), "t.d:1:1: error: range\n"
				 "a       b\n"
				 "^~~~~~~~~\n");
}

Test(diag, range_is_clipped_at_the_end_of_the_line)
{
	const char *src = "foo(1,\n    2)\n";
	uint32_t f = diag_add_source(dg, "c.d", src, strlen(src));
	diag_error(dg, at(f, 0, 13, 1, 1), "call");
	cr_assert_str_eq(text(), "c.d:1:1: error: call\nfoo(1,\n^~~~~~\n");
}

Test(diag, eof_points_past_the_last_character)
{
	const char *src = "BEGIN {\n\ttrace(1);";
	uint32_t f = diag_add_source(dg, "e.d", src, strlen(src));
	diag_error(dg, at(f, 18, 0, 2, 11), "expected '}' at end of clause");
	cr_assert_str_eq(text(), "e.d:2:11: error: expected '}' at end of clause\n"
				 "        trace(1);\n"
				 "                 ^\n");
}

Test(diag, warning_and_note_do_not_count_as_errors)
{
	const char *src = "x\n";
	uint32_t f = diag_add_source(dg, "w.d", src, strlen(src));
	diag_warning(dg, at(f, 0, 1, 1, 1), "unused %s", "x");
	diag_note(dg, at(f, 0, 1, 1, 1), "declared here");
	cr_assert_str_eq(text(), "w.d:1:1: warning: unused x\nx\n^\n"
				 "w.d:1:1: note: declared here\nx\n^\n");
	cr_assert_eq(diag_errors(dg), 0);
}

Test(diag, fatal_has_no_location_and_counts)
{
	cr_assert_eq(diag_fatal(dg, "cannot open '%s'", "x.d"), -1);
	cr_assert_str_eq(text(), "dcc: error: cannot open 'x.d'\n");
	cr_assert_eq(diag_errors(dg), 1);
}

Test(diag, several_sources_keep_their_names)
{
	const char *a = "aaa\n", *b = "one\ntwo\n";
	uint32_t fa = diag_add_source(dg, "a.d", a, strlen(a));
	uint32_t fb = diag_add_source(dg, "b.d", b, strlen(b));
	cr_assert_neq(fa, fb);
	cr_assert_str_eq(diag_source_name(dg, fb), "b.d");
	diag_error(dg, at(fb, 5, 2, 2, 2), "second line");
	cr_assert_str_eq(text(), "b.d:2:2: error: second line\ntwo\n ^~\n");
}

Test(diag, line_number_comes_from_the_loc)
{
	/* #line renumbering: the text is found by offset, the number is the loc's */
	const char *src = "a\nbc\n";
	uint32_t f = diag_add_source(dg, "lib.d", src, strlen(src));
	diag_error(dg, at(f, 3, 1, 100, 2), "renumbered");
	cr_assert_str_eq(text(), "lib.d:100:2: error: renumbered\nbc\n ^\n");
}

/* an internal error is no user error: it stops dcc with its own status */
Test(diag, bug_exits_with_its_own_status, .exit_code = DIAG_BUG_EXIT)
{
	const char *src = "x = 1;\n";
	uint32_t f = diag_add_source(dg, "bug.d", src, strlen(src));
	diag_bug(dg, at(f, 0, 1, 1, 1), "%s as a value", "N_XLATE");
}

/* one with no location (the LLVM backend's failures) stops dcc the same way */
Test(diag, bug_without_a_location_exits_with_its_own_status, .exit_code = DIAG_BUG_EXIT)
{
	diag_bug_fatal(dg, "BPF backend: %s", "no instruction");
}
