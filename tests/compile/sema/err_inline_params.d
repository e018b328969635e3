inline int sum[int a, int b] = a + b;
inline int loop[int v] = loop[v];
BEGIN
{
	x = sum[1];
	y = sum;
	z = loop[1];
	w = sum[1, 2, 3];
}
