/*
 * `dtrun --info`: what an object holds and needs, printed without loading it
 * (any user), as text and as JSON, against goldens. The object is compiled
 * against the pinned BTF, so its BTF identity is the same on every machine.
 * Also --help and --version of both commands, and `dcc --emit`.
 */
#include "e2e/e2e.h"

static const char info_script[] =
	"#pragma D option quiet\n"
	"#pragma D option bufsize=1m\n"
	"syscall::getppid:entry\n"
	"{\n"
	"\t@calls[execname] = count();\n"
	"\t@who = max(curthread->pid);\n"
	"}\n"
	"tick-1s\n"
	"{\n"
	"\tprintf(\"%d\\n\", 10 / (timestamp & 0));\n"
	"}\n"
	"ERROR { exit(1); }\n";

/* info.d compiled in the scratch directory; dtrun --info ARGS run there. */
static void info_run(struct run_result *r, const char *args)
{
	const char *src = e2e_tmp("info.d");
	cr_assert_eq(write_file(src, info_script, strlen(info_script)), 0);
	run_sh(r, e2e_fmt("cd '%s' && '%s' --btf '%s' info.d && '%s' %s info.bpf.o", e2e_dir,
			  DCC_BIN, PINNED_BTF, DTRUN_BIN, args), E2E_TIMEOUT);
	e2e_keep(r->out);
	e2e_keep(r->err);
}

NOKERNEL_TEST(info, text)
{
	struct run_result r;
	info_run(&r, "--info");
	e2e_expect_out(&r, 0, "info.text");
}

NOKERNEL_TEST(info, json)
{
	struct run_result r;
	info_run(&r, "--info=json");
	e2e_expect_out(&r, 0, "info.json");
	info_run(&r, "--info -f json");
	e2e_expect_out(&r, 0, "info.json");
}

NOKERNEL_TEST(info, errors)
{
	struct run_result r;
	info_run(&r, "--info -f yaml");
	cr_assert_eq(r.status, 2);
	cr_assert_str_eq(r.err, "dtrun: --info's format is text or json\n");
	run_sh(&r, e2e_fmt("'%s' --info /nonexistent.o", DTRUN_BIN), E2E_TIMEOUT);
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err, "dtrun: failed to read /nonexistent.o: No such file or directory\n");
	run_result_free(&r);
	run_sh(&r, e2e_fmt("'%s' --info '%s/compile/test_info.c'", DTRUN_BIN, TESTS_SRC_DIR),
	       E2E_TIMEOUT);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "test_info.c: not an ELF file"), "%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(cli, help_and_version)
{
	struct run_result r;
	char want[64];
	snprintf(want, sizeof(want), "dcc %s (LLVM 19 BPF backend)\n", DCC_VERSION);
	e2e_run(&r, DCC_BIN, "--version", NULL);
	e2e_expect(&r, 0, want);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "--version", NULL);
	cr_assert_eq(r.status, 0);
	snprintf(want, sizeof(want), "dtrun %s (libbpf v", DCC_VERSION);
	cr_assert(!strncmp(r.out, want, strlen(want)), "dtrun --version: %s", r.out);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "--help", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "Usage: dtrun") && strstr(r.out, "--info"), "%s", r.out);
	cr_assert_str_empty(r.err);
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "--help", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "usage: dcc") && strstr(r.out, "--emit"), "%s", r.out);
	run_result_free(&r);
}

/* --emit=ir: the optimized module, with each clause's program; --emit=asm:
 * BPF assembly, with the call of the helper the clause makes. */
NOKERNEL_TEST(cli, emit)
{
	struct run_result r;
	const char *src = e2e_tmp("emit.d");
	const char *text = "syscall::getppid:entry { @ = count(); trace(pid); }\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	e2e_run(&r, DCC_BIN, "--emit=ir", src, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "define noundef i32 @dcc_c1(") &&
		  strstr(r.out, "section \"tracepoint/syscalls/sys_enter_getppid\""),
		  "no clause program in:\n%.2000s", r.out);
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "--emit", "asm", "-o", e2e_tmp("emit.s"), src, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_empty(r.out);
	run_result_free(&r);
	char *s = e2e_keep(read_file(e2e_tmp("emit.s"), NULL));
	cr_assert_not_null(s);
	/* bpf_get_current_pid_tgid is helper 14 */
	cr_assert(strstr(s, "dcc_c1:\n") && strstr(s, "\tcall 14\n") && strstr(s, "\texit\n"),
		  "no program's assembly in:\n%.2000s", s);
	e2e_run(&r, DCC_BIN, "--emit=elf", src, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(!strncmp(r.err, "dcc: error: --emit takes obj, ir or asm, not 'elf'\n", 51),
		  "%s", r.err);
	run_result_free(&r);
}

/* Where syscall probes attach: a syscall's own tracepoint; one program on
 * the raw_syscalls raw tracepoints for more than eight syscalls or for one
 * without a sys_enter_NAME tracepoint of its own (stat's is newstat's). */
NOKERNEL_TEST(cli, syscall_sections)
{
	struct run_result r;
	const char *src = e2e_tmp("sections.d");
	const char *text = "syscall::getppid:entry { trace(1); }\n"
			   "syscall::stat:entry { trace(2); }\n"
			   "syscall::read*:return, syscall::write*:return, syscall::open*:return"
			   " { trace(3); }\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	e2e_run(&r, DCC_BIN, "--emit=ir", src, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "section \"tracepoint/syscalls/sys_enter_getppid\"") &&
		  strstr(r.out, "section \"raw_tp/sys_enter\"") &&
		  strstr(r.out, "section \"raw_tp/sys_exit\"") &&
		  !strstr(r.out, "sys_enter_stat\""), "sections:\n%.3000s", r.out);
	run_result_free(&r);
}
