/*
 * failed_syscalls.d: system calls that fail, by process, call and errno,
 * for ten seconds.
 *
 *   dcc run -q -s samples/failed_syscalls.d
 */
syscall:::return
/errno != 0/
{
	@fails[execname, probefunc, errno] = count();
}

profile:::tick-10s
{
	exit(0);
}
