BEGIN
{
	printf("%s %d\n", "one");
}
