/* Count this program's own getppid() calls: the embedding sample's script. */
#pragma D option quiet

BEGIN
{
	printf("tracing getppid()\n");
}

syscall::getppid:entry
/pid == $pid/
{
	@calls = count();
	printf("getppid #%d\n", ++n);
}

END
{
	printf("done\n");
}
