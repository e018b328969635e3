/* Built-in variables in BEGIN, which runs in the dtrun process. */
BEGIN
{
	printf("%s|%s|%s|%s\n", probeprov, probemod, probefunc, probename);
	printf("%s %d %d %d %d %d\n", execname, pid, ppid, tid, uid, gid);
	printf("%d %d %d\n", cpu, $target, errno);
	printf("%d %d\n", timestamp, walltimestamp);
	exit(0);
}
