/* a float is neither true nor false, and '?:' cannot pick one */
double d;
double e;
int i;
BEGIN /d/ { }
BEGIN
{
	x = d ? 1 : 2;
	y = i ? d : e;
	z = (i, d);
	w = d || i;
}
