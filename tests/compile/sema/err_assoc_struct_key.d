/* A struct key fits only the same struct type. */
struct pt { int x, y; } p;
struct other { int x, y; } o;
struct big { char bytes[300]; } g;
BEGIN
{
	m[p] = 1;
	m[o] = 2;
	m[3] = 3;
	w[g] = 4;
}
