/*
 * Two tick probes sharing a global: the first counts to 5 and prints each
 * step, the second exits once it sees 5. Whatever the interleaving, the
 * output is 1..5. (D wants a variable assigned before a predicate reads it.)
 */
BEGIN
{
	n = 0;
}

profile:::tick-50hz
/n < 5/
{
	n = n + 1;
	printf("%d\n", n);
}

profile:::tick-20ms
/n >= 5/
{
	exit(0);
}
