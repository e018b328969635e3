syscall::getppid:entry
{
	printf("%d %d\n", pid, ppid);
}
