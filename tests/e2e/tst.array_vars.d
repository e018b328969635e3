/*
 * Array-typed variables of the three kinds: elements stored and read in
 * place, narrowed to the element type, reached through a pointer; then
 * bit-fields of a struct variable stored without touching their
 * neighbours; then a computed index past the end, which faults.
 */
#pragma D option quiet
int g[5];
uint8_t bytes[4];
self short s[3];
this long t[2];

struct bits {
	unsigned int lo : 3;
	int mid : 5;
	unsigned long hi : 40;
} b;

BEGIN
{
	g[0] = 10;
	g[4] = g[0] * 3;
	g[2] += 7;
	g[2]++;
	i = 3;
	g[i] = -1;
	bytes[1] = 0x1ff;
	self->s[1] = 40000;
	this->t[1] = (long)1 << 40;
	p = &g[0];
	q = (int *)g;
	printf("q[2]=%d\n", q[2]);
	printf("%d %d %d %d %d p[4]=%d\n", g[0], g[1], g[2], g[3], g[4], p[4]);
	printf("%d %d %d %d\n", bytes[0], bytes[1], self->s[1], sizeof(g));
	printf("%d %d\n", this->t[0], this->t[1]);
}

BEGIN
{
	b.lo = 9;
	b.mid = -3;
	b.hi = 0xffffffffff;
	b.mid++;
	printf("%d %d %x\n", b.lo, b.mid, b.hi);
	b.hi = 5;
	b.lo += 2;
	printf("%d %d %x\n", b.lo, b.mid, b.hi);
}

BEGIN
{
	i = 5;
	g[i] = 1;
	printf("not reached\n");
}

ERROR
{
	printf("fault %d index %d, g[4] still %d\n", arg4, arg5, g[4]);
	exit(0);
}
