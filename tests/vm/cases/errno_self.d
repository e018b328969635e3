/*
 * A thread-local variable set on entry and read on return, errno of a
 * failing openat() (ENOENT, 2) and a count() keyed by a string.
 * vm-cmd: errno_n 4
 */
syscall::openat:entry
/pid == $target && arg3 == 0421/
{
	self->in = 1;
}

syscall::openat:return
/self->in/
{
	printf("openat errno=%d\n", errno);
	@fails["ENOENT"] = count();
	self->in = 0;
}
