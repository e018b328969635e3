/*
 * Process and thread descriptions in DTrace's shapes, translated from the
 * kernel's task_struct through CO-RE (so they follow each kernel's layout):
 * psinfo_t with curpsinfo, lwpsinfo_t with curlwpsinfo.
 *
 * Linux has no exact counterpart for some Solaris fields; they are left
 * out rather than made up. pr_psargs is the first argument (argv[0]) read
 * from the process's memory.
 */

typedef struct psinfo {
	int pr_nlwp;		/* threads in the process */
	pid_t pr_pid;		/* process id (the thread group id) */
	pid_t pr_ppid;		/* parent's process id */
	pid_t pr_pgid;		/* process group id */
	pid_t pr_sid;		/* session id */
	uid_t pr_uid;		/* real user id */
	uid_t pr_euid;		/* effective user id */
	gid_t pr_gid;		/* real group id */
	gid_t pr_egid;		/* effective group id */
	uintptr_t pr_addr;	/* the task_struct */
	char pr_fname[16];	/* command name (comm) */
	char pr_psargs[80];	/* argv[0] */
} psinfo_t;

typedef struct lwpsinfo {
	int pr_flag;		/* task flags (PF_*) */
	id_t pr_lwpid;		/* thread id */
	uintptr_t pr_addr;	/* the task_struct */
	int pr_state;		/* scheduler state (__state) */
	char pr_sname;		/* the state as ps(1) shows it: R, S, D, T, t, I, Z, X */
	char pr_nice;		/* nice value: DTrace for Linux's translator leaves it
				   undefined, so reading it is an error */
	int pr_pri;		/* kernel priority */
	processorid_t pr_onpro;	/* CPU it last ran on */
	char pr_name[16];	/* thread name (comm) */
} lwpsinfo_t;

translator psinfo_t < struct task_struct *T > {
	pr_nlwp = T->signal->nr_threads;
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	pr_pgid = T->signal->pids[2]->numbers[0].nr;
	pr_sid = T->signal->pids[3]->numbers[0].nr;
	pr_uid = T->cred->uid.val;
	pr_euid = T->cred->euid.val;
	pr_gid = T->cred->gid.val;
	pr_egid = T->cred->egid.val;
	pr_addr = (uintptr_t)T;
	pr_fname = T->comm;
	pr_psargs = copyinstr(T->mm->arg_start, 79);
};

translator lwpsinfo_t < struct task_struct *T > {
	pr_flag = T->flags;
	pr_lwpid = T->pid;
	pr_addr = (uintptr_t)T;
	pr_state = T->__state;
	/* TASK_RUNNING is 0; the other states are bits (TASK_IDLE is
	 * TASK_UNINTERRUPTIBLE with TASK_NOLOAD); a dead task's is in exit_state */
	pr_sname = T->exit_state & 0x20 ? 'Z' : T->exit_state & 0x10 ? 'X' :
		   T->__state == 0 ? 'R' : (T->__state & 0x402) == 0x402 ? 'I' :
		   T->__state & 1 ? 'S' : T->__state & 2 ? 'D' : T->__state & 4 ? 'T' :
		   T->__state & 8 ? 't' : '?';
	pr_pri = T->prio;
	pr_onpro = T->thread_info.cpu;
	pr_name = T->comm;
};

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
