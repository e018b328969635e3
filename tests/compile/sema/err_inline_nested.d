/* Inlines expanded inside 17 others: refused, reported once (each uses the
 * one before twice, so the limit is met 2^13 times). */
inline int a0 = 1;
inline int a1 = a0 + a0;
inline int a2 = a1 + a1;
inline int a3 = a2 + a2;
inline int a4 = a3 + a3;
inline int a5 = a4 + a4;
inline int a6 = a5 + a5;
inline int a7 = a6 + a6;
inline int a8 = a7 + a7;
inline int a9 = a8 + a8;
inline int a10 = a9 + a9;
inline int a11 = a10 + a10;
inline int a12 = a11 + a11;
inline int a13 = a12 + a12;
inline int a14 = a13 + a13;
inline int a15 = a14 + a14;
inline int a16 = a15 + a15;
inline int a17 = a16 + a16;
inline int a18 = a17 + a17;
inline int a19 = a18 + a18;
inline int a20 = a19 + a19;
inline int a21 = a20 + a20;
inline int a22 = a21 + a21;
inline int a23 = a22 + a22;
inline int a24 = a23 + a23;
inline int a25 = a24 + a24;
inline int a26 = a25 + a25;
inline int a27 = a26 + a26;
inline int a28 = a27 + a27;
inline int a29 = a28 + a28;
inline int a30 = a29 + a29;

BEGIN
{
	exit(a30);
}
