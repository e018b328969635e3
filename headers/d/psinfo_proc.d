/*
 * The proc provider's arguments and filters (see dcc/proc_prov.h), written
 * over each probe's mapped arg0..arg2. After psinfo.d: they translate
 * task_structs to psinfo_t and lwpsinfo_t.
 */

inline psinfo_t *__dcc_proc_psinfo0 = xlate <psinfo_t *> ((struct task_struct *)arg0);
inline lwpsinfo_t *__dcc_proc_lwpsinfo0 = xlate <lwpsinfo_t *> ((struct task_struct *)arg0);
inline string __dcc_proc_path0 = copyinstr(arg0);
inline int __dcc_proc_int0 = (int)arg0;
inline int __dcc_proc_int1 = (int)arg1;
/* declared void *: the value keeps its kernel type, whose BTF is read only here */
inline void *__dcc_proc_siginfo1 = (struct kernel_siginfo *)arg1;
inline uintptr_t __dcc_proc_handler2 =
    (uintptr_t)((struct k_sigaction *)arg2)->sa.sa_handler;
/* CLD_EXITED (1), CLD_KILLED (2) or CLD_DUMPED (3), from the wait status */
inline int __dcc_proc_exitreason =
    (((struct task_struct *)arg0)->exit_code & 0x7f) == 0 ? 1 :
    (((struct task_struct *)arg0)->exit_code & 0x80) ? 3 : 2;

/* filters */
inline int __dcc_proc_newproc =
    ((struct task_struct *)arg0)->pid == ((struct task_struct *)arg0)->tgid;
inline int __dcc_proc_newlwp =
    ((struct task_struct *)arg0)->pid != ((struct task_struct *)arg0)->tgid;
inline int __dcc_proc_failed = (long)arg0 < 0;
inline int __dcc_proc_succeeded = arg0 == 0;
/* sched_process_exit of the last thread: the group's live count is down to 0 */
inline int __dcc_proc_groupdead =
    ((struct task_struct *)arg0)->signal->live.counter == 0;
/* signal_generate's result: TRACE_SIGNAL_DELIVERED (0) or _LOSE_INFO (4)
 * queue the signal, _IGNORED (1) discards it */
inline int __dcc_proc_sigsent = arg2 == 0 || arg2 == 4;
inline int __dcc_proc_sigignored = arg2 == 1;
