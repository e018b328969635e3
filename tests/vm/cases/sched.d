/*
 * The sched provider on the 6.1 kernel (tp_btf argument lists differ
 * between kernels): the pingpong trigger's threads wake each other 50
 * times, as tests/e2e/test_sched.c checks them on this machine.
 * vm-cmd: pingpong 50
 */
sched:::wakeup /pid == $target && execname == "ping" && args[1]->pr_pid == $target/
{
	@wake[execname, stringof(args[0]->pr_name)] = count();
}
sched:::sleep /pid == $target && execname == "pong"/ { @sleep[execname] = count(); }
sched:::on-cpu /pid == $target && (execname == "ping" || execname == "pong")/
{
	@in[execname] = sum(1);
	@ids = min(tid == curthread->pid && pid == curpsinfo->pr_pid &&
	    curlwpsinfo->pr_lwpid == tid && ppid == curpsinfo->pr_ppid &&
	    uid == curpsinfo->pr_uid && gid == curpsinfo->pr_gid);
}
sched:::off-cpu /args[1]->pr_pid == $target &&
    (args[0]->pr_name == "ping" || args[0]->pr_name == "pong")/
{
	@in[stringof(args[0]->pr_name)] = sum(-1);
}
END
{
	printa("wakeup %s -> %s %@d\n", @wake);
	printa("sleep %s %@d\n", @sleep);
	printa("switched in %s %@d\n", @in);
	printa("on-cpu ids agree %@d\n", @ids);
}
