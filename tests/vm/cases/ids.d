/*
 * The identity built-ins on the traced command's getppid(); ppid is
 * curtask->real_parent->tgid, read through CO-RE relocations.
 * vm-cmd: psids @REPORT@
 */
syscall::getppid:entry
/pid == $target/
{
	printf("pid=%d ppid=%d tid=%d uid=%d gid=%d comm=%s\n", pid, ppid, tid, uid, gid,
	    execname);
}
