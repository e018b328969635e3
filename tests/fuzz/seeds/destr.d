/* fuzz seed: the consumer's destructive actions the harness runs (system()
 * is faked there, ftruncate() empties /dev/null; freopen() is left out:
 * an object with it gets no records in the fuzzer) */
#pragma D option destructive

BEGIN
{
	system("echo %s %d %x", execname, pid, 255);
	system("true");
	ftruncate();
	printf("after\n");
}

syscall::write:entry
/arg2 > 1/
{
	system("echo %s wrote %d bytes to %d", execname, arg2, arg0);
	ftruncate();
	exit(0);
}
