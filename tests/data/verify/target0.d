syscall::getppid:entry
/$target == 0/
{
	printf("%d\n", ppid);
}
