/* a variable holds alloca() memory or another pointer, never both, and a
 * conditional that may give either cannot be stored in one */
BEGIN
{
	a = (char *)alloca(1);
	a = (a == NULL) ? (char *)50 : a;
}

BEGIN
{
	a = (char *)&`max_threads;
	b = (char *)&`max_threads;
	b = (char *)alloca(4);
	self->c = (int *)alloca(4);
	self->c = (int *)0;
	self->c = (int *)curthread;
}
