/* Ends when the -c command exits; END reports how long BEGIN was before it. */
BEGIN
{
	start = timestamp;
}

END
{
	printf("ms=%d\n", (timestamp - start) / 1000000);
}
