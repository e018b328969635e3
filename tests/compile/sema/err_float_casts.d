/* no conversion to, from or between float types: only the identity cast */
double d;
float f;
long double ld;
BEGIN
{
	i = (int)d;
	d = (double)1;
	f = (float)d;
	ld = (long double)d;
	p = (uintptr_t)ld;
	d = (double)d;
	pd = (double *)0;
	dd = *pd;
}
