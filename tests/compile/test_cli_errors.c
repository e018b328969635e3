/*
 * What users get when something is wrong, with no kernel (any user): compile
 * errors (clang-style, with location, exit 1, no object written), bad usage
 * of dcc and dtrun (exit 2), and -e writing nothing; plus `dcc -l` on a glob.
 * The scripts are tests/e2e/err.*.d; tests/e2e/test_errors.c checks the
 * objects dtrun must refuse.
 */
#include <sys/stat.h>

#include "e2e/e2e.h"

/* Compile tests/e2e/<name>.d expecting failure; returns stderr. */
static char *compile_fails(const char *name)
{
	const char *obj = e2e_tmp("fail.bpf.o");
	struct run_result r;
	e2e_run(&r, DCC_BIN, e2e_src(e2e_fmt("%s.d", name)), "-o", obj, NULL);
	cr_assert_eq(r.status, 1, "dcc %s.d: status %d, want 1\nstderr:\n%s", name, r.status, r.err);
	cr_assert_str_empty(r.out, "stdout: %s", r.out);
	free(r.out);
	e2e_keep(r.err);
	struct stat st;
	cr_assert_neq(stat(obj, &st), 0, "an object was written despite the error");
	return r.err;
}

/* Lines of s that match pat. */
static int count_matching(const char *s, const char *pat)
{
	int n = 0;
	char *copy = strdup(s), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		n += fnmatch(pat, l, 0) == 0;
	free(copy);
	return n;
}

NOKERNEL_TEST(errors, syntax_error_with_caret)
{
	char *err = compile_fails("err.syntax");
	char *l1 = e2e_keep(strdup(err)), *l2 = strchr(l1, '\n');
	cr_assert_not_null(l2, "stderr: %s", err);
	*l2++ = 0;
	cr_assert_eq(fnmatch("*err.syntax.d:3:6: error: *", l1, 0), 0, "first line: %s", l1);
	char *l3 = strchr(l2, '\n');
	cr_assert_not_null(l3, "stderr: %s", err);
	*l3++ = 0;
	cr_assert(strstr(l2, "x = ;"), "second line should quote the source: %s", l2);
	/* The caret sits under column 6 (the tab counts as one column, or is
	 * expanded the same way in both lines). */
	char *caret = strchr(l3, '^');
	cr_assert_not_null(caret, "third line should hold a caret: %s", l3);
	cr_assert_eq(l2[caret - l3], ';', "caret under '%c', want ';'\n%s", l2[caret - l3], err);
}

NOKERNEL_TEST(errors, several_errors_in_one_run)
{
	char *err = compile_fails("err.two_errors");
	cr_assert_eq(count_matching(err, "*err.two_errors.d:3:6: error: *"), 1, "%s", err);
	cr_assert_eq(count_matching(err, "*err.two_errors.d:8:9: error: *"), 1, "%s", err);
	cr_assert_eq(count_matching(err, "*: error: *"), 2, "%s", err);
}

NOKERNEL_TEST(errors, probe_matching_nothing)
{
	char *err = compile_fails("err.no_probe");
	cr_assert_eq(count_matching(err, "*err.no_probe.d:1:1: error: *no_such_syscall*"), 1, "%s",
		     err);
}

NOKERNEL_TEST(errors, unknown_function)
{
	char *err = compile_fails("err.unknown_func");
	cr_assert_eq(count_matching(err, "*err.unknown_func.d:3:2: error: *no_such_function*"), 1,
		     "%s", err);
}

/* A clause that passes the BPF stack's 512 bytes is the user's error at the
 * clause's line, in dcc's words; LLVM's own message never reaches them. */
NOKERNEL_TEST(errors, clause_past_the_stack_limit)
{
	char *err = compile_fails("err.stack_limit");
	cr_assert_eq(count_matching(err, "*err.stack_limit.d:11:1: error: this clause needs more "
				    "than the 512 bytes of stack a BPF program has: split it "
				    "into smaller clauses"), 1, "%s", err);
	cr_assert_eq(count_matching(err, "*: error: *"), 1, "%s", err);
	cr_assert_null(strstr(err, "Looks like"), "%s", err);
	cr_assert_null(strstr(err, "dcc_c"), "%s", err);
}

/* A clause updating more aggregations than the maps a BPF program may use is
 * refused when compiled, at the clause, naming the limit; the clause beside
 * it with one aggregation is not. */
NOKERNEL_TEST(errors, clause_past_the_map_limit)
{
	char *err = compile_fails("err.too_many_maps");
	cr_assert_eq(count_matching(err, "*err.too_many_maps.d:5:1: error: this clause's program "
				    "uses * maps, more than the 64 the kernel lets one BPF program "
				    "use: each aggregation is a map of its own"), 1, "%s", err);
	cr_assert_eq(count_matching(err, "*: error: *"), 1, "%s", err);
}

NOKERNEL_TEST(errors, printf_argument_checks)
{
	const char *cases[] = { "err.printf_types", "err.printf_missing", "err.printf_extra",
				"err.printf_string_as_int" };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err = compile_fails(cases[i]);
		cr_assert_eq(count_matching(err, e2e_fmt("*%s.d:3:*: error: *", cases[i])), 1,
			     "%s:\n%s", cases[i], err);
	}
}

NOKERNEL_TEST(errors, bad_usage_is_status_2)
{
	const char *const cmds[][4] = {
		{ DCC_BIN, NULL },
		{ DCC_BIN, "--no-such-option", e2e_src("tst.hello.d"), NULL },
		{ DCC_BIN, "run", NULL },
		{ DTRUN_BIN, NULL },
		{ DTRUN_BIN, "--no-such-option", "x.bpf.o", NULL },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct run_result r;
		e2e_runv(&r, E2E_TIMEOUT, cmds[i]);
		cr_assert_eq(r.status, 2, "%s %s: status %d, want 2\n%s", cmds[i][0],
			     cmds[i][1] ? cmds[i][1] : "", r.status, r.err);
		cr_assert_str_not_empty(r.err, "no usage message");
		run_result_free(&r);
	}
}

/* -e: compile and check only, write nothing. */
NOKERNEL_TEST(errors, check_only_writes_nothing)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-e", e2e_src("tst.hello.d"), NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.err);
	cr_assert_str_empty(r.out);
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "-e", e2e_src("err.syntax.d"), NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(subrs, copies_past_the_clauses_scratch_do_not_compile)
{
	const char *src = e2e_tmp("room.d"), *obj = e2e_tmp("room.bpf.o");
	const char *text = "BEGIN\n{\n\tthis->p = alloca(4);\n"
			   "\tbcopy(curthread->comm, this->p, 16);\n}\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	struct run_result r;
	e2e_run(&r, DCC_BIN, src, "-o", obj, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "room.d:4:2: error: bcopy() copies 16 bytes, more than the clause "
			 "has allocated with alloca() before it"), "stderr:\n%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(sched, lists_the_probes_tracepoints_serve)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-l", "-n", "sched:::", NULL);
	e2e_expect(&r, 0,
		"   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		"   70      sched           vmlinux                                   off-cpu\n"
		"   71      sched           vmlinux                                   on-cpu\n"
		"   72      sched           vmlinux                                   preempt\n"
		"   73      sched           vmlinux                                   sleep\n"
		"   74      sched           vmlinux                                   wakeup\n"
		"   75      sched           vmlinux                                   tick\n");
	run_result_free(&r);
}

NOKERNEL_TEST(proc, globs_list_the_exec_probes)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-l", "-n", "proc:::exec*", NULL);
	e2e_expect(&r, 0,
		"   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		"   61       proc           vmlinux                                   exec\n"
		"   62       proc           vmlinux                                   exec-failure\n"
		"   63       proc           vmlinux                                   exec-success\n");
	run_result_free(&r);
}

NOKERNEL_TEST(net, lists_the_network_lockstat_and_cpc_probes)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-l", "-n", "udp:::", "-n", "lockstat:::*-spin", "-n",
		"cpc:::page-faults*", NULL);
	e2e_expect(&r, 0,
		"   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		"   88        udp           vmlinux                                   receive\n"
		"   89        udp           vmlinux                                   send\n"
		"   91   lockstat           vmlinux                                   adaptive-spin\n"
		"   93   lockstat           vmlinux                                   rw-spin\n"
		"   94   lockstat           vmlinux                                   spin-spin\n"
		"  902        cpc                                                     "
		"page-faults-all-10000\n");
	run_result_free(&r);
}

NOKERNEL_TEST(net, lv_lists_argument_types)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "-lv", "-n", "tcp:::send", "-n", "lockstat:::rw-block", NULL);
	e2e_expect(&r, 0,
		"   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		"   86        tcp           vmlinux                                   send\n"
		"\n\tArgument Types\n"
		"\t\targs[0]: pktinfo_t *\n"
		"\t\targs[1]: csinfo_t *\n"
		"\t\targs[2]: ipinfo_t *\n"
		"\t\targs[3]: tcpsinfo_t *\n"
		"\t\targs[4]: tcpinfo_t *\n"
		"\n"
		"   92   lockstat           vmlinux                                   rw-block\n"
		"\n\tArgument Types\n"
		"\t\targs[0]: void *\n"
		"\t\targs[1]: uint64_t\n"
		"\t\targs[2]: int\n"
		"\n");
	run_result_free(&r);
}
