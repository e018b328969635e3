#pragma D option quiet
#pragma D option bufsize=1m
syscall::getppid:entry, syscall::getpid:entry
/pid == $target/
{
	@calls[probefunc, execname] = count();
	self->ts = timestamp;
}
syscall::getppid:return /self->ts/
{
	@lat = avg(timestamp - self->ts);
	self->ts = 0;
}
syscall::open*:entry { trace(arg1); }
syscall:::return /errno != 0/ { @errs[probefunc] = count(); }
profile:::tick-10ms { n++; }
profile:::profile-97 { @cpu[cpu] = count(); }
END { printa("%s %s %@d\n", @calls); printf("%d ticks\n", n); }
