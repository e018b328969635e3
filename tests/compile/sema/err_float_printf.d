/* e E f g G take any float type and nothing else; the integer and string
 * conversions take no float */
double d;
float f;
long double ld;
BEGIN
{
	printf("%f %e %E %g %G %Lf %lf %10.3f %-+#0*.*e\n", d, f, ld, d, f, d, ld, f, 5, 2, d);
	printf("%f\n", 1);
	printf("%e\n", "x");
	printf("%d\n", d);
	printf("%s\n", f);
	printf("%x\n", ld);
	printf("%*f\n", d, d);
	printf("%F\n", d);
	printf("%a\n", d);
}
