/* An aggregation keyed by two strings. */
syscall::getppid:entry,
syscall::getppid:return
/pid == $target/
{
	@calls[probefunc, probename] = count();
}
