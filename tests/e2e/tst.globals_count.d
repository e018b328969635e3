/* A global counter updated by one clause and printed by END. */
syscall::getppid:entry
/pid == $target/
{
	n++;
}

END
{
	printf("n=%d\n", n);
}
