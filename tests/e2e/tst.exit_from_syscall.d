/* exit() from a syscall probe ends the trace while the -c command still runs. */
syscall::getppid:entry
/pid == $target/
{
	printf("exiting\n");
	exit(5);
}
