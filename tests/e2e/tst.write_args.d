/* Syscall arguments on entry, return value and errno on return. */
syscall::write:entry
/pid == $target/
{
	printf("entry %d\n", arg2);
}

syscall::write:return
/pid == $target/
{
	printf("return %d %d errno=%d\n", arg0, arg1, errno);
}
