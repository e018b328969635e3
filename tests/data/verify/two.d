BEGIN
{
	x = 1;
}

syscall::getppid:entry
{
	printf("%d\n", ppid);
}

syscall::getpid:entry
/x == 1/
{
	printf("%d %d\n", pid, ppid + x);
}
