/*
 * Syscall arguments on entry and the return value and errno on return:
 * write_n 3 calls write(fd, buf, i) for i = 1..3 on /dev/null.
 * vm-cmd: write_n 3
 */
syscall::write:entry
/pid == $target/
{
	printf("%s:%s size=%d\n", probefunc, probename, arg2);
}

syscall::write:return
/pid == $target/
{
	printf("%s:%s ret=%d errno=%d\n", probefunc, probename, arg1, errno);
}
