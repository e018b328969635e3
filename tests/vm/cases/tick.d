/*
 * A tick probe: the first firing prints and exits; nothing after exit()
 * is recorded.
 */
profile:::tick-100ms
{
	printf("tick\n");
	exit(0);
}
