/* One printf per getppid() call of the -c command. */
syscall::getppid:entry
/pid == $target/
{
	printf("%s\n", probefunc);
}
