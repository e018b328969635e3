/*
 * `dcc verify OBJ --btf DIR`: a folder of BTF files laid out as BTFHub's
 * (nested folders, one NAME.btf a kernel) checked as a kernel-by-probe
 * table, in text and JSON, with the exit status a CI job gates on. The
 * kernels: Debian 12's 6.1 (the tests/vm guest's) and the pinned 6.18; the
 * script has a probe on a system call function 6.1 does not have.
 */
#include "e2e/e2e.h"

static const char script[] =
	"fbt::__x64_sys_listmount:entry { @ = count(); }\n"
	"syscall::getppid:entry { trace(curthread->real_parent->tgid); }\n"
	"fbt::do_nanosleep:entry { trace(arg0); }\n";

static const char *setup_dir(bool with_61)
{
	struct run_result r;
	const char *dir = e2e_tmp(with_61 ? "btfhub" : "btfhub-new");
	run_sh(&r, e2e_fmt("mkdir -p '%s/debian/12/x86_64' '%s/local' && cp '%s' "
			   "'%s/local/6.18.btf' && { %s; }", dir, dir, PINNED_BTF, dir,
			   with_61 ? e2e_fmt("cp '%s' '%s/debian/12/x86_64/6.1.0-56-cloud-amd64.btf'",
					     BTF_61, dir) : "true"), E2E_TIMEOUT);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	cr_assert_eq(write_file(e2e_tmp("v.d"), script, strlen(script)), 0);
	run_sh(&r, e2e_fmt("cd '%s' && '%s' --btf '%s' v.d", e2e_dir, DCC_BIN, PINNED_BTF),
	       E2E_TIMEOUT);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	return dir;
}

static void verify_in(struct run_result *r, const char *args)
{
	run_sh(r, e2e_fmt("cd '%s' && '%s' verify %s", e2e_dir, DCC_BIN, args), E2E_TIMEOUT);
	e2e_keep(r->out);
	e2e_keep(r->err);
}

NOKERNEL_TEST(verify_dir, table)
{
	setup_dir(true);
	struct run_result r;
	verify_in(&r, "v.bpf.o --btf btfhub");
	e2e_expect(&r, 1,
		"probe                                  debian/12/x86_64/6.1.0-56-cloud-amd64  local/6.18\n"
		"fentry __x64_sys_listmount             FAIL                                   ok\n"
		"tracepoint syscalls/sys_enter_getppid  ok                                     ok\n"
		"fentry do_nanosleep                    ok                                     ok\n"
		"\n"
		"v.bpf.o: fentry __x64_sys_listmount on debian/12/x86_64/6.1.0-56-cloud-amd64: "
		"no function __x64_sys_listmount\n");
	cr_assert_str_empty(r.err);
}

NOKERNEL_TEST(verify_dir, all_resolve)
{
	setup_dir(false);
	struct run_result r;
	verify_in(&r, "--btf btfhub-new v.bpf.o");
	e2e_expect(&r, 0,
		"probe                                  local/6.18\n"
		"fentry __x64_sys_listmount             ok\n"
		"tracepoint syscalls/sys_enter_getppid  ok\n"
		"fentry do_nanosleep                    ok\n");
}

NOKERNEL_TEST(verify_dir, json)
{
	setup_dir(true);
	struct run_result r;
	verify_in(&r, "-f json v.bpf.o --btf btfhub");
	e2e_expect(&r, 1,
		"{\"object\":\"v.bpf.o\",\"ok\":false,\"kernels\":["
		"{\"name\":\"debian/12/x86_64/6.1.0-56-cloud-amd64\",\"file\":"
		"\"btfhub/debian/12/x86_64/6.1.0-56-cloud-amd64.btf\",\"readable\":true},"
		"{\"name\":\"local/6.18\",\"file\":\"btfhub/local/6.18.btf\",\"readable\":true}],"
		"\"probes\":[{\"probe\":\"fentry __x64_sys_listmount\",\"results\":["
		"{\"kernel\":\"debian/12/x86_64/6.1.0-56-cloud-amd64\",\"resolves\":false,"
		"\"why\":\"no function __x64_sys_listmount\"},"
		"{\"kernel\":\"local/6.18\",\"resolves\":true}]},"
		"{\"probe\":\"tracepoint syscalls/sys_enter_getppid\",\"results\":["
		"{\"kernel\":\"debian/12/x86_64/6.1.0-56-cloud-amd64\",\"resolves\":true},"
		"{\"kernel\":\"local/6.18\",\"resolves\":true}]},"
		"{\"probe\":\"fentry do_nanosleep\",\"results\":["
		"{\"kernel\":\"debian/12/x86_64/6.1.0-56-cloud-amd64\",\"resolves\":true},"
		"{\"kernel\":\"local/6.18\",\"resolves\":true}]}]}\n");
	/* a single file in JSON too */
	verify_in(&r, e2e_fmt("-f json v.bpf.o --btf '%s'", PINNED_BTF));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"ok\":true,\"kernels\":[{\"name\":\"vmlinux-6.18\""), "%s",
		  r.out);
}

NOKERNEL_TEST(verify_dir, errors)
{
	setup_dir(true);
	struct run_result r;
	verify_in(&r, "v.bpf.o --btf v.d.nothing");
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err, "dcc: error: cannot read BTF from v.d.nothing: No such file "
			 "or directory\n");
	run_sh(&r, e2e_fmt("mkdir -p '%s/empty'", e2e_dir), E2E_TIMEOUT);
	verify_in(&r, "v.bpf.o --btf empty");
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err, "dcc: error: no .btf file in the folder empty\n");
	verify_in(&r, "-f yaml v.bpf.o");
	cr_assert_eq(r.status, 2);
	static const char want[] = "dcc: error: verify's format is text or json, not 'yaml'\n";
	cr_assert(!strncmp(r.err, want, sizeof(want) - 1), "%s", r.err);
}
