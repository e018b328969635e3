/*
 * Kernel types through CO-RE, end to end on this kernel: curthread fields,
 * the D library's curpsinfo/curlwpsinfo, typed args[] and copyinstr(),
 * checked against what the ids/errno_n triggers know about themselves; and
 * an object compiled with --btf against a made-up BTF whose task_struct has
 * the fields at other offsets and in another order, which must still print
 * the right values here because libbpf relocates every access.
 */
#include <bpf/btf.h>

#include "e2e/e2e.h"

/* Run obj with -q -c "ids FILE" and compare with the line ids wrote. */
static void expect_ids(const char *obj)
{
	const char *file = e2e_tmp("ids.txt");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_fmt("%s %s", e2e_trigger("ids"), file), obj, NULL);
	char *mine = e2e_keep(read_file(file, NULL));
	cr_assert_not_null(mine, "the ids trigger did not write %s", file);
	cr_assert(strstr(mine, "uid=1234 gid=4321 comm=ids"), "ids wrote: %s", mine);
	e2e_expect(&r, 0, e2e_fmt("%s\n", mine));
	run_result_free(&r);
}

E2E_TEST(core, curthread_fields_match_the_trigger)
{
	expect_ids(e2e_build("curthread",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	printf(\"pid=%d ppid=%d tid=%d uid=%d gid=%d comm=%s\\n\",\n"
		"	    curthread->tgid, curthread->real_parent->tgid, curthread->pid,\n"
		"	    curthread->cred->uid.val, curthread->cred->gid.val, curthread->comm);\n"
		"}\n"));
}

E2E_TEST(core, curpsinfo_and_curlwpsinfo_match_the_trigger)
{
	expect_ids(e2e_build("psinfo",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /curpsinfo->pr_pid == $target/ {\n"
		"	printf(\"pid=%d ppid=%d tid=%d uid=%d gid=%d comm=%s\\n\",\n"
		"	    curpsinfo->pr_pid, curpsinfo->pr_ppid, curlwpsinfo->pr_lwpid,\n"
		"	    curpsinfo->pr_uid, curpsinfo->pr_gid, curpsinfo->pr_fname);\n"
		"}\n"));
}

E2E_TEST(core, typed_args_and_copyinstr)
{
	/* open_paged opens its path with mode 0421, three times */
	const char *obj = e2e_build("args",
		"#pragma D option quiet\n"
		"syscall::openat:entry /pid == $target && args[3] == 0421/ {\n"
		"	printf(\"%d %s %o\\n\", args[0], copyinstr(args[1]), args[3]);\n"
		"	self->in = 1;\n"
		"}\n"
		"syscall::openat:return /self->in/ {\n"
		"	printf(\"%d %d %s\\n\", args[0], errno, errno == ENOENT ? \"ENOENT\" : \"?\");\n"
		"	self->in = 0;\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 3 /nonexistent/dcc-e2e", e2e_trigger("open_paged")),
		obj, NULL);
	const char *one = "-100 /nonexistent/dcc-e2e 421\n-2 2 ENOENT\n";
	e2e_expect(&r, 0, e2e_fmt("%s%s%s\n", one, one, one));
	run_result_free(&r);
}

/* A BTF with just what the script needs, laid out unlike any kernel:
 * struct task_struct { char comm[16]; long pad; struct task_struct
 * *real_parent; int pid; int tgid; } */
static const char *made_up_btf(void)
{
	struct btf *btf = btf__new_empty();
	cr_assert_not_null(btf);
	int i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int i64 = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	int chr = btf__add_int(btf, "char", 1, BTF_INT_SIGNED);
	int u32 = btf__add_int(btf, "unsigned int", 4, 0);
	int comm = btf__add_array(btf, u32, chr, 16);
	int fwd = btf__add_fwd(btf, "task_struct", BTF_FWD_STRUCT);
	int ptr = btf__add_ptr(btf, fwd);
	int ts = btf__add_struct(btf, "task_struct", 48);
	cr_assert(i32 > 0 && i64 > 0 && ts > 0);
	cr_assert_eq(btf__add_field(btf, "comm", comm, 0, 0), 0);
	cr_assert_eq(btf__add_field(btf, "pad", i64, 128, 0), 0);
	cr_assert_eq(btf__add_field(btf, "real_parent", ptr, 192, 0), 0);
	cr_assert_eq(btf__add_field(btf, "pid", i32, 256, 0), 0);
	cr_assert_eq(btf__add_field(btf, "tgid", i32, 288, 0), 0);
	/* the pointer must name the full struct, not the forward declaration */
	struct btf_type *p = (struct btf_type *)btf__type_by_id(btf, (unsigned)ptr);
	p->type = (unsigned)ts;
	uint32_t size;
	const void *raw = btf__raw_data(btf, &size);
	const char *path = e2e_tmp("made-up.btf");
	cr_assert_eq(write_file(path, raw, size), 0);
	btf__free(btf);
	return path;
}

E2E_TEST(core, object_built_against_another_layout_reads_this_kernel)
{
	const char *btf = made_up_btf();
	const char *src = e2e_tmp("relocated.d"), *obj = e2e_tmp("relocated.bpf.o");
	const char *text =
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	printf(\"pid=%d ppid=%d tid=%d uid=%d gid=%d comm=%s\\n\",\n"
		"	    curthread->tgid, curthread->real_parent->tgid, curthread->pid,\n"
		"	    uid, gid, curthread->comm);\n"
		"}\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	struct run_result r;
	e2e_run(&r, DCC_BIN, "--btf", btf, src, "-o", obj, NULL);
	cr_assert_eq(r.status, 0, "dcc --btf failed: %s", r.err);
	run_result_free(&r);
	/* the object records the made-up offsets, libbpf moves them */
	e2e_run(&r, DTRUN_BIN, "-v", "-c", "/bin/true", obj, NULL);
	cr_assert(strstr(r.err, "task_struct.tgid (0:4 @ offset 36)"),
		  "the object should carry the made-up offset of tgid:\n%s", r.err);
	run_result_free(&r);
	expect_ids(obj);
}

E2E_TEST(core, a_field_this_kernel_lacks_is_refused_at_load)
{
	struct btf *b = btf__new_empty();
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int ts = btf__add_struct(b, "task_struct", 8);
	cr_assert_eq(btf__add_field(b, "pid", i32, 0, 0), 0);
	cr_assert_eq(btf__add_field(b, "dcc_no_such_field", i32, 32, 0), 0);
	(void)ts;
	uint32_t size;
	const void *raw = btf__raw_data(b, &size);
	const char *path = e2e_tmp("lacking.btf");
	cr_assert_eq(write_file(path, raw, size), 0);
	btf__free(b);
	const char *src = e2e_tmp("lacking.d"), *obj = e2e_tmp("lacking.bpf.o");
	const char *text = "BEGIN { trace(curthread->dcc_no_such_field); exit(0); }\n";
	cr_assert_eq(write_file(src, text, strlen(text)), 0);
	struct run_result r;
	e2e_run(&r, DCC_BIN, "--btf", path, src, "-o", obj, NULL);
	cr_assert_eq(r.status, 0, "dcc --btf failed: %s", r.err);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 1, "dtrun should refuse the object, got %d:\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "dcc_c1"), "the message should name the program:\n%s", r.err);
	run_result_free(&r);
}

E2E_TEST(core, kernel_bitfield_through_core)
{
	/* task_struct.in_execve is 1 while the -c command execs */
	const char *obj = e2e_build("bitfield",
		"#pragma D option quiet\n"
		"rawtp:sched::sched_process_exec /pid == $target/ {\n"
		"	printf(\"in_execve=%d in_iowait=%d\\n\", curthread->in_execve,\n"
		"	    curthread->in_iowait);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", "/bin/true", obj, NULL);
	e2e_expect_out(&r, 0, "core.kernel_bitfield_through_core");
	run_result_free(&r);
}

/* psinfo_t has DTrace for Linux's layout: the members Linux has no
 * counterpart for are constants (wait status, data model LP64, task,
 * project, zombie count, pool, zone, contract), the controlling tty is
 * the tty_struct or -1 (dtrun under the test runner may have none), and
 * the members DTrace leaves untranslated cannot be read. */
E2E_TEST(core, psinfo_constants_and_tty)
{
	const char *obj = e2e_build("psinfo_more",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	printf(\"%d %d %d %d %d %d %d %d %d\\n\", curpsinfo->pr_wstat,\n"
		"	    curpsinfo->pr_dmodel, curpsinfo->pr_taskid, curpsinfo->pr_projid,\n"
		"	    curpsinfo->pr_nzomb, curpsinfo->pr_poolid, curpsinfo->pr_zoneid,\n"
		"	    curpsinfo->pr_contract, curpsinfo->pr_ttydev == (uintptr_t)-1 ||\n"
		"	    curpsinfo->pr_ttydev == (uintptr_t)curthread->signal->tty);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "0 2 0 0 0 0 0 0 1\n\n");
	run_result_free(&r);
	e2e_run(&r, DCC_BIN, "-e", "-n", "BEGIN { trace(curpsinfo->pr_argc); }", NULL);
	cr_assert_eq(r.status, 1, "pr_argc, which DTrace does not translate, was read");
	cr_assert(strstr(r.err, "does not define 'pr_argc'"), "%s", r.err);
	run_result_free(&r);
}
