/* Non-quiet output of a syscall probe: the probe line then trace()'s value. */
syscall::getppid:entry
/pid == $target/
{
	trace(pid == $target);
}
