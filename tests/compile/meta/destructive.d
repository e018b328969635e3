/* destructive actions flag the object; tracemem's bytes then its optional
 * size; system() and freopen() are laid out like printf() */
syscall::write:entry
{
	tracemem(copyin(arg1, 20), 20, arg2);
	raise(SIGUSR1);
	system("echo %d", pid);
	freopen("");
	ftruncate();
}
