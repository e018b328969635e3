/*
 * The samples and the probe list, on this kernel: hello.d run through
 * `dcc run`, and `dcc -l` listing every probe (tracefs's providers need
 * root). What needs no kernel is in tests/compile/test_object.c.
 */
#include "e2e.h"

E2E_TEST(object, hello_sample_runs)
{
	struct run_result r;
	const char *argv[] = { "/usr/bin/taskset", "-c", "0", DCC_BIN, "run", "-s",
			       e2e_fmt("%s/../samples/hello.d", TESTS_SRC_DIR), NULL };
	e2e_runv(&r, E2E_TIMEOUT, argv);
	e2e_expect_err(&r, "dcc: script '*hello.d' matched 1 probe", NULL);
	e2e_expect_out(&r, 0, "object.hello_sample_runs");
	run_result_free(&r);
}

/* dcc -l alone lists everything; tracefs's providers need root. */
E2E_TEST(object, list_all_probes)
{
	struct run_result r;

	/* everything: every syscall both ways, fbt entry and return alike */
	e2e_run(&r, DCC_BIN, "-l", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	int sys = 0, fentry = 0, fret = 0, sched = 0, proc = 0, io = 0;
	for (char *l = r.out; (l = strchr(l, '\n')) && l[1]; l++) {
		char prov[32], mod[64], func[256], name[256];
		unsigned id;
		if (sscanf(l + 1, "%u %31s %63s %255s %255s", &id, prov, mod, func, name) != 5)
			continue;
		sys += !strcmp(prov, "syscall");
		sched += !strcmp(prov, "sched");
		proc += !strcmp(prov, "proc");
		io += !strcmp(prov, "io");
		fentry += !strcmp(prov, "fbt") && !strcmp(name, "entry");
		fret += !strcmp(prov, "fbt") && !strcmp(name, "return");
	}
	cr_assert_gt(sys, 600, "%d syscall probes", sys);
	cr_assert_gt(fentry, 1000, "%d fbt entry probes", fentry);
	cr_assert_eq(fentry, fret);
	/* the providers dcc makes of tracepoints, each probe once */
	cr_assert_eq(proc, 10, "%d proc probes", proc);
	cr_assert_eq(sched, 6, "%d sched probes", sched);
	cr_assert_eq(io, 2, "%d io probes", io);
	run_result_free(&r);
}
