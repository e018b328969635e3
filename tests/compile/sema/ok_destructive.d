/* tracemem() and every destructive action dcc compiles: no error (dcc
 * compiles them without -w; dtrun refuses to run them without it) */
syscall::write:entry
{
	tracemem(copyin(arg1, 16), 16);
	tracemem(copyin(arg1, 16), 16, arg2);
	raise(SIGUSR1);
	stop();
	system("echo %d %s", pid, execname);
	freopen("/tmp/x.%d", pid);
	freopen("");
	ftruncate();
	copyout(copyin(arg1, 4), arg1 + 4, 4);
	copyoutstr(execname, arg1, 16);
}
