/*
 * hello.d: the smallest D program. BEGIN fires once when tracing starts.
 *
 *   dcc run samples/hello.d
 */
dtrace:::BEGIN
{
	printf("hello, world\n");
	exit(0);
}
