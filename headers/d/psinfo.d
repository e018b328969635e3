/*
 * Process and thread descriptions in DTrace's shapes, translated from the
 * kernel's task_struct through CO-RE (so they follow each kernel's layout):
 * psinfo_t with curpsinfo, lwpsinfo_t with curlwpsinfo.
 *
 * Linux has no exact counterpart for some Solaris fields; they are left
 * out rather than made up. pr_psargs is the process's arguments joined by
 * spaces (as execargs), read from its memory: only the current thread's
 * memory can be read, so another task's is "<unknown>", as in DTrace for
 * Linux.
 */

typedef id_t taskid_t;
typedef id_t dprojid_t;
typedef id_t poolid_t;

typedef struct timestruc {
	long tv_sec;
	long tv_nsec;
} timestruc_t;

inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;

/* DTrace for Linux's layout; the members its translator leaves out (sizes,
 * times, the argument vector, pr_lwp) are left out here too: reading one
 * is an error. */
typedef struct psinfo {
	int pr_flag;		/* (not translated) */
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
	size_t pr_size;		/* (not translated) */
	size_t pr_rssize;	/* (not translated) */
	size_t pr_pad1;
	uintptr_t pr_ttydev;	/* the controlling tty_struct, or -1 */
	ushort_t pr_pctcpu;	/* (not translated) */
	ushort_t pr_pctmem;	/* (not translated) */
	timestruc_t pr_start;	/* (not translated) */
	timestruc_t pr_time;	/* (not translated) */
	timestruc_t pr_ctime;	/* (not translated) */
	char pr_fname[16];	/* command name (comm) */
	char pr_psargs[80];	/* argv[0] */
	int pr_wstat;		/* 0 */
	int pr_argc;		/* (not translated) */
	uintptr_t pr_argv;	/* (not translated) */
	uintptr_t pr_envp;	/* (not translated) */
	char pr_dmodel;		/* PR_MODEL_LP64 */
	char pr_pad2[3];
	taskid_t pr_taskid;	/* Linux has no tasks, projects, pools, zones, contracts: 0 */
	dprojid_t pr_projid;
	int pr_nzomb;
	poolid_t pr_poolid;
	zoneid_t pr_zoneid;
	id_t pr_contract;
	int pr_filler[1];
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
	pr_psargs = T != curthread ? "<unknown>" : T->mm == NULL ? "" :
	    substr(__dcc_execargs(T->mm->arg_start, T->mm->arg_end), 0, 79);
	pr_ttydev = T->signal->tty ? (uintptr_t)T->signal->tty : (uintptr_t)-1;
	pr_wstat = 0;
	pr_dmodel = PR_MODEL_LP64;
	pr_taskid = 0;
	pr_projid = 0;
	pr_nzomb = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = 0;
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
