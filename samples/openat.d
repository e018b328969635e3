/*
 * openat.d: every openat(2) with who made it, its flags, the result and
 * how long it took (thread-local timing between entry and return).
 *
 *   dcc run -q -s samples/openat.d
 */
BEGIN
{
	printf("%-16s %7s %7s %8s %4s %5s %8s\n", "COMM", "PID", "TID", "FLAGS", "FD", "ERRNO",
	    "US");
}

syscall::openat:entry
{
	self->flags = arg2;
	self->ts = timestamp;
}

syscall::openat:return
/self->ts/
{
	printf("%-16s %7d %7d %8x %4d %5d %8d\n", execname, pid, tid, self->flags,
	    errno ? -1 : arg1, errno, (timestamp - self->ts) / 1000);
	self->flags = 0;
	self->ts = 0;
}
