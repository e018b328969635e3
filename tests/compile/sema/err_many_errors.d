BEGIN
{
	a = "x" * 2;
	printf("%s\n", 5);
	trace(nosuch);
	@c = count(); @c = max(1);
}
syscall::bogus*:entry { }
