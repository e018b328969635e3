/*
 * The proc provider on this kernel: the proc_family trigger forks four
 * children one at a time (an exec of itself, an exec that fails with
 * ENOENT, one that handles a SIGUSR1, one killed by SIGKILL) and reports
 * their pids; every proc probe's firing and arguments are compared exactly.
 */
#include "e2e/e2e.h"

static const char family_d[] =
	"#pragma D option quiet\n"
	"proc:::create /pid == $target/ { printf(\"create %d %d\\n\", args[0]->pr_pid,\n"
	"    args[0]->pr_ppid == $target); }\n"
	"proc:::lwp-create /pid == $target/ { printf(\"lwp-create\\n\"); }\n"
	"proc:::exec /ppid == $target/ { printf(\"exec %d %s\\n\", pid, args[0]); }\n"
	"proc:::exec-success /ppid == $target/ { printf(\"exec-success %d %s\\n\", pid,\n"
	"    execname); }\n"
	"proc:::exec-failure /ppid == $target/ { printf(\"exec-failure %d %d\\n\", pid,\n"
	"    args[0]); }\n"
	"proc:::exit /ppid == $target/ { printf(\"exit %d %d\\n\", pid, args[0]); }\n"
	"proc:::lwp-exit /ppid == $target/ { printf(\"lwp-exit %d\\n\", tid); }\n"
	"proc:::signal-send /pid == $target && args[1]->pr_ppid == $target/ {\n"
	"	printf(\"signal-send %d %d %d\\n\", args[1]->pr_pid, args[0]->pr_lwpid, args[2]);\n"
	"}\n"
	"proc:::signal-discard /ppid == $target/ {\n"
	"	printf(\"signal-discard %d %d\\n\", args[1]->pr_pid == $target, args[2]);\n"
	"}\n"
	"proc:::signal-handle /ppid == $target/ {\n"
	"	printf(\"signal-handle %d %d %d\\n\", pid, args[0], args[2] != 0);\n"
	"}\n";

E2E_TEST(proc, family_of_four_children)
{
	const char *obj = e2e_build("family", family_d);
	const char *file = e2e_tmp("family.txt");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %s", e2e_trigger("proc_family"), file), obj,
		NULL);
	char *rep = e2e_keep(read_file(file, NULL));
	cr_assert_not_null(rep, "the proc_family trigger did not write %s\n%s", file, r.err);
	int t, e, u, k;
	cr_assert_eq(sscanf(rep, "self=%d enoent=%d handled=%d killed=%d", &t, &e, &u, &k), 4);
	/* each child: its parent's SIGCHLD is discarded (SIG_DFL ignores it);
	 * a killed child also goes through signal delivery for SIGKILL */
	e2e_expect(&r, 0, e2e_fmt(
		"create %d 1\nexec %d /proc/self/exe\nexec-success %d exe\nexit %d 1\n"
		"lwp-exit %d\nsignal-discard 1 17\n"
		"create %d 1\nexec %d /nonexistent/dcc-proc\nexec-failure %d -2\nexit %d 1\n"
		"lwp-exit %d\nsignal-discard 1 17\n"
		"create %d 1\nsignal-send %d %d 10\nsignal-handle %d 10 1\nexit %d 1\n"
		"lwp-exit %d\nsignal-discard 1 17\n"
		"create %d 1\nsignal-send %d %d 9\nsignal-handle %d 9 0\nexit %d 2\n"
		"lwp-exit %d\nsignal-discard 1 17\n\n",
		t, t, t, t, t, e, e, e, e, e, u, u, u, u, u, u, k, k, k, k, k, k));
	run_result_free(&r);
}

E2E_TEST(proc, a_glob_clause_runs_each_exec_probe)
{
	const char *obj = e2e_build("execglob",
		"#pragma D option quiet\n"
		"proc:::exec* /pid == $target/ { printf(\"%s:%s:%s:%s %s\\n\", probeprov,\n"
		"    probemod, probefunc, probename, execname); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", "/bin/true", obj, NULL);
	e2e_expect_out(&r, 0, "proc.a_glob_clause_runs_each_exec_probe");
	run_result_free(&r);
}

/* pr_psargs: the process's arguments joined by spaces, at most 79 bytes (as
 * DTrace's PRARGSZ of 80); another task's memory cannot be read, so its
 * pr_psargs is "<unknown>" */
E2E_TEST(proc, psargs_joined_truncated_and_unknown_for_another_task)
{
	const char *obj = e2e_build("psargs",
		"#pragma D option quiet\n"
		"syscall::exit_group:entry /pid == $target/ { printf(\"%d [%s] [%s]\\n\",\n"
		"    strlen(curpsinfo->pr_psargs), curpsinfo->pr_psargs,\n"
		"    xlate<psinfo_t *>(curthread->real_parent)->pr_psargs); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", "/bin/true a b", obj, NULL);
	e2e_expect(&r, 0, "13 [/bin/true a b] [<unknown>]\n\n");
	run_result_free(&r);
	const char *ten = "0123456789 0123456789 0123456789 0123456789 0123456789";
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("/bin/true %s %s", ten, ten), obj, NULL);
	e2e_expect(&r, 0, e2e_fmt("79 [/bin/true %.69s] [<unknown>]\n\n",
				  e2e_fmt("%s %s", ten, ten)));
	run_result_free(&r);
}
