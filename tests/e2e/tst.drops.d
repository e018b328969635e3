/* One record per getppid() call of the target: a tiny buffer must drop some. */
syscall::getppid:entry
/pid == $target/
{
	printf("%d\n", pid);
}
