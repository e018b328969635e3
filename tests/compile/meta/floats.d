/* float values in records: a float in an 8-byte slot, a double, a long
 * double in 16 bytes, each described as a floating-point field */
double d;
float f;
long double ld;
BEGIN
{
	printf("%f %e %Lg\n", f, d, ld);
	trace(d);
	trace(ld);
	exit(0);
}
