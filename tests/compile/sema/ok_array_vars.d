/* array variables of each kind, their elements read, stored and counted */
int a[5];
self uint8_t b[16];
this long c[2];
BEGIN
{
	a[4] = 1;
	a[0] += a[4];
	self->b[15] = 'x';
	self->b[3]++;
	this->c[1] = timestamp;
	p = &a[2];
	i = 1;
	trace(a[i] + self->b[i] + this->c[i] + *p + sizeof(a) + sizeof(self->b));
}
