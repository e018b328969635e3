/*
 * Nine syscalls in one description: one program on raw_syscalls that keeps
 * only their numbers (cg.c), not nine tracepoints. It must see what one
 * syscall's own tracepoint sees: the six arguments of args6's sendto(),
 * probefunc from the number, the return value and errno on return.
 */
syscall::sendto:entry, syscall::recvfrom:entry, syscall::sendmsg:entry,
syscall::recvmsg:entry, syscall::bind:entry, syscall::listen:entry,
syscall::connect:entry, syscall::accept:entry, syscall::shutdown:entry
/pid == $target/
{
	printf("%s:%s %d %x %x %x %x %x\n", probefunc, probename, arg0, arg1, arg2, arg3,
	       arg4, arg5);
}

syscall::sendto:return, syscall::recvfrom:return, syscall::sendmsg:return,
syscall::recvmsg:return, syscall::bind:return, syscall::listen:return,
syscall::connect:return, syscall::accept:return, syscall::shutdown:return
/pid == $target/
{
	printf("%s:%s %d errno=%d\n", probefunc, probename, arg0, errno);
}
