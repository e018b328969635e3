/*
 * The sched provider: which scheduler tracepoint serves each probe (tp_btf,
 * through the rows proc_prov.h describes and cg_proc.c attaches), and the
 * probes no tracepoint serves, refused by name.
 *
 * sched_switch(preempt, prev, next, prev_state) serves four probes, all
 * with arg0 the arriving task, arg1 preempt and arg2 prev_state:
 * off-cpu (every switch, in the leaving task's context, args[] describing
 * the arriving one, as in DTrace), on-cpu (every switch, but for the
 * arriving task: curthread, pid, tid, execname... are next's, see `cur`),
 * preempt (a switch away from a runnable task: preempt set) and sleep (a
 * switch away from a task that blocks: not preempted, prev_state not
 * TASK_RUNNING). wakeup is sched_waking, which try_to_wake_up() fires in
 * the waker's context (sched_wakeup may run on the woken task's CPU).
 *
 * tick is the scheduler's tick, which DTrace for Linux takes from
 * fbt::scheduler_tick:entry (fentry, which not every kernel allows): here
 * hrtimer_expire_entry for the hrtimer that runs the tick (its function
 * the kernel's tick handler, found by name in kallsyms: headers/d/sched.d),
 * in the interrupted task's context, HZ times a second on each CPU that is
 * not idle. arg0 is the running task, as DTrace's; arg3 the hrtimer (what
 * the filter reads). A kernel in low-resolution mode (no hrtimer tick)
 * never fires it.
 */
#include <string.h>

#include "diag.h"
#include "proc_prov.h"
#include "sema_internal.h"

#define N PROC_SRC_NONE

static const struct proc_probe scheds[] = {
	{ "sched", "off-cpu", PA_TP_BTF, "sched_switch", { 2, 0, 3, N }, NULL,
	  { "__dcc_sched_lwpsinfo0", "__dcc_sched_psinfo0" }, NULL },
	{ "sched", "on-cpu", PA_TP_BTF, "sched_switch", { 2, 0, 3, N }, NULL, { NULL },
	  "__dcc_sched_next" },
	{ "sched", "preempt", PA_TP_BTF, "sched_switch", { 2, 0, 3, N }, "__dcc_sched_preempted",
	  { NULL }, NULL },
	{ "sched", "sleep", PA_TP_BTF, "sched_switch", { 2, 0, 3, N }, "__dcc_sched_blocks",
	  { NULL }, NULL },
	{ "sched", "wakeup", PA_TP_BTF, "sched_waking", { 0, N, N, N }, NULL,
	  { "__dcc_sched_lwpsinfo0", "__dcc_sched_psinfo0" }, NULL },
	{ "sched", "tick", PA_TP_BTF, "hrtimer_expire_entry", { PROC_SRC_CURTASK, N, N, 0 },
	  "__dcc_sched_tick", { "__dcc_sched_lwpsinfo0", "__dcc_sched_psinfo0" }, NULL },
};

const struct proc_probe *sched_probe(int i)
{
	return i >= 0 && i < (int)(sizeof(scheds) / sizeof(scheds[0])) ? &scheds[i] : NULL;
}

/* Solaris's sched probes that no Linux tracepoint marks (DTrace for Linux
 * serves some with fbt, which dcc does not compose into providers yet). */
static const struct {
	const char *name, *why;
} refused[] = {
	{ "enqueue", "no tracepoint marks a task joining a run queue (DTrace for Linux uses "
		     "fbt::enqueue_task_*:entry)" },
	{ "dequeue", "no tracepoint marks a task leaving a run queue (DTrace for Linux uses "
		     "fbt::dequeue_task_*:entry)" },
	{ "remain-cpu", "no tracepoint marks the scheduler keeping the running task" },
	{ "change-pri", "the kernel's priority tracepoint, sched_pi_setprio, marks priority "
			"inheritance only, not nice(2) or sched_setattr(2)" },
	{ "surrender", "no tracepoint marks a yield or a request to reschedule (DTrace for "
		       "Linux uses fbt::do_sched_yield:entry)" },
};

int sema_sched_refused(struct sema *s, struct node *d, const char *name)
{
	for (unsigned i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(name, refused[i].name))
			return diag_error(s->dg, d->loc, "sched:::%s is not supported: %s", name,
					  refused[i].why);
	return 0;
}
