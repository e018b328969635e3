/* All six syscall arguments on entry, and errno (EBADF, 9) on return. */
syscall::sendto:entry
/pid == $target/
{
	printf("%d %x %x %x %x %x\n", (int)arg0, arg1, arg2, arg3, arg4, arg5);
}

syscall::sendto:return
/pid == $target/
{
	printf("errno=%d\n", errno);
}
