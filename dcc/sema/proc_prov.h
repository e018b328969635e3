/*
 * The proc and sched providers' probes, shared by sema (names, filters,
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
#define PROC_MAXARGS 3

struct proc_probe {
	const char *prov;                 /* "proc" or "sched" */
	const char *name;
	enum proc_attach attach;
	const char *target;
	signed char src[PROC_MAXARGS];    /* argN: the kernel point's argument src[N] */
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

#define PROC_ID_BASE 60 /* proc, then sched: up to 99 */

/* NULL past the last: proc's rows, then sched's */
const struct proc_probe *proc_probe(int i);

/* sema_sched.c: sched's rows, and the refusal of a sched probe no
 * tracepoint serves (1 and a diagnostic, or 0) */
const struct proc_probe *sched_probe(int i);

#endif
