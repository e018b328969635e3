/*
 * count() over exactly 25 getppid() calls of the traced command.
 * vm-cmd: getppid_n 25
 */
syscall::getppid:entry
/pid == $target/
{
	@[probefunc] = count();
}
