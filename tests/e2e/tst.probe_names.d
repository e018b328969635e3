/* The probe tuple built-ins on syscall entry and return, in firing order. */
syscall::getppid:entry,
syscall::getppid:return
/pid == $target/
{
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
}
