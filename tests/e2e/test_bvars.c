/*
 * Builtin variables whose values are only known by relationships, on this
 * kernel. vtimestamp, the thread's time on a CPU, never goes back and is
 * below timestamp (no thread has run longer than the system). stackdepth and
 * ustackdepth count the frames stack() and ustack() would show, cut at
 * maxframes; caller is stack()'s second frame, ucaller ustack()'s; BEGIN
 * and END have no kernel frames.
 */
#include <string.h>

#include "e2e/e2e.h"

E2E_TEST(bvars, begin_and_end_have_no_kernel_frames)
{
	const char *obj = e2e_build("begin",
		"#pragma D option quiet\n"
		"BEGIN { printf(\"%u %x\\n\", stackdepth, caller); stack(); exit(0); }\n"
		"END { printf(\"%u %x\\n\", stackdepth, caller); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	/* stack() shows no frame: its blank line only */
	e2e_expect(&r, 0, "0 0\n\n0 0\n\n");
	run_result_free(&r);
}

/* A syscall from user space has at least the entry code and the tracing
 * hook under it: with maxframes=2 both depths are cut to exactly 2, and so
 * is stack(). */
E2E_TEST(bvars, maxframes_cuts_the_depths_and_the_stacks)
{
	const char *obj = e2e_build("maxframes",
		"#pragma D option quiet\n"
		"#pragma D option maxframes=2\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	printf(\"%u %u\\n\", stackdepth, ustackdepth);\n"
		"	stack(); ustack(20);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("getppid_n"), obj, NULL);
	cr_assert_eq(r.status, 0, "dtrun failed: %s", r.err);
	cr_assert(!strncmp(r.out, "2 ", 2), "stackdepth is not 2:\n%s", r.out);
	/* the first line, a blank line and two kernel frames, a blank line and
	 * at most two user frames (an unwound frame can be 0, not shown) */
	int lines = e2e_lines(r.out);
	cr_assert(lines >= 5 && lines <= 8, "%d lines:\n%s", lines, r.out);
	run_result_free(&r);
}

/* caller prints as stack()'s second line: the same address, the same
 * symbolization. */
E2E_TEST(bvars, caller_is_the_second_kernel_frame)
{
	const char *obj = e2e_build("caller",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	printf(\"%a\\n\", caller);\n"
		"	stack(2);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("getppid_n"), obj, NULL);
	cr_assert_eq(r.status, 0, "dtrun failed: %s", r.err);
	char first[256], frame[2][256];
	cr_assert_eq(sscanf(r.out, "%255s %255s %255s", first, frame[0], frame[1]), 3,
		     "output:\n%s", r.out);
	cr_assert_str_eq(first, frame[1], "caller is not stack()'s second frame:\n%s", r.out);
	cr_assert_str_neq(frame[0], frame[1]);
	run_result_free(&r);
}

E2E_TEST(bvars, vtimestamp_grows_and_stays_below_timestamp)
{
	const char *obj = e2e_build("vtimestamp",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ { self->v = vtimestamp; }\n"
		"syscall::getppid:return /self->v/ {\n"
		"	printf(\"%d %d %d\\n\", vtimestamp >= self->v, self->v > 0,\n"
		"	    vtimestamp < timestamp);\n"
		"	self->v = 0;\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 3", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "1 1 1\n1 1 1\n1 1 1\n\n");
	run_result_free(&r);
}

/* ustack() with no argument takes ustackframes frames, 100 by default as in
 * DTrace for Linux (Solaris took 20): a 30-deep call chain shows 29 frames
 * in descend(), all the same return address, symbolized or not (the trigger
 * may be gone when they are printed); ustackframes=20 cuts the whole stack
 * to 20 lines. */
static int most_repeated_line(const char *out)
{
	int best = 0;
	for (const char *a = out; *a; a = strchr(a, '\n') ? strchr(a, '\n') + 1 : "") {
		size_t len = strcspn(a, "\n");
		int n = 0;
		for (const char *b = out; *b; b = strchr(b, '\n') ? strchr(b, '\n') + 1 : "")
			n += strcspn(b, "\n") == len && !strncmp(a, b, len);
		if (len > 0 && n > best)
			best = n;
	}
	return best;
}

E2E_TEST(bvars, ustack_takes_100_frames_by_default)
{
	const char *obj = e2e_build("ustack100",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ { ustack(); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("deep_stack"), obj, NULL);
	cr_assert_eq(r.status, 0, "dtrun failed: %s", r.err);
	cr_assert_eq(most_repeated_line(r.out), 29, "output:\n%s", r.out);
	run_result_free(&r);

	obj = e2e_build("ustack20",
		"#pragma D option quiet\n"
		"#pragma D option ustackframes=20\n"
		"syscall::getppid:entry /pid == $target/ { ustack(); }\n");
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("deep_stack"), obj, NULL);
	cr_assert_eq(r.status, 0, "dtrun failed: %s", r.err);
	/* 20 frames: getppid's stub and 19 in descend */
	int frames = 0;
	for (const char *p = r.out; (p = strstr(p, "\n ")); p++)
		frames++;
	cr_assert_eq(frames, 20, "output:\n%s", r.out);
	cr_assert_eq(most_repeated_line(r.out), 19, "output:\n%s", r.out);
	run_result_free(&r);
}

/* A stripped executable's static function is named from its detached debug
 * file (found through .gnu_debuglink beside it; distributions' libraries
 * the same way, by build-id under /usr/lib/debug): split_debug's
 * inner_call() is in no symbol table of the file itself. */
E2E_TEST(bvars, ufunc_names_a_function_from_the_detached_debug_file)
{
	const char *obj = e2e_build("split_debug",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	ufunc(ucaller); printf(\"|\\n\");\n"
		"	printf(\"%s|\\n\", probefunc);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("split_debug"), obj, NULL);
	e2e_expect(&r, 0, "  split_debug`inner_call                            |\n"
			  "getppid|\n\n");
	run_result_free(&r);
}

/* timestamp is one instant a firing: reads before, inside and after a branch
 * and the ones of an ERROR clause agree; walltimestamp is that instant too;
 * two firings (here two getppid calls) have two instants */
E2E_TEST(bvars, timestamp_is_one_value_a_firing)
{
	const char *obj = e2e_build("tstamp_once",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	this->a = timestamp;\n"
		"	this->w = walltimestamp;\n"
		"	this->b = this->a > 0 ? timestamp : 0;\n"
		"	printf(\"%d %d %d\\n\", this->a == this->b, this->b == timestamp,\n"
		"	    walltimestamp == this->w);\n"
		"	self->t[self->n++] = timestamp;\n"
		"}\n"
		"syscall::getppid:return /pid == $target && self->n == 2/ {\n"
		"	printf(\"%d\\n\", self->t[1] > self->t[0]);\n"
		"	self->n = 0;\n"
		"}\n"
		"BEGIN { this->t = timestamp; x = *(int *)0; }\n"
		"ERROR { printf(\"%d\\n\", timestamp == timestamp && timestamp > 0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 2", e2e_trigger("getppid_n")), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "1\n1 1 1\n1 1 1\n1\n\n", "%s", r.out);
	run_result_free(&r);
}

/* ipl has no meaning on Linux: DTrace for Linux gives 0, an unsigned int,
 * in every probe; here it is a constant, usable in arithmetic like any. */
E2E_TEST(bvars, ipl_is_an_unsigned_zero)
{
	const char *obj = e2e_build("ipl",
		"#pragma D option quiet\n"
		"BEGIN { printf(\"%u %d %d\\n\", ipl, ipl - 1 > 0, sizeof(ipl)); exit(ipl); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "0 1 4\n\n"); /* and the consumer's closing newline */
	run_result_free(&r);
}
