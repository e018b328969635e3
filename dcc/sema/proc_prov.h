/*
 * The proc, sched, ip, tcp, udp and lockstat providers' probes, shared by sema (names, filters,
 * args[]) and codegen (attachment, arguments): each probe is a kernel
 * tracepoint, an optional filter and a mapping of its arguments, as DTrace
 * for Linux defines them but on tracepoints only (fentry is not on every
 * kernel). The filters and the args[] expressions are inlines of
 * headers/d/psinfo_proc.d and headers/d/sched.d written over the mapped
 * arg0..argN.
 */
#ifndef DCC_PROC_PROV_H
#define DCC_PROC_PROV_H

enum proc_attach {
	PA_TP_BTF = 1,     /* tp_btf/TARGET */
	PA_SYS_ENTER,      /* syscalls/sys_enter_execve and _execveat */
	PA_SYS_EXIT,       /* syscalls/sys_exit_execve and _execveat */
};

#define PROC_SRC_NONE (-1)
#define PROC_SRC_PATH (-2) /* exec's path: execve's first argument, execveat's second */
/* lockstat (contention_end): what the contention_begin of the same thread
 * and lock recorded (cg_lockstat.c) */
#define PROC_SRC_LKTIME (-3)  /* nanoseconds since contention_begin */
#define PROC_SRC_LKFLAGS (-4) /* contention_begin's LCB_F_* flags */
#define PROC_SRC_LKREADER (-5) /* 1 for a reader (LCB_F_READ), 0 for a writer */
#define PROC_SRC_CURTASK (-6) /* the running task (sched:::tick's arg0, as DTrace's) */
#define PROC_MAXSRC 4
#define PROC_MAXARGS 6

struct proc_probe {
	const char *prov;                 /* "proc" or "sched" */
	const char *name;
	enum proc_attach attach;
	const char *target;
	signed char src[PROC_MAXSRC];     /* argN: the kernel point's argument src[N] */
	const char *pred;                 /* inline that must be true, or NULL */
	const char *args[PROC_MAXARGS];   /* inline for args[N], or NULL */
	/* The task the probe fires for when it is not the running one (on-cpu
	 * fires in sched_switch, before the arriving task runs): the prefix of
	 * the inlines that stand for curthread, pid/tid, uid/gid, execname and
	 * ppid (enum proc_cur), or NULL. */
	const char *cur;
};

/* what a probe's `cur` inlines replace, and their name suffixes */
enum proc_cur { PC_TASK, PC_PIDTGID, PC_UIDGID, PC_COMM, PC_PPID, PC_N };
#define PROC_CUR_SUFFIXES { "", "_pidtgid", "_uidgid", "_comm", "_ppid" }

#define PROC_ID_BASE 60 /* proc, sched, ip/tcp/udp, lockstat: up to 99 */

/* NULL past the last: proc's rows, then sched's */
const struct proc_probe *proc_probe(int i);

/* sema_sched.c: sched's rows; sema_net.c: ip's, tcp's and udp's;
 * sema_lockstat.c: lockstat's (NULL past the last, each) */
const struct proc_probe *sched_probe(int i);
const struct proc_probe *net_probe(int i);
const struct proc_probe *lockstat_probe(int i);

#endif
