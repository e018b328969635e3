/*
 * USDT probes on this kernel. The usdt_sdt trigger (<sys/sdt.h>) fires
 * dcctest:tick(i, -1000 * i, (short)(7 * i), 42) and dcctest:query__done(i)
 * for i = 1..N, its arguments a 32-bit register, a 64-bit register, a
 * stack slot and a constant; usdt_hdr fires dcchdr:::tick(i, i * i *
 * 1000000007, "tick-I") and dcchdr:::loop-end(N) from the header dcc -h made
 * of its D provider definition. Each says on stderr how often its
 * semaphore (PROBE_ENABLED()) was seen set: every time while traced, never
 * otherwise.
 */
#include "e2e.h"

#define N 5

static const char sdt_d[] =
	"#pragma D option quiet\n"
	"dcctest$target:::tick\n"
	"{\n"
	"	printf(\"%s %s %s %s %d %d %d %d\\n\", probeprov == strjoin(\"dcctest\",\n"
	"	    lltostr($target)) ? \"prov ok\" : probeprov, probemod, probefunc, probename,\n"
	"	    args[0], arg1, arg2, arg3);\n"
	"}\n"
	"dcctest$target::dcc_usdt_work:query-done { @[probename] = sum(arg0); }\n"
	"END { printa(\"%s %@d\\n\", @); }\n";

static const char *sdt_out(void)
{
	char *want = e2e_keep(calloc(1, 4096));
	for (int i = 1; i <= N; i++)
		sprintf(want + strlen(want), "prov ok usdt_sdt dcc_usdt_work tick %d %d %d 42\n", i,
			-1000 * i, 7 * i);
	sprintf(want + strlen(want), "query-done %d\n\n", N * (N + 1) / 2);
	return want;
}

E2E_TEST(usdt, c_command_args_names_and_semaphore)
{
	const char *obj = e2e_build("usdt_sdt", sdt_d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("usdt_sdt"), N), obj, NULL);
	e2e_expect(&r, 0, sdt_out());
	e2e_expect_err(&r, e2e_fmt("enabled %d of %d", N, N), NULL);
	run_result_free(&r);
}

/* -p: the semaphore of a process already running is set when attached */
E2E_TEST(usdt, p_running_process)
{
	const char *obj = e2e_build("usdt_sdt_p", sdt_d);
	const char *targv[] = { e2e_trigger("usdt_sdt"), e2e_fmt("%d", N), "2500", NULL };
	struct e2e_bg t;
	e2e_bg_start(&t, targv);
	struct run_result r, tr;
	e2e_run(&r, DTRUN_BIN, "-q", "-p", e2e_fmt("%d", (int)t.pid), obj, NULL);
	e2e_bg_finish(&t, &tr, 10);
	cr_assert_eq(tr.status, 0, "trigger status %d", tr.status);
	cr_assert_str_eq(tr.err, e2e_fmt("enabled %d of %d\n", N, N));
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 0, sdt_out());
	run_result_free(&r);
	run_result_free(&tr);
}

/* a glob over the providers, counting every note's firings */
E2E_TEST(usdt, glob_provider)
{
	const char *obj = e2e_build("usdt_glob",
		"#pragma D option quiet\n"
		"dcc*:::{ @[probename] = count(); }\n"
		"END { printa(\"%s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("usdt_sdt"), N), obj, NULL);
	e2e_expect(&r, 0, e2e_fmt("query-done %d\ntick %d\n\n", N, N));
	e2e_expect_err(&r, e2e_fmt("enabled %d of %d", N, N), NULL);
	run_result_free(&r);
}

/* probes declared in D, through dcc -h's header */
E2E_TEST(usdt, dcc_h_header_probes)
{
	const char *obj = e2e_build("usdt_hdr",
		"#pragma D option quiet\n"
		"dcchdr$target:::tick { printf(\"%s %s %d %d %s\\n\", probefunc, probename, arg0,\n"
		"    arg1, copyinstr(arg2)); }\n"
		"dcchdr$target:::loop-end { printf(\"%s %d\\n\", probename, args[0]); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("usdt_hdr"), N), obj, NULL);
	char *want = e2e_keep(calloc(1, 4096));
	for (long long i = 1; i <= N; i++)
		sprintf(want + strlen(want), "main tick %lld %lld tick-%lld\n", i,
			i * i * 1000000007LL, i);
	sprintf(want + strlen(want), "loop-end %d\n\n", N);
	e2e_expect(&r, 0, want);
	e2e_expect_err(&r, e2e_fmt("enabled %d of %d", N, N), NULL);
	run_result_free(&r);
}

/* the default output names each note's probe: provider and pid, function */
E2E_TEST(usdt, default_output_and_matched_count)
{
	const char *obj = e2e_build("usdt_default", "dcctest$target:::tick /arg0 == 2/ {}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 3", e2e_trigger("usdt_sdt")), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	const char *nl = strchr(r.out, '\n');
	cr_assert_not_null(nl, "%s", r.out);
	cr_assert_str_eq(nl + 1 + strspn(nl + 1, " 0123456789"), "dcc_usdt_work:tick \n\n",
			 "output:\n%s", r.out);
	e2e_expect_err(&r, "dtrun: script '*usdt_default.d' matched 1 probe", "enabled 3 of 3",
		       "dtrun: pid * has exited", NULL);
	run_result_free(&r);
}

E2E_TEST(usdt, description_matching_no_note_is_an_error_naming_it)
{
	const char *obj = e2e_build("usdt_none", "dcctest$target:::no-such-probe {}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 1", e2e_trigger("usdt_sdt")), obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: probe description dcctest$target:::no-such-probe does not "
		       "match any probes in pid *", NULL);
	run_result_free(&r);
}

E2E_TEST(usdt, target_without_a_process_is_an_error)
{
	const char *obj = e2e_build("usdt_notarget", "dcctest$target:::tick {}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: dcctest$target:::tick: $target needs a process: run with -c "
		       "or -p", NULL);
	run_result_free(&r);
}

/* Globals passed at -O2 are %rip-relative operands ("-8@dcc_glob_count(%rip)",
 * "-4@8+dcc_glob_pair(%rip)"): read from the process's memory at the
 * symbol's run-time address, in a PIE loaded wherever the kernel chose */
E2E_TEST(usdt, rip_relative_global_operands)
{
	struct run_result r;
	e2e_run(&r, "/usr/bin/readelf", "-n", e2e_trigger("usdt_global"), NULL);
	cr_assert(strstr(r.out, "-8@dcc_glob_count(%rip) -4@8+dcc_glob_pair(%rip) "
			 "-2@dcc_glob_small(%rip)"), "the trigger's operands:\n%s", r.out);
	run_result_free(&r);
	const char *obj = e2e_build("usdt_global",
		"#pragma D option quiet\n"
		"dccglob$target:::state { printf(\"%d %d %d %d\\n\", arg3, arg0, arg1, arg2); }\n");
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("usdt_global"), N), obj, NULL);
	char *want = e2e_keep(calloc(1, 4096));
	for (int i = 1; i <= N; i++)
		sprintf(want + strlen(want), "%d %d %d %d\n", i, 7 + 1000 * i * (i + 1) / 2,
			-3 * i, 5 * i);
	e2e_expect(&r, 0, strcat(want, "\n"));
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	run_result_free(&r);
}
