/* Non-quiet output: the header, a probe line per recording firing, trace() widths. */
BEGIN
{
	v = 5;
	trace(42);
	trace(-1LL);
	trace("str");
	exit(0);
}

END
{
	printf("x=%d\n", v);
}
