inline int total[int a, int b] = a + b;
inline int loop[int v] = loop[v];
BEGIN
{
	x = total[1];
	y = total;
	z = loop[1];
	w = total[1, 2, 3];
}
inline int rand = 7;
inline int self_ref = self_ref + 1;
