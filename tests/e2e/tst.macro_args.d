/* Macro arguments given after the script name: $1 and $2 as integers. */
BEGIN
{
	printf("%d %d\n", $1, $1 + $2);
	exit(0);
}
