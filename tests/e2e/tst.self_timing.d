/*
 * Thread-local timing of entry/return pairs: every return of the target's
 * getppid() must find the timestamp its entry stored, later than it, and the
 * variable is gone once set back to 0.
 */
syscall::getppid:entry
/pid == $target/
{
	self->ts = timestamp;
}

syscall::getppid:return
/pid == $target && self->ts == 0/
{
	@["unpaired"] = count();
}

syscall::getppid:return
/self->ts && timestamp > self->ts/
{
	@["later"] = count();
}

syscall::getppid:return
/self->ts/
{
	@["paired"] = count();
	self->ts = 0;
}

syscall::getppid:return
/pid == $target && self->ts != 0/
{
	@["not cleared"] = count();
}
