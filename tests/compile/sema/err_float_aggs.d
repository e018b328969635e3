/* aggregations and associative arrays are keyed and valued by integers */
double d;
float f;
BEGIN
{
	@a = sum(d);
	@b = quantize(f);
	@c[d] = count();
	@e = lquantize(1, 0, 10, 1, d);
	x[f] = 1;
	exit(d);
	stringof(d);
	trace(d);
}
