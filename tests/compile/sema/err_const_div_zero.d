BEGIN
{
	x = 10;
	a = 123 / (7 - 7);
	b = 5 % 0;
	c = 9 / ((2 - 2) * 4);
	d = x / 0; /* not constant: a run-time error, as in DTrace */
	exit(0);
}
