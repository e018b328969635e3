/*
 * Options and arguments of the command line that the compiler checks, with
 * no kernel: macro arguments the script never uses (-x argref), the D
 * version a script asks for, and -x tree's dump of the checked tree.
 */
#include "e2e/e2e.h"

/* `dcc -e` on a script holding text, with extra arguments (NULL-ended). */
static void check(struct run_result *r, const char *text, const char *a1, const char *a2,
		  const char *a3)
{
	const char *src = e2e_tmp("opts.d");
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	const char *argv[] = { DCC_BIN, "-e", src, a1, a2, a3, NULL };
	/* the options go before the script: shift them in front of it */
	if (a1 && a1[0] == '-') {
		argv[2] = a1;
		argv[3] = a2;
		argv[4] = src;
		argv[5] = a3;
	}
	e2e_runv(r, E2E_TIMEOUT, argv);
}

NOKERNEL_TEST(options, an_unused_macro_argument_is_an_error)
{
	struct run_result r;
	check(&r, "BEGIN { exit(0); }\n", "17", NULL, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: error: extraneous argument '17' ($1 is not referenced; "
			 "-x argref allows it)\n");
	run_result_free(&r);
	/* only the last one must be used: the ones before it are positional */
	check(&r, "BEGIN { trace($$2); exit(0); }\n", "a", "b", NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	run_result_free(&r);
	check(&r, "BEGIN { trace($1); exit(0); }\n", "1", "2", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: error: extraneous argument '2' ($2 is not referenced; "
			 "-x argref allows it)\n");
	run_result_free(&r);
}

NOKERNEL_TEST(options, argref_allows_unused_arguments)
{
	struct run_result r;
	check(&r, "BEGIN { exit(0); }\n", "-x", "argref", "17");
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.err);
	run_result_free(&r);
	check(&r, "#pragma D option argref\nBEGIN { exit(0); }\n", "17", NULL, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	run_result_free(&r);
	check(&r, "BEGIN { exit(0); }\n", "-x", "argref=no", "17");
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(options, version_must_be_one_dtrace_defined)
{
	struct run_result r;
	check(&r, "BEGIN { exit(0); }\n", "-x", "version=99.1", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: error: failed to set -x version: Requested version is not "
			 "supported by compiler\n");
	run_result_free(&r);
	check(&r, "BEGIN { exit(0); }\n", "-x", "version=1.2.3.4", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: error: failed to set -x version: Version is not properly "
			 "formatted or is too large\n");
	run_result_free(&r);
	check(&r, "BEGIN { exit(0); }\n", "-x", "version=1.6.2", NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(options, tree_dumps_the_checked_script_on_stderr)
{
	struct run_result r;
	check(&r, "BEGIN { trace($1); }\n", "-x", "tree=4", "9");
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.out);
	cr_assert_str_eq(r.err, "N_CLAUSE 1:1\n"
			 "  N_PROBEDESC 'BEGIN' [:::BEGIN] 1:1\n"
			 "  N_CALL trace 1:9\n"
			 "    N_INT 9 1:15\n");
	run_result_free(&r);
	check(&r, "BEGIN { exit(0); }\n", "-x", "tree=0", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: error: failed to set -x tree=0: Invalid value for "
			 "specified option\n");
	run_result_free(&r);
}

/* The names of the stages `dcc -v` times, in the order they ran, one line each. */
static void stage_names(const char *err, char *out, size_t cap)
{
	out[0] = 0;
	for (const char *l = err; (l = strstr(l, "dcc: time: ")); l++) {
		l += strlen("dcc: time: ");
		const char *end = strstr(l, "  ");
		cr_assert_not_null(end, "%s", err);
		strncat(out, l, (size_t)(end - l));
		strncat(out, ",", cap - strlen(out) - 1);
	}
}

NOKERNEL_TEST(options, v_times_each_stage)
{
	struct run_result r;
	const char *src = e2e_tmp("stages.d");
	const char *obj = e2e_tmp("stages.bpf.o");
	const char *text = "BEGIN { printf(\"hi\\n\"); exit(0); }\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	char names[512];
	const char *argv[] = { DCC_BIN, "-v", src, "-o", obj, NULL };
	e2e_runv(&r, E2E_TIMEOUT, argv);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	stage_names(r.err, names, sizeof(names));
	cr_assert_str_eq(names, "D library,parse,sema,LLVM target,IR,LLVM passes,emission,"
			 "teardown,total,", "%s", r.err);
	run_result_free(&r);
	/* -e stops after sema; no -v, no times */
	const char *check_argv[] = { DCC_BIN, "-v", "-e", src, NULL };
	e2e_runv(&r, E2E_TIMEOUT, check_argv);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	stage_names(r.err, names, sizeof(names));
	cr_assert_str_eq(names, "D library,parse,sema,teardown,total,", "%s", r.err);
	run_result_free(&r);
	const char *quiet_argv[] = { DCC_BIN, src, "-o", obj, NULL };
	e2e_runv(&r, E2E_TIMEOUT, quiet_argv);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_empty(r.err);
	run_result_free(&r);
}

/* dtrace's options that `dcc run` does not implement (-G writes an ELF
 * file with DOF, -A anonymous tracing...) fail as a request that cannot be
 * carried out, status 1 and one line, not as a usage error (2); a letter
 * dtrace does not know either stays a usage error. Nothing is loaded. */
NOKERNEL_TEST(options, dtrace_options_not_implemented_fail_with_1)
{
	struct run_result r;
	const char *g[] = { DCC_BIN, "run", "-G", "-n", "BEGIN { exit(0); }", NULL };
	e2e_runv(&r, E2E_TIMEOUT, g);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: dtrace's option -G is not supported\n");
	run_result_free(&r);
	const char *z[] = { DCC_BIN, "run", "-k", "-n", "BEGIN { exit(0); }", NULL };
	e2e_runv(&r, E2E_TIMEOUT, z);
	cr_assert_eq(r.status, 2, "status %d\n%s", r.status, r.err);
	cr_assert(!strncmp(r.err, "dcc: invalid option -- 'k'\n", 27), "%s", r.err);
	run_result_free(&r);
}

/* dtrace's specifiers by part: -P PROV, -m [PROV:]MOD and -f [[PROV:]MOD:]FUNC
 * name the part that their last field is; more fields than that part allows
 * are an invalid specifier (exit 1) */
NOKERNEL_TEST(options, probe_specifiers_by_part)
{
	struct run_result r;
	const char *head = "   ID   PROVIDER            MODULE                          FUNCTION NAME\n";
	e2e_run(&r, DCC_BIN, "-l", "-P", "dtrace", NULL);
	e2e_expect(&r, 0, e2e_fmt("%s%s%s", head,
		"    1     dtrace                                                     BEGIN\n",
		"    2     dtrace                                                     END\n"));
	run_result_free(&r);
	/* -f getppid is ::getppid:, a function of syscall's only */
	e2e_run(&r, DCC_BIN, "-l", "-f", "getppid", NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.out, "    syscall           vmlinux                           getppid "
			 "entry\n"), "%s", r.out);
	cr_assert_eq(e2e_lines(r.out), 3, "%s", r.out);
	run_result_free(&r);
	/* -m dtrace is :dtrace::, a module no probe has */
	e2e_run(&r, DCC_BIN, "-l", "-m", "dtrace", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "<description>:1:1: error: probe description :dtrace:: does not match "
		       "any probes", ":dtrace::", "^~~~~~~~~", NULL);
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "-l", "-P", "profile:::tick-1s", NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.err, "dcc: invalid probe specifier -P profile:::tick-1s: too many "
			 "parts for a provider\n");
	run_result_free(&r);
}

/* -V: the version of D implemented, on stdout with the tool's name, exit 0,
 * nothing compiled or loaded */
NOKERNEL_TEST(options, capital_v_prints_the_d_version)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-V", NULL);
	e2e_expect(&r, 0, "dcc: Sun D 2.0\n");
	cr_assert_str_empty(r.err, "%s", r.err);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-V", NULL);
	e2e_expect(&r, 0, "dtrun: Sun D 2.0\n");
	run_result_free(&r);
}
