/*
 * dtrun refuses, before loading anything, an object that needs what this
 * kernel lacks, in one sentence naming it. The object is real: a compiled
 * tracepoint clause whose call of bpf_get_current_pid_tgid (helper 14) is
 * patched into bpf_skb_load_bytes (26), which the kernel allows only in
 * socket programs. A program type the kernel lacks goes through the test
 * hook DCC_TEST_MISSING (dtrun.1), since every kernel dtrun runs on has
 * the types dcc emits.
 */
#include <stddef.h>

#include "dcc/abi.h"
#include "dcc/abi_sum.h"
#include "e2e/e2e.h"

/* resum: the checksum written again, so that dtrun takes it for what dcc
 * wrote and asks the kernel only once the load fails; without, before */
static const char *patched_object(bool resum)
{
	const char *obj = e2e_build("pidcall", "syscall::getppid:entry { trace(pid); }");
	size_t len;
	unsigned char *b = e2e_keep(read_file(obj, &len));
	static const unsigned char call14[8] = { 0x85, 0, 0, 0, 14, 0, 0, 0 };
	unsigned char *at = memmem(b, len, call14, sizeof(call14));
	cr_assert_not_null(at, "no call of helper 14 in the object");
	at[4] = 26;
	if (resum)
		cr_assert_eq(abi_obj_sum_set(b, len), 0);
	const char *out = e2e_tmp(resum ? "patched_resummed.bpf.o" : "patched.bpf.o");
	cr_assert_eq(write_file(out, (char *)b, len), 0);
	return out;
}

E2E_TEST(info, refuses_a_helper_the_kernel_lacks)
{
	for (int resum = 0; resum < 2; resum++) {
		const char *obj = patched_object(resum);
		struct run_result r;
		e2e_run(&r, DTRUN_BIN, "--info", obj, NULL);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_assert(strstr(r.out, " bpf_skb_load_bytes"), "--info does not list it:\n%s",
			  r.out);
		run_result_free(&r);
		setenv("DCC_TIMING", "1", 1);
		e2e_run(&r, DTRUN_BIN, obj, NULL);
		unsetenv("DCC_TIMING");
		e2e_expect(&r, 1, "");
		/* the timing line says when the kernel was asked */
		cr_assert(strstr(r.err, resum ? "kernel check left for a failed load, " :
			  "trial open in a child, kernel check "), "%s", r.err);
		const char *want = e2e_fmt("dtrun: this kernel cannot run %s: program dcc_c1 calls "
			"helper bpf_skb_load_bytes (26), which this kernel does not allow in "
			"tracepoint programs\n", obj);
		cr_assert(strstr(r.err, want), "%s", r.err);
		int lines = 0;
		for (const char *c = r.err; *c; c++)
			lines += *c == '\n';
		cr_assert_eq(lines, 2, "the sentence and the timing line only:\n%s", r.err);
		run_result_free(&r);
	}
}

E2E_TEST(info, refuses_a_missing_program_type)
{
	const char *obj = e2e_build("begin", "BEGIN { exit(0); }");
	struct run_result r;
	setenv("DCC_TEST_MISSING", "raw_tracepoint", 1);
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	unsetenv("DCC_TEST_MISSING");
	e2e_expect(&r, 1, "");
	e2e_assert_bytes("stderr", r.err, e2e_fmt("dtrun: this kernel cannot run %s: it has no "
		"raw_tracepoint programs (program dcc_c1)\n", obj));
	run_result_free(&r);
	/* the same object runs where nothing is missing */
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect(&r, 0, "\n"); /* dtrace's blank line at the end of a quiet trace */
	run_result_free(&r);
}

/* Helpers every kernel since a release allows are not probed on each start
 * (loader/info_check.c); the test hook still refuses one, so the check is
 * still made for them. */
E2E_TEST(info, refuses_a_helper_it_need_not_probe)
{
	const char *obj = e2e_build("ringbuf", "BEGIN { printf(\"x\\n\"); exit(0); }");
	struct run_result r;
	setenv("DCC_TEST_MISSING", "raw_tracepoint:ringbuf_reserve", 1);
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	unsetenv("DCC_TEST_MISSING");
	e2e_expect(&r, 1, "");
	e2e_assert_bytes("stderr", r.err, e2e_fmt("dtrun: this kernel cannot run %s: program "
		"dcc_c1 calls helper bpf_ringbuf_reserve (131), which this kernel does not allow "
		"in raw_tracepoint programs\n", obj));
	run_result_free(&r);
}

/* `dcc run` makes the same check before loading (loader_check_kernel), so a
 * script this kernel cannot run is refused in the same sentence, naming the
 * script where dtrun names the object. Both a missing program type and a
 * missing helper, through the test hook. */
E2E_TEST(info, dcc_run_refuses_what_dtrun_refuses)
{
	static const char *const missing[][2] = {
		{ "raw_tracepoint", "it has no raw_tracepoint programs (program dcc_c1)\n" },
		{ "tracepoint:get_current_pid_tgid",
		  "program dcc_c2 calls helper bpf_get_current_pid_tgid (14), which this kernel "
		  "does not allow in tracepoint programs\n" },
	};
	const char *obj = e2e_build("dccrun_missing", "BEGIN { exit(0); }\n"
				    "syscall::getppid:entry { trace(pid); }\n");
	const char *script = e2e_tmp("dccrun_missing.d");
	struct run_result r;

	for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
		setenv("DCC_TEST_MISSING", missing[i][0], 1);
		e2e_run(&r, DTRUN_BIN, obj, NULL);
		e2e_expect(&r, 1, "");
		e2e_assert_bytes("dtrun's stderr", r.err,
				 e2e_fmt("dtrun: this kernel cannot run %s: %s", obj, missing[i][1]));
		run_result_free(&r);
		e2e_run(&r, DCC_BIN, "run", script, NULL);
		unsetenv("DCC_TEST_MISSING");
		e2e_expect(&r, 1, "");
		e2e_assert_bytes("dcc run's stderr", r.err,
				 e2e_fmt("dcc: this kernel cannot run dccrun_missing.d: %s",
					 missing[i][1]));
		run_result_free(&r);
	}
	/* where nothing is missing, it runs */
	e2e_run(&r, DCC_BIN, "run", "-q", script, NULL);
	e2e_expect(&r, 0, "\n");
	run_result_free(&r);
}

/* dcc writes a checksum of the whole object into its metadata header: an
 * object still exactly as dcc wrote it needs no trial open in a child, any
 * other is opened there first (loader/precheck.c), and both run. -v's timing
 * line says which. */
E2E_TEST(info, trial_open_only_for_an_object_not_as_dcc_wrote_it)
{
	const char *obj = e2e_build("checksum", "BEGIN { trace(7); exit(0); }");
	size_t len;
	char *b = e2e_keep(read_file(obj, &len));
	char *meta = memmem(b, len, "DCCMETA", 8);
	struct run_result r;

	cr_assert_not_null(meta);
	setenv("DCC_TIMING", "1", 1);
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert(strstr(r.err, "trial open skipped: checksum matches,"), "%s", r.err);
	e2e_expect(&r, 0, "7\n");
	run_result_free(&r);
	/* one bit of the checksum itself: the object is still sound, but no
	 * longer what dcc wrote */
	meta[offsetof(struct dcc_meta_header, obj_sum)] ^= 1;
	const char *changed = e2e_tmp("checksum_changed.bpf.o");
	cr_assert_eq(write_file(changed, b, len), 0);
	e2e_run(&r, DTRUN_BIN, "-q", changed, NULL);
	unsetenv("DCC_TIMING");
	cr_assert(strstr(r.err, "trial open in a child,"), "%s", r.err);
	e2e_expect(&r, 0, "7\n");
	run_result_free(&r);
}
