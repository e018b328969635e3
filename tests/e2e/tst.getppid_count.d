/* Count the -c command's getppid() calls, keyed by probefunc. */
syscall::getppid:entry
/pid == $target/
{
	@[probefunc] = count();
}
