/* The x86_64 syscall table: number <-> name, for probe matching (sema) and
 * probefunc and the raw_syscalls filter (codegen). */
#ifndef DCC_SYSCALL_H
#define DCC_SYSCALL_H

/* The name of syscall nr, NULL if there is none. */
const char *syscall_name(int nr);
int syscall_max_nr(void);
/* How many syscalls there are; the i-th in number order (its name; *nr
 * gets its number), 0 <= i < syscall_count(). */
int syscall_count(void);
const char *syscall_nth(int i, int *nr);
/* How many arguments syscall NAME's sys_enter_NAME tracepoint records, -1
 * when it has no such tracepoint (syscall_nargs.c). */
int syscall_nargs(const char *name);

#endif
