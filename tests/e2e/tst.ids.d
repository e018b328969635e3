/* The identity built-ins, printed in the same form the ids trigger writes. */
syscall::getppid:entry
/pid == $target/
{
	printf("pid=%d ppid=%d tid=%d uid=%d gid=%d comm=%s\n", pid, ppid, tid, uid, gid,
	    execname);
}
