/*
 * The ERROR probe on the second kernel: a fault in a raw_tp (BEGIN) and in a
 * tracepoint program each call the ERROR clause, a static BPF function the
 * programs share, with the fault's clause, kind and value.
 * vm-cmd: psids @REPORT@
 */
#pragma D option quiet

ERROR
{
	printf("ERROR from %s: clause %d fault %d value %d\n",
	    arg1 == 1 ? "BEGIN" : "getppid", arg2, arg4, arg5);
}

BEGIN
{
	trace(*(int *)0x4000);
}

syscall::getppid:entry
/pid == $target/
{
	trace(1 / (pid - pid));
}

syscall::getppid:return
/pid == $target/
{
	exit(0);
}
