/*
 * The proc provider's probes, shared by sema (names, filters, args[]) and
 * codegen (attachment, arguments): each proc probe is a kernel tracepoint, an
 * optional filter and a mapping of its arguments, as DTrace for Linux defines
 * them but on tracepoints only (fentry is not on every kernel). The filters
 * and the args[] expressions are inlines of headers/d/psinfo_proc.d written
 * over the mapped arg0..argN.
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
	const char *name;
	enum proc_attach attach;
	const char *target;
	signed char src[PROC_MAXARGS];    /* argN: the kernel point's argument src[N] */
	const char *pred;                 /* inline that must be true, or NULL */
	const char *args[PROC_MAXARGS];   /* inline for args[N], or NULL */
};

#define PROC_ID_BASE 60

/* NULL past the last */
const struct proc_probe *proc_probe(int i);

#endif
