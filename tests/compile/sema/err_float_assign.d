/* a float variable holds one float type; ints, other float types and
 * values of no float type don't mix with it */
struct s {
	float f;
	double d;
	long double ld;
	int i;
};
struct s v;
double d;
float f;
long double ld;
BEGIN
{
	d = f;
	f = ld;
	d = 0;
	i = 1;
	i = d;
	this->x = ld;
	this->x = d;
	self->f = f;
	self->f = 1;
	a[1] = d;
	a[2] = 1;
	v.d = v.f;
	v.i = v.d;
	v.d = 1;
	v.ld = ld;
	v.f = f;
	v.d += 1;
	v.f++;
}
