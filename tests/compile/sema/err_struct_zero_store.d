/* 0 deletes a struct thread-local or array element; a global struct
 * variable keeps its type, and no other integer deletes */
this struct { int n; } v;
BEGIN
{
	this->v.n = 1;
	g = this->v;
	self->s = this->v;
	a[1] = this->v;
	g = 0;
	self->s = 1;
	a[1] = this->v.n - 1;
	self->s = 0;
	a[1] = 0;
}
