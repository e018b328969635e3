/* A script file for `dcc run -s`: globals set in one BEGIN clause are printed in the next. */
BEGIN
{
	name = "dcc";
	n = 7;
}

BEGIN
{
	printf("%s has %d letters? %s\n", name, n, n == 3 ? "yes" : "no");
	printf("[%8s] [%-8s] [%08d]\n", name, name, n * 1000);
	exit(0);
}
