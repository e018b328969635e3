/*
 * Every aggregating function through the kernel, with values a trigger
 * makes exactly (self->i = 1..10 on ten getppid() calls): count, sum
 * normalized by a non-divisor, avg, min, max, stddev's integer rounding,
 * quantize with negative values, lquantize, llquantize, integer keys sorted
 * by value, trunc() to the top 3 and a formatted printa; and drops of
 * dynamic variables made on purpose with a tiny dynvarsize.
 * tst.aggs_all.out was checked by hand against D-LANGUAGE.md §11.
 */
#include "e2e/e2e.h"

E2E_TEST(aggs, every_function_with_exact_values)
{
	const char *obj = e2e_build_src("tst.aggs_all");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 10", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, e2e_expected("tst.aggs_all"));
	run_result_free(&r);
}

E2E_TEST(aggs, dynamic_variable_drops_are_counted_exactly)
{
	/* 100 distinct keys into a map of 64 entries (dcc's floor): 36 drops */
	const char *obj = e2e_build("dynvar",
		"#pragma D option quiet\n"
		"#pragma D option dynvarsize=1k\n"
		"syscall::getppid:entry /pid == $target/ { n++; seen[n] = 1; }\n"
		"END { printf(\"%d %d %d\\n\", n, seen[64], seen[65]); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 100", e2e_trigger("getppid_n")), obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "100 1 0\n\n");
	cr_assert(strstr(r.err, "36 dynamic variable drops"), "stderr: %s", r.err);
	run_result_free(&r);
}

E2E_TEST(aggs, string_tuple_keys_count_each_syscall)
{
	const char *obj = e2e_build("tuple",
		"#pragma D option quiet\n"
		"syscall::getppid:entry, syscall::getppid:return /pid == $target/ {\n"
		"	@[execname, probefunc, probename] = count();\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 7", e2e_trigger("getppid_n")), obj, NULL);
	/* string keys print as "  %-50s", the count as " %16lld" (§11.2) */
	const char *row = "  %-50s  %-50s  %-50s %16d\n";
	e2e_expect(&r, 0, e2e_fmt(e2e_fmt("\n\n%s%s", row, row), "getppid_n", "getppid", "entry", 7,
				  "getppid_n", "getppid", "return", 7));
	run_result_free(&r);
}
