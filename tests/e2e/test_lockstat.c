/*
 * lockstat on this kernel: lock_contend's threads share one file's
 * position, which the kernel guards with a mutex, so they contend on it,
 * which the kernel's contention tracepoints report as mutex spins and
 * blocks (adaptive-spin and adaptive-block). How many contentions a run
 * has depends on the scheduler, so the test asserts that there were some,
 * each with a lock address and a positive time. A pthread mutex would not
 * do: a futex is no kernel lock, and the contention tracepoints do not see
 * it.
 */
#include "e2e.h"

E2E_TEST(lockstat, mutex_contention_between_threads_on_one_file)
{
	const char *obj = e2e_build("lockstat",
		"#pragma D option quiet\n"
		"lockstat:::adaptive-spin, lockstat:::adaptive-block /pid == $target/\n"
		"{\n"
		"	@any = max(1);\n"
		"	@bad = sum(arg0 == 0 || args[1] == 0 || args[0] != (void *)arg0);\n"
		"}\n"
		"END\n"
		"{\n"
		"	printa(\"contended %@d\\n\", @any);\n"
		"	printa(\"without a lock or a time %@d\\n\", @bad);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 8 20000", e2e_trigger("lock_contend")), obj,
		NULL);
	e2e_expect(&r, 0, "contended 1\nwithout a lock or a time 0\n\n");
	run_result_free(&r);
}
