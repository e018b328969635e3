/*
 * dtrace's command line as the loader sees it: the test mode of DTrace's own
 * suite (_DTRACE_TESTING: no CPU and ID columns), the one blank line that
 * ends a trace, and the macro variables $pid... of the loading process.
 */
#include <unistd.h>

#include "e2e.h"

E2E_TEST(cli, test_mode_drops_cpu_and_id_columns)
{
	const char *obj = e2e_build("cli_testmode",
				    "BEGIN { trace(7); @c[\"a\"] = count(); exit(0); }\n");
	struct run_result r;
	setenv("_DTRACE_TESTING", "t", 1);
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	unsetenv("_DTRACE_TESTING");
	e2e_expect(&r, 0, e2e_fmt("%32s\n%32s  %10d\n\n%s", "FUNCTION:NAME", ":BEGIN", 7,
				  e2e_agg_row("a", 1)));
	run_result_free(&r);
}

E2E_TEST(cli, exit_ends_with_one_blank_line)
{
	const char *obj = e2e_build("cli_blank", "BEGIN { @c[\"a\"] = count(); @d = sum(5); "
						 "printf(\"x\\n\"); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	/* one blank line, then both aggregations with none between them */
	e2e_expect(&r, 0, e2e_fmt("x\n\n%s%17d\n", e2e_agg_row("a", 1), 5));
	run_result_free(&r);
}

E2E_TEST(cli, macro_variables_are_the_loaders)
{
	const char *obj = e2e_build("cli_macros",
		"BEGIN {\n"
		"\tprintf(\"%d %d %d %d %d %d %d\\n\", $pid == pid, $ppid, $uid == uid,\n"
		"\t       $gid == gid, $euid, $egid, $sid > 0 && $pgid > 0);\n"
		"\texit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	/* BEGIN runs in dtrun itself; this test process is its parent */
	e2e_expect(&r, 0, e2e_fmt("1 %d 1 1 %d %d 1\n\n", (int)getpid(), (int)geteuid(),
				  (int)getegid()));
	run_result_free(&r);
}

E2E_TEST(cli, run_with_cpp_definitions)
{
	struct run_result r;
	/* -x define= is the compiler's: the runtime never sees it */
	e2e_run(&r, DCC_BIN, "run", "-q", "-C", "-x", "define=V=5", "-DW=2", "-n",
		"BEGIN { printf(\"%d\\n\", V * W); exit(0); }", NULL);
	e2e_expect(&r, 0, "10\n\n");
	run_result_free(&r);
}

/* aggsize must hold one entry of the largest aggregation: its key (4 bytes
 * for none), its value and an 8-byte counter; 20 bytes for a keyless count() */
E2E_TEST(cli, aggsize_below_one_entry_is_refused)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "aggsize=19", "-n",
		"BEGIN { @ = count(); exit(0); }", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.out);
	cr_assert_str_eq(r.err, "dcc: could not enable tracing: Enabling exceeds size of buffer "
			 "(aggsize 19, an aggregation takes up to 20 bytes)\n");
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "aggsize=20", "-n",
		"BEGIN { @ = count(); exit(0); }", NULL);
	e2e_expect(&r, 0, "\n                1\n");
	run_result_free(&r);
}

/* bufsize must hold the largest record the program writes: here a fault
 * report (16-byte header, 16 bytes), behind the ring buffer's 8-byte header */
E2E_TEST(cli, bufsize_below_one_record_is_refused)
{
	const char *obj = e2e_build("cli_bufsize", "BEGIN { trace(3); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "bufsize=39", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.out);
	cr_assert_str_eq(r.err, "dtrun: could not enable tracing: Enabling exceeds size of buffer "
			 "(bufsize 39, a record takes up to 40 bytes)\n");
	run_result_free(&r);
	/* a clause with more to record needs more room */
	obj = e2e_build("cli_bufsize_big", "BEGIN { printf(\"%s %s %s\", execname, execname, "
					   "execname); exit(0); }\n");
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "bufsize=71", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dtrun: could not enable tracing: Enabling exceeds size of buffer "
			 "(bufsize 71, a record takes up to 80 bytes)\n");
	run_result_free(&r);
	/* -b is bufsize too, and 40 bytes are enough */
	e2e_run(&r, DCC_BIN, "run", "-q", "-b", "40", "-n", "BEGIN { trace(3); exit(0); }", NULL);
	e2e_expect(&r, 0, "3\n");
	run_result_free(&r);
}

/*
 * When only BEGIN and END write records, the loader makes the ring buffer
 * as small as they need instead of bufsize (loader/prep.c). Here they write
 * ~20 KiB before the first drain, more than a few pages: four clauses of
 * ~4 KiB, a fault and the ERROR clause it runs, then END's after. None may
 * be lost. A bufsize given on the command line is kept: 8 KiB drops three.
 */
E2E_TEST(cli, ring_buffer_sized_for_begin_and_end_loses_nothing)
{
	const char *obj = e2e_build("cli_rb_once", "#pragma D option strsize=1024\n"
		"BEGIN { printf(\"a %s %s %s %s\\n\", lltostr(1), lltostr(2), lltostr(3), "
		"lltostr(4)); }\n"
		"BEGIN { printf(\"b %s %s %s %s\\n\", lltostr(5), lltostr(6), lltostr(7), "
		"lltostr(8)); }\n"
		"BEGIN { trace(*(int *)0); }\n"
		"ERROR { printf(\"e %s %s %s %s\\n\", lltostr(9), lltostr(10), lltostr(11), "
		"lltostr(12)); }\n"
		"BEGIN { printf(\"c %s %s %s %s\\n\", lltostr(13), lltostr(14), lltostr(15), "
		"lltostr(16)); }\n"
		"BEGIN { exit(0); }\n"
		"END { printf(\"z %s %s %s %s\\n\", lltostr(17), lltostr(18), lltostr(19), "
		"lltostr(20)); }\n");
	const char *fault = "dtrun: error in cli_rb_once.d:4:1 for probe ID 1 (dtrace:::BEGIN): "
			    "invalid address (0x0) at BPF pc 0\n";
	struct run_result r;

	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect(&r, 0, "a 1 2 3 4\nb 5 6 7 8\ne 9 10 11 12\nc 13 14 15 16\nz 17 18 19 20\n\n");
	e2e_assert_bytes("stderr", r.err, fault);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", "-x", "bufsize=8k", obj, NULL);
	e2e_expect(&r, 0, "a 1 2 3 4\nz 17 18 19 20\n\n");
	/* BEGIN runs on whichever CPU the loader is on */
	cr_assert(!strncmp(r.err, fault, strlen(fault)), "%s", r.err);
	int cpu = -1, end = 0;
	cr_assert_eq(sscanf(r.err + strlen(fault), "dtrun: 3 drops on CPU %d\n%n", &cpu, &end),
		     1, "%s", r.err);
	cr_assert(cpu >= 0 && end > 0 && !r.err[strlen(fault) + end], "%s", r.err);
	run_result_free(&r);
}

/* dcc run -P/-m/-f: the specifier and its predicate and actions, as -n */
E2E_TEST(cli, run_with_a_provider_specifier_and_actions)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-P", "dtrace/probename != \"END\"/ { printf(\"%s\\n\", "
		"probename); exit(0); }", NULL);
	e2e_expect(&r, 0, "BEGIN\n\n");
	run_result_free(&r);
}

/* dcc run -i: a probe by the id dcc -l lists (1 is BEGIN, 1000 read's entry),
 * with its actions as -n's; combined with other flags as dtrace's -qwi 1'{...}' */
E2E_TEST(cli, run_a_probe_named_by_its_id)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-qi", "1 { printf(\"%s:%s\\n\", probeprov, probename); "
		"exit(0); }", NULL);
	e2e_expect(&r, 0, "dtrace:BEGIN\n\n");
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "-l", "-i", "1000", "-i", "2", NULL);
	e2e_expect(&r, 0, e2e_fmt("%5s %10s %17s %33s %s\n%5d %10s %17s %33s %s\n"
				  "%5d %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE",
				  "FUNCTION", "NAME", 1000, "syscall", "vmlinux", "read", "entry",
				  2, "dtrace", "", "", "END"));
	run_result_free(&r);
}

/* A size above what dcc makes (a 2 GiB ring buffer; 2^22 entries of an
 * aggregation's map) is lowered and said so by default, and refused with
 * bufresize=manual; preallocate is taken and changes nothing. */
E2E_TEST(cli, bufresize_lowers_or_refuses)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "bufresize=manual", "-x", "bufsize=3g", "-n",
		"BEGIN { trace(3); exit(0); }", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.out);
	cr_assert_str_eq(r.err, "dcc: could not enable tracing: bufsize 3g exceeds the largest dcc "
			 "makes (2g) and bufresize=manual forbids lowering it\n");
	run_result_free(&r);
	/* a u64 key and a count: (8 + 8 + 64) bytes an entry, 2^22 entries */
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "bufresize=manual", "-x", "aggsize=1t", "-n",
		"BEGIN { @[1] = count(); exit(0); }", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: could not enable tracing: aggsize 1t exceeds the largest dcc "
			 "makes (320m) and bufresize=manual forbids lowering it\n");
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "aggsize=1t", "-x", "preallocate=1t", "-n",
		"BEGIN { @[1] = count(); exit(0); }", NULL);
	e2e_expect(&r, 0, "\n        1                1\n");
	cr_assert_str_eq(r.err, "dcc: aggregation size lowered to 320m\n");
	run_result_free(&r);
	/* a keyless aggregation holds one value: nothing is lowered */
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "bufresize=manual", "-x", "aggsize=1t", "-n",
		"BEGIN { @ = count(); exit(0); }", NULL);
	e2e_expect(&r, 0, "\n                1\n");
	run_result_free(&r);
}

/* bufpolicy=ring keeps each CPU's latest bufsize bytes of records and prints
 * them when tracing stops; fill prints until a record would overflow, then
 * stops as exit(0) would. A record here: 16-byte header, 8 bytes a value,
 * behind the ring buffer's 8-byte header (b: 32 bytes, c with exit's value:
 * 40). The BEGIN clauses run on one CPU, one firing; the last newline is
 * DTrace's at exit. */
E2E_TEST(cli, bufpolicy_ring_and_fill)
{
	static const char three[] = "BEGIN { printf(\"a %d\\n\", 1); } "
				    "BEGIN { printf(\"b %d\\n\", 2); } "
				    "BEGIN { printf(\"c %d\\n\", 3); exit(3); }";
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "bufpolicy=ring", "-x", "bufsize=72", "-n", three,
		NULL);
	e2e_expect(&r, 3, "b 2\nc 3\n\n");
	run_result_free(&r);
	/* a bufsize smaller than any record keeps none, and is no error */
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "bufpolicy=ring", "-x", "bufsize=16", "-n", three,
		NULL);
	e2e_expect(&r, 3, "\n");
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "bufpolicy=ring", "-n", three, NULL);
	e2e_expect(&r, 3, "a 1\nb 2\nc 3\n\n");
	run_result_free(&r);
	/* fill: a and b fill 64 bytes; c stops tracing, its exit() unseen */
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "bufpolicy=fill", "-x", "bufsize=64", "-n", three,
		NULL);
	e2e_expect(&r, 0, "a 1\nb 2\n\n");
	run_result_free(&r);
}
