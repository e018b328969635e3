/*
 * The pid provider on this kernel. The pid_target trigger calls
 * dcc_pid_target_fn(i) for i = 1..N (returning 3 * i + 1) and getpid() N
 * times, then dcc_pid_target_seven(1, 2, 3, 4, 5, 6, 70) once; entry
 * arguments, return values, the names of each firing and the counts must be
 * exactly those, with -c (probes attached before the command's main) and -p.
 */
#include "e2e.h"

#define N 5

static const char calls_d[] =
	"#pragma D option quiet\n"
	"pid$target:a.out:dcc_pid_target_fn:entry { printf(\"in %d\\n\", arg0); }\n"
	"pid$target:a.out:dcc_pid_target_fn:return { printf(\"out %d %d\\n\", arg0, arg1); }\n"
	"pid$target:a.out:dcc_pid_target_s*:entry\n"
	"{\n"
	"	printf(\"%s %s %s %d %d %d %d %d %d %d\\n\", probemod, probefunc, probename, arg0,\n"
	"	    arg1, arg2, arg3, arg4, arg5, arg6);\n"
	"	printf(\"%s\\n\", probeprov == strjoin(\"pid\", lltostr($target)) ? \"prov ok\" :\n"
	"	    probeprov);\n"
	"}\n"
	"pid$target:a.out:dcc_pid_target_s*:return { printf(\"%s returned %d\\n\", probefunc, arg1); }\n"
	"pid$target:libc:getpi?:entry { @[probeprov == strjoin(\"pid\", lltostr($target)),\n"
	"    probemod, probefunc, probename] = count(); }\n"
	"END { printa(\"%d %s %s %s %@d\\n\", @); }\n";

static const char *calls_out(void)
{
	char *want = e2e_keep(calloc(1, 4096));
	for (int i = 1; i <= N; i++)
		sprintf(want + strlen(want), "in %d\nout 0 %d\n", i, 3 * i + 1);
	strcat(want, "pid_target dcc_pid_target_seven entry 1 2 3 4 5 6 70\nprov ok\n"
		     "dcc_pid_target_seven returned 91\n");
	sprintf(want + strlen(want), "1 libc.so.6 getpid entry %d\n\n", N);
	return want;
}

E2E_TEST(pid, c_command_entry_args_return_values_and_names)
{
	const char *obj = e2e_build("pid_calls", calls_d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("pid_target"), N), obj, NULL);
	e2e_expect(&r, 0, calls_out());
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	run_result_free(&r);
}

/* -p: a process already running, past its dynamic linker */
E2E_TEST(pid, p_running_process)
{
	const char *obj = e2e_build("pid_calls_p", calls_d);
	const char *targv[] = { e2e_trigger("pid_target"), e2e_fmt("%d", N), "2500", NULL };
	struct e2e_bg t;
	e2e_bg_start(&t, targv);
	struct run_result r, tr;
	e2e_run(&r, DTRUN_BIN, "-q", "-p", e2e_fmt("%d", (int)t.pid), obj, NULL);
	e2e_bg_finish(&t, &tr, 10);
	cr_assert_eq(tr.status, 0, "trigger status %d", tr.status);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 0, calls_out());
	run_result_free(&r);
	run_result_free(&tr);
}

/* The default probe line names each function: its own probe id, func:name */
E2E_TEST(pid, default_output_names_each_function)
{
	const char *obj = e2e_build("pid_default",
		"pid$target:a.out:dcc_pid_target_*:entry /arg0 == 1/ {}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 2", e2e_trigger("pid_target")), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	/* CPU column aside: fn (the first by address) fires for i = 1, seven once */
	char *lines = e2e_keep(strdup(r.out)), *save = NULL;
	const char *want[] = { "CPU     ID                    FUNCTION:NAME",
			       "1048576          dcc_pid_target_fn:entry ",
			       "1048577       dcc_pid_target_seven:entry ", "" };
	int i = 0;
	for (char *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save), i++) {
		cr_assert_lt(i, 3, "extra line '%s' in:\n%s", l, r.out);
		const char *rest = l;
		if (i) /* past the CPU column */
			rest = l + strspn(l, " ") + strspn(l + strspn(l, " "), "0123456789") + 1;
		cr_assert_str_eq(rest, want[i], "line %d of:\n%s", i + 1, r.out);
	}
	cr_assert_eq(i, 3, "%d lines:\n%s", i, r.out);
	/* the functions are the probes, not the description */
	e2e_expect_err(&r, "dtrun: script '*pid_default.d' matched 2 probes",
		       "dtrun: pid * has exited", NULL);
	run_result_free(&r);
}

E2E_TEST(pid, description_matching_nothing_is_an_error_naming_it)
{
	const char *obj = e2e_build("pid_none", "pid$target:a.out:no_such_fn*:entry {}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 1", e2e_trigger("pid_target")), obj,
		NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: probe description pid$target:a.out:no_such_fn*:entry does not "
		       "match any probes in pid *", NULL);
	run_result_free(&r);
}

E2E_TEST(pid, target_without_a_process_is_an_error)
{
	const char *obj = e2e_build("pid_notarget", "pid$target:a.out:main:entry {}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: pid$target:a.out:main:entry: $target needs a process: run "
		       "with -c or -p", NULL);
	run_result_free(&r);
}

/* Offset probes in dcc_pidoff_add (pid_target.c: leaq 1(%rdi),%rax at 0,
 * addq %rdi,%rax at 4, ret at 7), and uregs[] read from the uprobe's
 * registers: %rdi is arg0 at the entry, %rax holds i + 1 at 4 and
 * 2 * i + 1 at 7, and %rip moved by exactly the offset */
E2E_TEST(pid, offset_probes_and_uregs)
{
	const char *obj = e2e_build("pid_offset",
		"#pragma D option quiet\n"
		"pid$target:a.out:dcc_pidoff_add:entry { self->pc = uregs[R_PC];\n"
		"    printf(\"%s %d %d\\n\", probename, arg0, uregs[R_RDI] == arg0); }\n"
		"pid$target:a.out:dcc_pidoff_add:4 { printf(\"%s %s %d %d %d %d\\n\", probefunc,\n"
		"    probename, arg0, uregs[R_RAX], uregs[R_PC] - self->pc, arg6); }\n"
		"pid$target:a.out:dcc_pidoff_add:07 /uregs[R_RAX] == 2 * arg0 + 1/\n"
		"    { @[probefunc, probename] = count(); }\n"
		"pid$target:a.out:dcc_pidoff_add:return { printf(\"return %d\\n\", arg1); }\n"
		"END { printa(\"%s %s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("pid_target"), N), obj, NULL);
	char *want = e2e_keep(calloc(1, 4096));
	for (int i = 1; i <= N; i++)
		sprintf(want + strlen(want), "entry %d 1\ndcc_pidoff_add 4 %d %d 4 0\nreturn %d\n",
			i, i, i + 1, 2 * i + 1);
	sprintf(want + strlen(want), "dcc_pidoff_add 7 %d\n\n", N);
	e2e_expect(&r, 0, want);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	run_result_free(&r);
}

/* An offset at or past the function's end (its symbol's size, 8) is refused
 * by name; a glob over functions skips those too short for it */
E2E_TEST(pid, offset_past_the_function_end)
{
	const char *obj = e2e_build("pid_offset_end", "pid$target:a.out:dcc_pidoff_add:8 {}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 1", e2e_trigger("pid_target")), obj,
		NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: pid$target:a.out:dcc_pidoff_add:8: offset 0x8 is past the end "
		       "of dcc_pidoff_add in pid_target (8 bytes)", NULL);
	run_result_free(&r);

	obj = e2e_build("pid_offset_glob", "pid$target:a.out:dcc_pidoff_ad?:8 {}\n");
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 1", e2e_trigger("pid_target")), obj,
		NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: probe description pid$target:a.out:dcc_pidoff_ad?:8 does not "
		       "match any probes in pid *", NULL);
	run_result_free(&r);
}

/* Every function of libc (one multi-uprobe link on 6.6+): getpid, called N
 * times by the trigger, counts exactly N through the wildcard, named by
 * its own name (not an alias such as __getpid), and the run ends promptly
 * (one uprobe each took minutes to detach on 6.18). */
static const char libc_all_d[] =
	"pid$target:libc.so.6::entry /probefunc == \"getpid\"/ { @g[probemod, probefunc] = count(); }\n"
	"pid$target:libc.so.6::entry { @all = count(); }\n"
	"END { printa(\"%s %s %@d\\n\", @g); printa(\"%@d\\n\", @all); }\n";

E2E_TEST(pid, libc_wide_wildcard_counts_exactly)
{
	const char *obj = e2e_build("pid_libc_all", libc_all_d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s %d", e2e_trigger("pid_target"), 7), obj,
		NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	unsigned long all = 0;
	int used = 0;
	cr_assert_eq(sscanf(r.out, "libc.so.6 getpid 7\n\n%lu\n%n", &all, &used), 1, "%s", r.out);
	/* getpid's 7 and at least the start-up's and exit's own calls */
	cr_assert_gt(all, 7, "%s", r.out);
	cr_assert_eq((size_t)used, strlen(r.out), "%s", r.out);
	run_result_free(&r);
}

/* The fallback where the kernel has no multi-uprobe links (the 6.1 guest),
 * forced here: one uprobe a function, the same counts. */
E2E_TEST(pid, one_uprobe_a_function_without_multi_links)
{
	const char *obj = e2e_build("pid_calls_single", calls_d);
	struct run_result r;
	setenv("DCC_PID_MULTI", "0", 1);
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("pid_target"), N), obj, NULL);
	unsetenv("DCC_PID_MULTI");
	e2e_expect(&r, 0, calls_out());
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	run_result_free(&r);
}

/* The clauses of one pid probe run in the script's order, and exit() in one
 * stops those after it in the same firing (the kernel runs a uprobe's
 * programs newest first, so the loader attaches them last clause first) */
E2E_TEST(pid, clauses_run_in_order_and_exit_stops_the_later_ones)
{
	const char *obj = e2e_build("pid_clause_order",
		"#pragma D option quiet\n"
		"pid$target:a.out:dcc_pid_target_fn:return { printf(\"first %d\\n\", arg1); }\n"
		"pid$target:a.out:dcc_pid_target_fn:return /arg1 == 7/ { printf(\"second\\n\");\n"
		"    exit(0); }\n"
		"pid$target:a.out:dcc_pid_target_fn:return { printf(\"third %d\\n\", arg1); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("pid_target"), N), obj, NULL);
	e2e_expect(&r, 0, "first 4\nthird 4\nfirst 7\nsecond\n\n");
	run_result_free(&r);
}

/* A macro argument in a description is its text, as in DTrace: pid$1 with
 * the process's id as $1 is pidNNN */
E2E_TEST(pid, macro_argument_names_the_process)
{
	const char *targv[] = { e2e_trigger("pid_target"), "3", "1500", NULL };
	struct e2e_bg t;
	e2e_bg_start(&t, targv);
	const char *src = e2e_fmt("%s/pid_dollar1.d", e2e_dir);
	const char *text = "#pragma D option quiet\n"
			   "pid$1:a.out:dcc_pid_target_fn:entry { printf(\"%s %d\\n\", probeprov == "
			   "strjoin(\"pid\", $$1) ? \"ok\" : probeprov, arg0); }\n"
			   "pid$1:a.out:dcc_pid_target_fn:entry /arg0 == 3/ { exit(0); }\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	struct run_result r, tr;
	e2e_run(&r, DCC_BIN, "run", "-s", src, e2e_fmt("%d", (int)t.pid), NULL);
	e2e_bg_finish(&t, &tr, 10);
	e2e_expect(&r, 0, "ok 1\nok 2\nok 3\n\n");
	run_result_free(&r);
	run_result_free(&tr);

	/* an argument not given is an error naming it, at the description */
	src = e2e_fmt("%s/pid_dollar2.d", e2e_dir);
	text = "BEGIN {}\npid$target:a.out:f$2:entry {}\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	e2e_run(&r, DCC_BIN, "run", "-s", src, "1", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "*pid_dollar2.d:2:1: error: macro argument $2 is not defined",
		       "pid$target:a.out:f$2:entry {}", "^~~~~~~~~~~~~~~~~~~~~~~~~~", NULL);
	run_result_free(&r);
}

/* Of aliases at one address, the probe is named as DTrace names it: a weak
 * name before a local one, then the fewest leading underscores; whichever
 * alias a description names finds it, so a clause naming both fires twice */
E2E_TEST(pid, aliases_name_the_probe_as_dtrace_does)
{
	const char *obj = e2e_build("pid_alias",
		"#pragma D option quiet\n"
		"pid$target:a.out:_dcc_alias_glob:entry, pid$target:a.out:dcc_alias_glob:entry,\n"
		"pid$target:a.out:dcc_alias_stat:entry { @[probefunc] = count(); }\n"
		"END { printa(\"%s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 3", e2e_trigger("pid_alias")), obj, NULL);
	e2e_expect(&r, 0, "_dcc_alias_stat 3\ndcc_alias_glob 6\n\n");
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	run_result_free(&r);
}

/* A library named without its version, as DTrace allows: libc.so is
 * libc.so.6, and the probe's module is the file's name */
E2E_TEST(pid, library_named_without_its_version)
{
	const char *obj = e2e_build("pid_libc_so",
		"pid$target:libc.so:getpid:entry { @[probemod, probefunc] = count(); }\n"
		"END { printa(\"%s %s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 4", e2e_trigger("pid_target")), obj,
		NULL);
	e2e_expect(&r, 0, "libc.so.6 getpid 4\n\n");
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	run_result_free(&r);
}
