BEGIN
{
	printf("hello
	);
}
