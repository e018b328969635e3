/*
 * Integer and string operators on globals (loaded at run time, so nothing
 * here can be folded away by the compiler). Expected: C's results.
 */
BEGIN
{
	a = 7;
	b = 2;
	c = -7;
	z = 0;
	big = 1LL << 40;
	s = "abc";
	t = "abd";
}

BEGIN
{
	printf("%d %d %d %d %d\n", a + b, a - b, a * b, a / b, a % b);
	printf("%d %d %d %d\n", c / b, c % b, -a, -c);
	printf("%d %d %d %d %d %d\n", a & b, a | b, a ^ b, ~a, a << b, a >> 1);
	printf("%d %d %d %d %d %d\n", a < b, a <= b, a > b, a >= b, a == b, a != b);
	printf("%d %d %d %d %d %d %d\n", a && z, a || z, !a, !z, a ^^ b, a ^^ z, z ^^ z);
	printf("%d %d %d\n", a > b ? a : b, z ? 1 : 2, (a + b) * (a - b));
	printf("%d %d\n", big, big >> 20);
	printf("%d %d %d %d %d %d\n", s == t, s != t, s < t, s <= t, s > t, s >= t);
	printf("%d %d %s\n", s == "abc", "abd" == t, s < t ? s : t);
	exit(0);
}
