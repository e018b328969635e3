/* Each inline uses the one before four times: 4^15 copies if expanded,
 * refused once the copies pass the limit. */
inline int a0 = 1;
inline int a1 = a0 + a0 + a0 + a0;
inline int a2 = a1 + a1 + a1 + a1;
inline int a3 = a2 + a2 + a2 + a2;
inline int a4 = a3 + a3 + a3 + a3;
inline int a5 = a4 + a4 + a4 + a4;
inline int a6 = a5 + a5 + a5 + a5;
inline int a7 = a6 + a6 + a6 + a6;
inline int a8 = a7 + a7 + a7 + a7;
inline int a9 = a8 + a8 + a8 + a8;
inline int a10 = a9 + a9 + a9 + a9;
inline int a11 = a10 + a10 + a10 + a10;
inline int a12 = a11 + a11 + a11 + a11;
inline int a13 = a12 + a12 + a12 + a12;
inline int a14 = a13 + a13 + a13 + a13;
inline int a15 = a14 + a14 + a14 + a14;

BEGIN
{
	exit(a15);
}
