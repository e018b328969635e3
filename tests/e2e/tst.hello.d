BEGIN
{
	printf("hello from dcc\n");
	exit(0);
}
