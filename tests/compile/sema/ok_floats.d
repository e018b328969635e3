/* what D does with floats: declare, load from memory, copy between the same
 * float type, print and trace */
typedef double real_t;
struct vals {
	char c;
	double d;
	float f;
	long double ld;
	real_t r;
	double arr[3];
};
struct vals g;
double gd;
real_t gr;
float gf;
long double gld;
self double sd;
this long double tld;
syscall::write:entry
{
	this->p = (struct vals *)copyin(arg1, sizeof(struct vals));
	g = *this->p;
	gd = this->p->d;
	gr = gd;
	gd = gr;
	gd = (double)gd;
	gf = this->p->f;
	gld = this->p->ld;
	this->tld = gld;
	self->sd = g.arr[2];
	a[pid] = self->sd;
	la[pid, "x"] = this->tld;
	g.d = gd;
	g.ld = this->tld;
	sz = sizeof(long double) + sizeof(g.f) + offsetof(struct vals, ld);
	printf("%f %e %E %g %G %Lf %-+#0*.*e\n", gd, gf, gld, a[pid], g.f, la[pid, "x"], 5, 2, gd);
	trace(gf);
	trace(gd);
	trace(this->tld);
	trace(g);
}
