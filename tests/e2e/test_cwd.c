/*
 * cwd, root and d_path(), built by walking dentries (dcc/cg/cg_dpath.c):
 * a traced command changes directory and calls getppid() in each, and the
 * probe prints where it is, exactly as the kernel names the directory:
 * "/" for the root, a directory three levels under the test's scratch
 * directory, mount points crossed (/proc; /sys/kernel/tracing, a tracefs
 * mounted on sysfs), and a removed directory with its " (deleted)".
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "e2e/e2e.h"

static const char *script =
	"#pragma D option quiet\n"
	"syscall::getppid:entry /pid == $target/ {\n"
	"	printf(\"%s|%d|%s\\n\", cwd, cwd == d_path(&curthread->fs->pwd), root);\n"
	"}\n";

E2E_TEST(cwd, cwd_follows_the_directory_across_mounts)
{
	char real[PATH_MAX];
	cr_assert(realpath(e2e_tmp(""), real));
	const char *top = e2e_fmt("%s/cwd1", real);
	cr_assert_eq(mkdir(top, 0700), 0);
	cr_assert_eq(mkdir(e2e_fmt("%s/two", top), 0700), 0);
	cr_assert_eq(mkdir(e2e_fmt("%s/two/three", top), 0700), 0);
	const char *deep = e2e_fmt("%s/two/three", top);
	const char *obj = e2e_build("cwd", script);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c",
		e2e_fmt("%s / %s /proc /sys/kernel/tracing %s -gone", e2e_trigger("chdir_n"), deep,
			top),
		obj, NULL);
	e2e_expect(&r, 0, e2e_fmt("/|1|/\n%s|1|/\n/proc|1|/\n/sys/kernel/tracing|1|/\n"
				  "%s|1|/\n%s/gone (deleted)|1|/\n\n", deep, top, top));
	run_result_free(&r);
}

/* (the blank line: the one dtrun's end of tracing prints) */

/* BEGIN runs in dtrun: its cwd is where dtrun was started */
E2E_TEST(cwd, begin_sees_the_tracers_directory)
{
	const char *obj = e2e_build("cwdbegin",
		"#pragma D option quiet\n"
		"BEGIN { printf(\"%s %s\\n\", cwd, d_path(&curthread->fs->root)); exit(0); }\n");
	char real[PATH_MAX];
	cr_assert(getcwd(real, sizeof(real)));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, e2e_fmt("%s /\n\n", real));
	run_result_free(&r);
}

/* A path longer than strsize - 1 bytes is "" (the kernel's ENAMETOOLONG);
 * one of strsize - 1 bytes is whole. */
E2E_TEST(cwd, a_path_over_strsize_is_empty)
{
	const char *obj = e2e_build("cwdlong",
		"#pragma D option quiet\n"
		"#pragma D option strsize=8\n"
		"syscall::getppid:entry /pid == $target/ { printf(\"[%s]\\n\", cwd); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c",
		e2e_fmt("%s /proc /sys/kernel /sys/fs", e2e_trigger("chdir_n")), obj, NULL);
	e2e_expect(&r, 0, "[/proc]\n[]\n[/sys/fs]\n\n");
	run_result_free(&r);
}
