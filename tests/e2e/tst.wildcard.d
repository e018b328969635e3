/* Wildcards in probe descriptions, narrowed by probefunc in the predicate. */
syscall::getpp*:entry
/pid == $target/
{
	@wild[probefunc] = count();
}

syscall:::entry
/pid == $target && probefunc == "getppid"/
{
	@all[probefunc] = count();
}
