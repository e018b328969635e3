/* A tick probe that exits on its first firing: nothing after exit() is recorded. */
profile:::tick-100ms
{
	printf("tick\n");
	exit(0);
}
