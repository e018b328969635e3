/* Compound assignment operators and ++/-- on a global integer. */
BEGIN
{
	x = 10;
	x += 5;
	x -= 3;
	x *= 2;
	x /= 4;
	x %= 4;
	x <<= 3;
	x |= 1;
	x &= 0xf;
	x ^= 2;
	printf("%d\n", x);
}

BEGIN
{
	y = x++;
	w = ++x;
	v = x--;
	printf("%d %d %d %d\n", x, y, w, v);
	x >>= 1;
	printf("%d\n", x);
	exit(0);
}
