/* floats are moved and printed, never computed with: every operator on one
 * is an error naming it */
double d;
float f;
BEGIN
{
	a = d + 1;
	b = 2 * f;
	c = d < d;
	e = d == 0;
	g = d && 1;
	h = 1 ^^ f;
	i = !d;
	j = -f;
	k = ~d;
	d++;
	--f;
	d += 1;
	f <<= 2;
}
