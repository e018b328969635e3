/*
 * Kernel structures through CO-RE on another kernel: curthread fields and
 * the D library's curpsinfo/curlwpsinfo translators, compiled against this
 * machine's 6.18 BTF and relocated by libbpf to the guest's 6.1 layout.
 * vm-cmd: psids @REPORT@
 */
syscall::getppid:entry
/pid == $target/
{
	printf("pid=%d ppid=%d tid=%d uid=%d gid=%d comm=%s\n", curthread->tgid,
	    curthread->real_parent->tgid, curthread->pid, curthread->cred->uid.val,
	    curthread->cred->gid.val, curthread->comm);
	printf("pid=%d ppid=%d pgid=%d sid=%d uid=%d gid=%d lwp=%d fname=%s\n",
	    curpsinfo->pr_pid, curpsinfo->pr_ppid, curpsinfo->pr_pgid, curpsinfo->pr_sid,
	    curpsinfo->pr_uid, curpsinfo->pr_gid, curlwpsinfo->pr_lwpid, curpsinfo->pr_fname);
}
