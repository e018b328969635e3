/* trace() in quiet mode prints the bare values, with nothing between them. */
BEGIN
{
	trace(1);
	trace("a");
	trace(-5LL);
	trace((char)-3);
	exit(0);
}
