/*
 * How a trace starts and ends: exit(n) and the exit status, END after ^C or
 * SIGTERM, the -c command's exit, tick and profile probes, -o and -x quiet,
 * the default (non-quiet) output, and the built-ins BEGIN sees.
 */
#include "e2e.h"

E2E_TEST(lifecycle, exit_status_3)
{
	const char *obj = e2e_build("exit3", "BEGIN\n{\n\texit(3);\n}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 3, "lifecycle.exit_status_3");
	run_result_free(&r);
}

E2E_TEST(lifecycle, exit_status_after_output)
{
	const char *obj = e2e_build("exit42", "BEGIN\n{\n\tprintf(\"bye\\n\");\n\texit(42);\n}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 42, "lifecycle.exit_status_after_output");
	run_result_free(&r);
}

/* Start dtrun (not quiet), wait for the matched-probes line, send sig; END's
 * printf and the aggregation printout must follow. */
static void end_after_signal(int sig)
{
	const char *obj = e2e_build_src("tst.sigint");
	const char *argv[] = { "/usr/bin/taskset", "-c", "0", DTRUN_BIN, obj, NULL };
	struct e2e_bg b;
	e2e_bg_start(&b, argv);
	bool up = e2e_bg_wait_err(&b, "matched", 20);
	kill(b.pid, up ? sig : SIGKILL);
	struct run_result r;
	e2e_bg_finish(&b, &r, 20);
	cr_assert(up, "dtrun never printed its matched-probes line; stderr:\n%s", r.err);
	e2e_expect_err(&r, "dtrun: script '*tst.sigint.d' matched 2 probes", NULL);
	e2e_expect_out(&r, 0, "lifecycle.end_after_signal");
	run_result_free(&r);
}

E2E_TEST(lifecycle, end_after_sigint)
{
	end_after_signal(SIGINT);
}

E2E_TEST(lifecycle, end_after_sigterm)
{
	end_after_signal(SIGTERM);
}

E2E_TEST(lifecycle, command_exit_ends_the_trace)
{
	const char *obj = e2e_build_src("tst.cmd_end");
	struct run_result r;
	double t0 = e2e_now();
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 300", e2e_trigger("sleep_ms")), obj, NULL);
	double took = e2e_now() - t0;
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	cr_assert_eq(r.status, 0, "status %d", r.status);
	int ms = -1;
	char nl[3] = "";
	cr_assert_eq(sscanf(r.out, "ms=%d%2c", &ms, nl), 2, "output %s", e2e_show(r.out));
	cr_assert_str_eq(nl, "\n\n", "output %s", e2e_show(r.out));
	cr_assert(ms >= 300 && ms < 3000, "END came %d ms after BEGIN for a 300 ms command", ms);
	cr_assert(took < 8, "dtrun took %.1f s for a 300 ms command", took);
	run_result_free(&r);
}

/* A -c command's exit status does not become dtrun's. */
E2E_TEST(lifecycle, command_status_is_not_ours)
{
	const char *obj = e2e_build_src("tst.cmd_end");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 10 7", e2e_trigger("sleep_ms")), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	run_result_free(&r);
}

E2E_TEST(lifecycle, tick_fires_once_then_exit)
{
	const char *obj = e2e_build_src("tst.tick_once");
	struct run_result r;
	double t0 = e2e_now();
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	double took = e2e_now() - t0;
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 0, "lifecycle.tick_fires_once_then_exit");
	cr_assert(took >= 0.1 && took < 5, "tick-100ms run took %.2f s", took);
	run_result_free(&r);
}

E2E_TEST(lifecycle, tick_counts_with_a_global)
{
	const char *obj = e2e_build_src("tst.tick_count");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 0, "lifecycle.tick_counts_with_a_global");
	run_result_free(&r);
}

E2E_TEST(lifecycle, profile_fires_on_cpus)
{
	const char *obj = e2e_build_src("tst.profile");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	cr_assert_eq(r.status, 0);
	long long n = -1;
	cr_assert_eq(sscanf(r.out, "\n  fired %lld", &n), 1, "output %s", e2e_show(r.out));
	cr_assert_str_eq(r.out, e2e_fmt("\n%s", e2e_agg_row("fired", n)));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/* 100 Hz on each CPU for about one second. */
	cr_assert(n >= 50 && n <= cpus * 100 * 3 / 2, "profile-100hz fired %lld times on %ld CPUs",
		  n, cpus);
	run_result_free(&r);
}

E2E_TEST(lifecycle, default_output_not_quiet)
{
	const char *obj = e2e_build_src("tst.default_output");
	const char *argv[] = { "/usr/bin/taskset", "-c", "0", DTRUN_BIN, obj, NULL };
	struct run_result r;
	e2e_runv(&r, E2E_TIMEOUT, argv);
	e2e_expect_err(&r, "dtrun: script '*tst.default_output.d' matched 2 probes", NULL);
	e2e_expect_out(&r, 0, "lifecycle.default_output_not_quiet");
	run_result_free(&r);
}

/* -o FILE: output goes to the file, appended on each run; stdout stays empty. */
E2E_TEST(lifecycle, output_file_appends)
{
	const char *obj = e2e_build("ofile", "BEGIN\n{\n\tprintf(\"to the file\\n\");\n"
				    "\texit(0);\n}\n");
	const char *out = e2e_tmp("out.txt");
	for (int i = 0; i < 2; i++) {
		struct run_result r;
		e2e_run(&r, DTRUN_BIN, "-q", "-o", out, obj, NULL);
		cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
		e2e_expect(&r, 0, "");
		run_result_free(&r);
	}
	char *got = e2e_keep(read_file(out, NULL));
	cr_assert_not_null(got, "-o did not create %s", out);
	e2e_assert_file(out, got, "lifecycle.output_file_appends");
}

/* -x quiet is -q. */
E2E_TEST(lifecycle, x_quiet_option)
{
	const char *obj = e2e_build("xquiet", "BEGIN\n{\n\tprintf(\"q\\n\");\n\texit(0);\n}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-x", "quiet", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 0, "lifecycle.x_quiet_option");
	run_result_free(&r);
}

/* pid, ppid, tid, execname... of the dtrun process itself, which runs BEGIN;
 * timestamp and walltimestamp inside the run's time window. */
E2E_TEST(lifecycle, builtins_in_begin)
{
	const char *obj = e2e_build_src("tst.builtins_begin");
	const char *argv[] = { "/usr/bin/taskset", "-c", "1", DTRUN_BIN, "-q", obj, NULL };
	struct timespec m0, m1, w0, w1;
	clock_gettime(CLOCK_MONOTONIC, &m0);
	clock_gettime(CLOCK_REALTIME, &w0);
	struct e2e_bg b;
	e2e_bg_start(&b, argv);
	struct run_result r;
	e2e_bg_finish(&b, &r, E2E_TIMEOUT);
	clock_gettime(CLOCK_MONOTONIC, &m1);
	clock_gettime(CLOCK_REALTIME, &w1);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	cr_assert_eq(r.status, 0);

	char *l2 = strchr(r.out, '\n');
	cr_assert_not_null(l2, "output %s", e2e_show(r.out));
	*l2++ = 0;
	e2e_assert_file("stdout", r.out, "lifecycle.builtins_in_begin");
	char comm[32];
	int pid, ppid, tid, uid, gid, cpu, target, err, n;
	unsigned long long ts, wts;
	n = sscanf(l2, "%31s %d %d %d %d %d\n%d %d %d\n%llu %llu\n", comm, &pid, &ppid, &tid, &uid,
		   &gid, &cpu, &target, &err, &ts, &wts);
	cr_assert_eq(n, 11, "output line 2.. %s", e2e_show(l2));
	cr_assert_str_eq(comm, "dtrun");
	cr_assert_eq(pid, b.pid, "pid %d, dtrun is %d", pid, (int)b.pid);
	cr_assert_eq(tid, b.pid);
	cr_assert_eq(ppid, getpid(), "ppid %d, the test is %d", ppid, (int)getpid());
	cr_assert_eq(uid, 0);
	cr_assert_eq(gid, 0);
	cr_assert_eq(cpu, 1, "cpu %d under taskset -c 1", cpu);
	cr_assert_eq(target, 0, "$target without -c/-p");
	cr_assert_eq(err, 0);
	unsigned long long lo = m0.tv_sec * 1000000000ULL + m0.tv_nsec;
	unsigned long long hi = m1.tv_sec * 1000000000ULL + m1.tv_nsec;
	cr_assert(ts >= lo && ts <= hi, "timestamp %llu outside [%llu, %llu]", ts, lo, hi);
	lo = w0.tv_sec * 1000000000ULL + w0.tv_nsec - 1000000000ULL;
	hi = w1.tv_sec * 1000000000ULL + w1.tv_nsec + 1000000000ULL;
	cr_assert(wts >= lo && wts <= hi, "walltimestamp %llu outside [%llu, %llu]", wts, lo, hi);
	run_result_free(&r);
}

E2E_TEST(lifecycle, clause_locals_shared_by_one_firing)
{
	const char *obj = e2e_build_src("tst.clause_locals");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_script_out(&r, 0, "tst.clause_locals");
	run_result_free(&r);
}

/* `dcc run -n` with -c: the one-liner. */
E2E_TEST(lifecycle, dcc_run_n_with_command)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n",
		"syscall::getppid:entry /pid == $target/ { @[probefunc] = count(); }", "-c",
		e2e_fmt("%s 33", e2e_trigger("getppid_n")), NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 0, e2e_fmt("\n%s", e2e_agg_row("getppid", 33)));
	run_result_free(&r);
}

/* Not quiet, `dcc run -n` says "description '...' matched N probe(s)". */
E2E_TEST(lifecycle, dcc_run_n_description_line)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-n", "BEGIN { exit(0); }", NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dcc: description 'BEGIN*' matched 1 probe", NULL);
	run_result_free(&r);
}

/* $1, $2... are the arguments after the script name, at compile time. */
E2E_TEST(lifecycle, macro_arguments)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-s", e2e_src("tst.macro_args.d"), "40", "2", NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 0, "lifecycle.macro_arguments.1");
	run_result_free(&r);
	/* and baked into an object by `dcc script.d args -o obj` */
	const char *obj = e2e_tmp("args.bpf.o");
	e2e_run(&r, DCC_BIN, e2e_src("tst.macro_args.d"), "7", "-3", "-o", obj, NULL);
	cr_assert_eq(r.status, 0, "dcc: %s", r.err);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "lifecycle.macro_arguments.2");
	run_result_free(&r);
}

/* Quiet trace(): bare values; no newline after the record in quiet mode. */
E2E_TEST(lifecycle, trace_quiet)
{
	const char *obj = e2e_build_src("tst.trace_quiet");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 0, "lifecycle.trace_quiet");
	run_result_free(&r);
}

/* -w says so on stderr, as dtrace does, unless quiet. */
E2E_TEST(lifecycle, destructive_notice)
{
	const char *obj = e2e_build("w", "BEGIN\n{\n\texit(0);\n}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-w", obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "dtrun: allowing destructive actions\n"), "stderr:\n%s", r.err);
	run_result_free(&r);
}

E2E_TEST(lifecycle, exit_from_a_syscall_probe)
{
	const char *obj = e2e_build_src("tst.exit_from_syscall");
	struct run_result r;
	double t0 = e2e_now();
	/* getppid_n 1 0 30: one call, then 30 s of sleep the trace must not wait for */
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s 1 0 30", e2e_trigger("getppid_n")), obj,
		NULL);
	double took = e2e_now() - t0;
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 5, "lifecycle.exit_from_a_syscall_probe");
	cr_assert(took < 10, "dtrun took %.1f s to act on exit()", took);
	run_result_free(&r);
}

/* Several -n descriptions are one program, their clauses in command-line order. */
E2E_TEST(lifecycle, several_n_descriptions)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n", "BEGIN { printf(\"a\\n\"); }", "-n",
		"BEGIN { printf(\"b\\n\"); exit(0); }", NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect_out(&r, 0, "lifecycle.several_n_descriptions");
	run_result_free(&r);
}

/* The first exit() decides: it stops the later clauses of the same firing
 * (BEGIN's too) and every other probe at once; only END's exit() replaces it. */
E2E_TEST(lifecycle, first_exit_wins)
{
	const char *obj = e2e_build("exit_first",
				    "BEGIN { exit(4); }\n"
				    "BEGIN { printf(\"second BEGIN clause\\n\"); exit(5); }\n"
				    "tick-1ms { printf(\"tick\\n\"); exit(6); }\n"
				    "END { printf(\"end\\n\"); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 4, "end\n\n");
	run_result_free(&r);
}

E2E_TEST(lifecycle, end_exit_replaces_the_status)
{
	const char *obj = e2e_build("exit_end", "BEGIN { exit(4); }\n"
						"END { printf(\"end\\n\"); exit(2); }\n"
						"END { printf(\"end again\\n\"); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 2, "end\nend again\n\n");
	run_result_free(&r);
}

/* No probe fires before BEGIN is done: dtrun's own write of its matched-probes
 * line comes before BEGIN, and must not be traced. */
E2E_TEST(lifecycle, nothing_before_begin)
{
	const char *obj = e2e_build("before_begin",
				    "syscall::write:entry /pid == $pid/ { exit(1); }\n"
				    "BEGIN { printf(\"begin\"); }\n");
	struct run_result r;
	e2e_run(&r, "/usr/bin/taskset", "-c", "0", DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	const char *b = strstr(r.out, ":BEGIN begin\n"), *w = strstr(r.out, "write:entry \n");
	cr_assert(b && w && b < w, "BEGIN's line must come first:\n%s", r.out);
	run_result_free(&r);
}

/* All clauses of one timer probe run in the same firing, in source order:
 * two counting clauses of profile-97 count alike, a thread-local variable
 * set by one tick clause is seen by the next, and a clause that faults
 * leaves the following ones to run. tick-1ms and tick-100ms stay separate
 * probes, each with its own timer. timestamp is one value a firing: the
 * last clause reads what the first one stored (per CPU, as profile-97 fires
 * on all of them at once), and a firing never reads the one before's. */
E2E_TEST(lifecycle, clauses_of_a_timer_probe_share_its_firing)
{
	const char *obj = e2e_build("timer_clauses",
		"#pragma D option quiet\n"
		"profile-97 { @a = count(); p[cpu] = timestamp; }\n"
		"profile-97 { @b = count(); @pm = sum(timestamp != p[cpu]); }\n"
		"tick-1ms { @r = sum(timestamp == t); t = timestamp; self->x = 1; @c = count(); }\n"
		"tick-1ms { x = *(int *)0; }\n"
		"tick-1ms /self->x/ { self->x = 0; @d = count(); @m = sum(timestamp != t); }\n"
		"tick-300ms { exit(0); }\n"
		"ERROR { @e = count(); }\n"
		"END { printa(\"%@d %@d %@d\\n\", @a, @b, @pm);\n"
		"      printa(\"%@d %@d %@d %@d %@d\\n\", @c, @d, @e, @m, @r); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	long long a, b, pm, c, d, e, m, rep;
	cr_assert_eq(sscanf(r.out, "%lld %lld %lld %lld %lld %lld %lld %lld", &a, &b, &pm, &c, &d,
			    &e, &m, &rep), 8, "output:\n%s\nstderr:\n%s", r.out, r.err);
	cr_assert(a > 0 && a == b, "profile-97's clauses counted %lld and %lld", a, b);
	cr_assert(c > 0 && c == d && d == e, "tick-1ms's clauses counted %lld, %lld, %lld", c,
		  d, e);
	cr_assert_eq(pm, 0, "profile-97's second clause saw another timestamp %lld times", pm);
	cr_assert_eq(m, 0, "tick-1ms's last clause saw another timestamp %lld times", m);
	cr_assert_eq(rep, 0, "a tick-1ms firing read the last one's timestamp %lld times", rep);
	run_result_free(&r);
}

/* The same for the clauses of a syscall probe, each a program of its own:
 * 50 firings, each reading one timestamp in all three clauses (walltimestamp
 * is the same instant), and never the firing before's. */
E2E_TEST(lifecycle, clauses_of_a_syscall_probe_share_its_timestamp)
{
	const char *obj = e2e_build("syscall_firing",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	@r = sum(timestamp == self->t); self->t = timestamp;\n"
		"	self->w = walltimestamp; @n = count(); }\n"
		"syscall::getppid:entry /pid != $target/ { self->t = 0; }\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	@m = sum(timestamp != self->t); @k = count(); }\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	@m = sum(walltimestamp != self->w); @k = count(); }\n"
		"END { printa(\"%@d %@d %@d %@d\\n\", @n, @k, @m, @r); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 50", e2e_trigger("getppid_n")), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "50 100 0 0\n\n");
	run_result_free(&r);
}

/* exit() stops the probes at once; with a statusrate the trace ends at the
 * next status check (here 1.5 s after the start), without one right away */
E2E_TEST(lifecycle, statusrate_paces_the_end_after_exit)
{
	const char *text = "#pragma D option quiet\n"
			   "BEGIN { start = timestamp; }\n"
			   "tick-100ms { exit(0); n++; }\n"
			   "END { printf(\"%d %d\\n\", n, (timestamp - start) / 500000000); }\n";
	const char *paced = e2e_build("statusrate_paced", e2e_fmt("#pragma D option "
								    "statusrate=1500ms\n%s",
								    text));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, paced, NULL);
	/* END runs after the check at 1.5 s: 3 half-seconds, rarely 4 on a
	 * loaded machine; the tick fired once */
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(!strcmp(r.out, "1 3\n\n") || !strcmp(r.out, "1 4\n\n"), "%s", r.out);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, e2e_build("statusrate_unset", text), NULL);
	e2e_expect(&r, 0, "1 0\n\n");
	run_result_free(&r);
}

/* The matched-probes line counts enablings as DTrace does: a probe once for
 * each probe description of each clause that names it. Here BEGIN is named
 * by three clauses and END by one: 4, though only 2 distinct probes. */
E2E_TEST(lifecycle, matched_counts_each_clause)
{
	const char *obj = e2e_build("enablings", "BEGIN { x = 1; }\n"
					       "BEGIN, END { y = 2; }\n"
					       "BEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect_err(&r, "dtrun: script '*enablings.d' matched 4 probes", NULL);
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "run", "-n", "BEGIN, dtrace:::BEGIN { exit(0); }", NULL);
	e2e_expect_err(&r, "dcc: description 'BEGIN*' matched 2 probes", NULL);
	run_result_free(&r);
}

/*
 * A clause runs once per description that matches the firing probe, as
 * DTrace enables it once per description: BEGIN listed twice runs twice
 * before the next clause; getppid named three times (once by a glob) counts
 * each call three times while a clause naming it once counts it once.
 */
E2E_TEST(lifecycle, clause_runs_once_per_matching_description)
{
	const char *obj = e2e_build("repeat",
		"#pragma D option quiet\n"
		"BEGIN, BEGIN { n++; printf(\"begin %d\\n\", n); }\n"
		"BEGIN { printf(\"next %d\\n\", n); }\n"
		"syscall::getppid:entry, syscall::getppid:entry, syscall::getpp*:entry\n"
		"/pid == $target/ { @three = count(); }\n"
		"syscall::getppid:entry /pid == $target/ { @one = count(); }\n"
		"END { printa(\"three %@d\\n\", @three); printa(\"one %@d\\n\", @one); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 7", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "begin 1\nbegin 2\nnext 2\nthree 21\none 7\n\n");
	run_result_free(&r);
}

/* A tick listed twice runs its clause twice per firing, in one firing: the
 * next clause sees an even count each time. */
E2E_TEST(lifecycle, timer_listed_twice_runs_twice_per_firing)
{
	const char *obj = e2e_build("repeat_tick",
		"#pragma D option quiet\n"
		"tick-1ms, tick-1ms { t++; }\n"
		"tick-1ms /t % 2/ { printf(\"odd %d\\n\", t); }\n"
		"tick-1ms /t >= 6/ { printf(\"t %d\\n\", t); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "t 6\n\n");
	run_result_free(&r);
}
