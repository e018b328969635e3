/*
 * The sched provider and curcpu on this kernel. The pingpong trigger's two
 * threads, "ping" and "pong", pass a byte over pipes N times, each writing
 * only once the other sleeps in its read: ping wakes pong exactly N times,
 * and pong goes to sleep exactly N times. on-cpu must describe the arriving
 * thread: for every switch, the execname on-cpu sees is the name off-cpu's
 * args[0] gives, so their per-name sums of +1 and -1 are 0.
 */
#include <sys/stat.h>

#include "e2e.h"

#define ROUNDS 50

static const char pingpong_d[] =
	"#pragma D option quiet\n"
	"sched:::wakeup /pid == $target && execname == \"ping\" && args[1]->pr_pid == $target/\n"
	"{\n"
	"	@wake[execname, stringof(args[0]->pr_name)] = count();\n"
	"}\n"
	"sched:::sleep /pid == $target && execname == \"pong\"/ { @sleep[execname] = count(); }\n"
	"sched:::on-cpu /pid == $target && (execname == \"ping\" || execname == \"pong\")/\n"
	"{\n"
	"	@in[execname] = sum(1);\n"
	"	@ids = min(tid == curthread->pid && pid == curpsinfo->pr_pid &&\n"
	"	    curlwpsinfo->pr_lwpid == tid && ppid == curpsinfo->pr_ppid &&\n"
	"	    uid == curpsinfo->pr_uid && gid == curpsinfo->pr_gid);\n"
	"}\n"
	"sched:::off-cpu /args[1]->pr_pid == $target &&\n"
	"    (args[0]->pr_name == \"ping\" || args[0]->pr_name == \"pong\")/\n"
	"{\n"
	"	@in[stringof(args[0]->pr_name)] = sum(-1);\n"
	"}\n"
	"END\n"
	"{\n"
	"	printa(\"wakeup %s -> %s %@d\\n\", @wake);\n"
	"	printa(\"sleep %s %@d\\n\", @sleep);\n"
	"	printa(\"switched in %s %@d\\n\", @in);\n"
	"	printa(\"on-cpu ids agree %@d\\n\", @ids);\n"
	"}\n";

E2E_TEST(sched, pipe_pingpong_wakeups_sleeps_and_switches)
{
	const char *obj = e2e_build("pingpong", pingpong_d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("pingpong"), ROUNDS), obj,
		NULL);
	e2e_expect(&r, 0, e2e_fmt("wakeup ping -> pong %d\nsleep pong %d\n"
				  "switched in ping 0\nswitched in pong 0\n"
				  "on-cpu ids agree 1\n\n", ROUNDS, ROUNDS));
	run_result_free(&r);
}

/* A CPU's sysfs number, -1 when the file is missing */
static int sysfs_int(const char *path)
{
	char *s = read_file(path, NULL);
	int v = s ? atoi(s) : -1;
	free(s);
	return v;
}

static int sysfs_node(int cpu)
{
	for (int n = 0; n < 1024; n++) {
		struct stat st;
		if (!stat(e2e_fmt("/sys/devices/system/cpu/cpu%d/node%d", cpu, n), &st))
			return n;
	}
	return 0;
}

E2E_TEST(sched, curcpu_describes_the_cpu_the_probe_runs_on)
{
	const char *obj = e2e_build("curcpu",
		"#pragma D option quiet\n"
		"BEGIN\n"
		"{\n"
		"	this->c = curcpu;\n"
		"	printf(\"%d %d %d %d %d %d %d\\n\", cpu, this->c->cpu_id,\n"
		"	    this->c->cpu_pset, pset,\n"
		"	    chip == curcpu->cpu_chip ? chip : -2, lgrp, curcpu->cpu_info);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	int c = -1;
	cr_assert_eq(sscanf(r.out, "%d", &c), 1, "no output: %s", r.err);
	int chip = sysfs_int(e2e_fmt("/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
				     c));
	e2e_expect(&r, 0, e2e_fmt("%d %d -1 -1 %d %d 0\n\n", c, c, chip, sysfs_node(c)));
	run_result_free(&r);
}

/* sched:::tick is the scheduler's tick, HZ times a second on a busy CPU
 * (100 to 1000 on the kernels dcc runs on), in the context of the task it
 * interrupts: spin_cpu runs 400 ms of CPU time, so it sees 40 to 400 ticks
 * (with slack for the first and last), each with arg0 its task, args[0] its
 * thread and args[1] its process, as DTrace's tick has them. */
E2E_TEST(sched, tick_fires_in_the_running_task_at_the_tick_rate)
{
	const char *obj = e2e_build("sched_tick",
		"#pragma D option quiet\n"
		"sched:::tick /pid == $target/ {\n"
		"	@ticks = count();\n"
		"	@agree = min(arg0 == (uint64_t)curthread && args[0]->pr_lwpid == tid &&\n"
		"	    args[1]->pr_pid == pid && args[1]->pr_fname == execname);\n"
		"}\n"
		"END {\n"
		"	printa(\"%@d\\n\", @ticks);\n"
		"	printa(\"agree %@d\\n\", @agree);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 400", e2e_trigger("spin_cpu")), obj, NULL);
	cr_assert_eq(r.status, 0, "dtrun failed: %s", r.err);
	long ticks = atol(r.out);
	cr_assert(ticks >= 20 && ticks <= 505, "ticks %ld out of range:\n%s", ticks, r.out);
	e2e_assert_bytes("output", r.out, e2e_fmt("%ld\nagree 1\n\n", ticks));
	run_result_free(&r);
}

/* A thread-local seen from on-cpu is the arriving thread's, the one its
 * off-cpu sees later: every off-cpu of pong finds the 1 its on-cpu left
 * (and takes it back), at least once per sleep of pong. On the thread
 * going out instead, pong's off-cpu would find none. */
E2E_TEST(sched, on_cpu_thread_locals_are_the_arriving_threads)
{
	const char *obj = e2e_build("oncpu_self", e2e_fmt(
		"#pragma D option quiet\n"
		"sched:::on-cpu /pid == $target && execname == \"pong\"/ { self->in++; }\n"
		"sched:::off-cpu /pid == $target && execname == \"pong\" && self->in/\n"
		"{\n"
		"	self->in--; @left = max(self->in); n++;\n"
		"}\n"
		"END { printa(\"left %%@d\\n\", @left); printf(\"%%d\\n\", n >= %d); }\n", ROUNDS));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d", e2e_trigger("pingpong"), ROUNDS), obj,
		NULL);
	e2e_expect(&r, 0, "left 0\n1\n\n");
	run_result_free(&r);
}
