/*
 * BEGIN and END both print; exit(3) is dtrun's exit status.
 * vm-status: 3
 */
BEGIN
{
	printf("begin %d\n", 1);
	exit(3);
}

END
{
	printf("end %s\n", "now");
}
