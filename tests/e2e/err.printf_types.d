BEGIN
{
	printf("%d\n", "a string");
}
