/*
 * cpc on this kernel: perf's software events, and a hardware one without a
 * PMU.
 *
 * touch_pages writes one byte to each of N fresh pages between two
 * getppid() calls: cpc:::page-faults-user-1 fires exactly N times in that
 * span, and never in kernel mode (an aggregation without data prints
 * nothing).
 */
#include "e2e.h"

#define PAGES 1000

E2E_TEST(cpc, page_faults_user_fire_once_per_touched_page)
{
	const char *obj = e2e_build("cpc",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ { self->on ^= 1; }\n"
		"cpc:::page-faults-user-1 /self->on/ { @user = count(); }\n"
		"cpc:::page-faults-all-1 /self->on/ { @all = count(); }\n"
		"cpc:::page-faults-kernel-1 /self->on/ { @kernel = count(); }\n"
		"END\n"
		"{\n"
		"	printa(\"user %@d\\n\", @user);\n"
		"	printa(\"all %@d\\n\", @all);\n"
		"	printa(\"kernel %@d\\n\", @kernel);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("touch_pages"), PAGES), obj,
		NULL);
	e2e_expect(&r, 0, e2e_fmt("user %d\nall %d\n\n", PAGES, PAGES));
	run_result_free(&r);
}

/* DTrace's spelling of perf's events, '_' for '-' ("page_faults"), names the
 * same event; probename keeps the spelling the script used. */
E2E_TEST(cpc, underscore_spelling_names_the_same_event)
{
	const char *obj = e2e_build("cpc_us",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ { self->on ^= 1; }\n"
		"cpc:::page_faults-user-1 /self->on/ { @[probename] = count(); }\n"
		"END { printa(\"%s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("touch_pages"), PAGES), obj,
		NULL);
	e2e_expect(&r, 0, e2e_fmt("page_faults-user-1 %d\n\n", PAGES));
	run_result_free(&r);
}

E2E_TEST(cpc, hardware_event_without_a_pmu_is_refused_by_name)
{
	const char *obj = e2e_build("cycles", "cpc:::cycles-all-1000000 { @ = count(); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\nstdout: %s\nstderr: %s", r.status, r.out, r.err);
	e2e_expect_err(&r, "dtrun: cpc event cycles is counted by the CPU's performance "
		       "monitoring unit (PMU), and this machine has none that the kernel can use",
		       NULL);
	run_result_free(&r);
}
