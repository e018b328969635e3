/*
 * USDT without the kernel: the usdt_sdt trigger's semaphore is clear when
 * nothing traces it, and dcc -l lists a USDT description's notes from a
 * process it starts (-c), stopped at its entry point (ptrace, no BPF).
 */
#include <string.h>
#include "e2e/e2e.h"

/* untraced, the semaphore stays 0 */
NOKERNEL_TEST(usdt, semaphore_clear_without_a_tracer)
{
	const char *argv[] = { e2e_trigger("usdt_sdt"), "3", NULL };
	struct run_result r;
	e2e_runv(&r, E2E_TIMEOUT, argv);
	e2e_expect(&r, 0, "");
	e2e_expect_err(&r, "enabled 0 of 3", NULL);
	run_result_free(&r);
}

/* dcc -l -c: the notes of the command, started and stopped at its entry */
NOKERNEL_TEST(usdt, list_with_c)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-l", "-c", e2e_fmt("%s 1", e2e_trigger("usdt_sdt")), "-n",
		"dcctest$target:::", NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	/* the provider column has the command's pid */
	char *out = e2e_keep(calloc(1, strlen(r.out) + 64)), *o = out;
	for (const char *p = r.out; *p;) {
		if (!strncmp(p, "dcctest", 7) && p[7] >= '0' && p[7] <= '9') {
			o = stpcpy(o, "dcctest$PID");
			p += 7 + strspn(p + 7, "0123456789");
		} else {
			*o++ = *p++;
		}
	}
	e2e_assert_bytes("dcc -l", out,
		"   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		"1048576 dcctest$PID          usdt_sdt                     dcc_usdt_work tick\n"
		"1048577 dcctest$PID          usdt_sdt                     dcc_usdt_work query-done\n");
	run_result_free(&r);
	/* without a process, the description cannot be listed */
	e2e_run(&r, DCC_BIN, "-l", "-n", "dcctest$target:::", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_assert_bytes("stderr", r.err,
		"<description>:1:1: error: dcctest$target probes exist once the process does: list "
		"them with -p PID or -c CMD\ndcctest$target:::\n^~~~~~~~~~~~~~~~~\n");
	run_result_free(&r);
}
