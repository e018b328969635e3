/*
 * errno on a failing syscall: the trigger's openat() calls (picked out by
 * their unusual mode argument, 0421) fail with ENOENT.
 */
syscall::openat:entry
/pid == $target && arg3 == 0421/
{
	self->mine = 1;
}

syscall::openat:return
/self->mine/
{
	printf("errno=%d\n", errno);
	self->mine = 0;
}

syscall::openat:return
/pid == $target && errno == 2/
{
	@["ENOENT"] = count();
}
