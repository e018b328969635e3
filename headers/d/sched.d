/*
 * The sched provider's shapes: cpuinfo_t with curcpu and the pset, chip and
 * lgrp inlines, and the arguments, filters and stand-ins for the current
 * task of its probes (dcc/sema/sema_sched.c maps arg0 to the task the
 * tracepoint names, arg1 to sched_switch's preempt, arg2 to its prev_state).
 * After psinfo.d: they translate task_structs to lwpsinfo_t and psinfo_t.
 *
 * cpuinfo_t is read from the CPU the probe runs on: cpu_id is `cpu`. Linux
 * has no processor sets (cpu_pset is -1, Solaris's PS_NONE); the physical
 * package and the NUMA node of a CPU are per-CPU kernel data that a BPF
 * program reaches only through typed kernel symbols, which dcc does not
 * emit yet, so cpu_chip and cpu_lgrp are 0 and cpu_info is 0 (DTrace for
 * Linux's cpu_info points to the kernel's struct cpuinfo_x86).
 */

typedef id_t psetid_t;		/* processor set (Linux has none: -1) */
typedef id_t chipid_t;		/* physical package */
typedef id_t lgrp_id_t;		/* locality group (the NUMA node) */

typedef struct cpuinfo {
	processorid_t cpu_id;	/* CPU number */
	psetid_t cpu_pset;	/* processor set */
	chipid_t cpu_chip;	/* physical package */
	lgrp_id_t cpu_lgrp;	/* NUMA node */
	uintptr_t cpu_info;	/* the kernel's description of the CPU: 0 */
} cpuinfo_t;

translator cpuinfo_t < struct task_struct *T > {
	cpu_id = cpu;
	cpu_pset = -1;
	cpu_chip = 0;
	cpu_lgrp = 0;
	cpu_info = 0;
};

inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (curthread);
inline psetid_t pset = curcpu->cpu_pset;
inline chipid_t chip = curcpu->cpu_chip;
inline lgrp_id_t lgrp = curcpu->cpu_lgrp;

/* args[0] and args[1] of off-cpu (the arriving task) and wakeup (the woken) */
inline lwpsinfo_t *__dcc_sched_lwpsinfo0 = xlate <lwpsinfo_t *> ((struct task_struct *)arg0);
inline psinfo_t *__dcc_sched_psinfo0 = xlate <psinfo_t *> ((struct task_struct *)arg0);

/* tick's filter: the expiring hrtimer (arg3) is the one that runs the
 * scheduler's tick. Its handler's name changed: tick_sched_timer until
 * Linux 6.8, tick_nohz_highres_handler in 6.9, tick_nohz_handler since.
 * These backquoted symbols of the D library are weak: 0 where the running
 * kernel lacks one (a timer's function is never 0). */
inline int __dcc_sched_tick =
    (uintptr_t)((struct hrtimer *)arg3)->function == (uintptr_t)&`tick_nohz_handler ||
    (uintptr_t)((struct hrtimer *)arg3)->function == (uintptr_t)&`tick_sched_timer ||
    (uintptr_t)((struct hrtimer *)arg3)->function == (uintptr_t)&`tick_nohz_highres_handler;

/* filters: preempt is a switch away from a runnable task; sleep one away
 * from a task that blocks (prev_state is not TASK_RUNNING, nor TASK_DEAD:
 * a thread's last switch, after exit, is no sleep) */
inline int __dcc_sched_preempted = arg1 != 0;
inline int __dcc_sched_blocks = arg1 == 0 && arg2 != 0 && (arg2 & 0x80) == 0;

/* on-cpu fires for the arriving task (arg0): curthread, pid and tid,
 * uid and gid, execname and ppid are its own */
/* declared void *: the value keeps its kernel type, whose BTF is read only here */
inline void *__dcc_sched_next = (struct task_struct *)arg0;
inline uint64_t __dcc_sched_next_pidtgid =
    (uint64_t)((struct task_struct *)arg0)->tgid << 32 |
    (uint32_t)((struct task_struct *)arg0)->pid;
inline uint64_t __dcc_sched_next_uidgid =
    (uint64_t)((struct task_struct *)arg0)->cred->gid.val << 32 |
    ((struct task_struct *)arg0)->cred->uid.val;
inline string __dcc_sched_next_comm = stringof(((struct task_struct *)arg0)->comm);
inline pid_t __dcc_sched_next_ppid = ((struct task_struct *)arg0)->real_parent->tgid;
