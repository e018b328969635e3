/* what a store through a pointer takes: a scalar of the pointed-to type */
struct flags { int lo : 3; int hi : 5; };

BEGIN
{
	this->p = (int *)alloca(8);
	this->p[0] = (int *)0;
	*this->p = "text";
	this->q = (long **)alloca(8);
	*this->q = 5;
	this->f = (struct flags *)alloca(4);
	this->f->hi = 1;
	*this->f = *this->f;
	this->p[1] += (int *)this->q;
}
