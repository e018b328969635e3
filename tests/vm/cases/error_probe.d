/*
 * The ERROR probe on the second kernel: a fault in a tracepoint program
 * calls the ERROR clause, a static BPF function, with the fault's clause,
 * kind and value. One fault only: the error line (stderr) and the ERROR
 * clause's output (stdout) of two faults could interleave either way.
 * vm-cmd: psids @REPORT@
 */
#pragma D option quiet

ERROR
{
	printf("ERROR from %s: clause %d fault %d value %d\n",
	    arg1 == 1 ? "BEGIN" : "getppid", arg2, arg4, arg5);
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
