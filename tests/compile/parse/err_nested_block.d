BEGIN
{
	{ trace(1); }
	trace(2);
}
