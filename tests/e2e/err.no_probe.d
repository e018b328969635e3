syscall::no_such_syscall:entry
{
	trace(1);
}
