inline int bad[int a, b] = a;
inline int bad2[int a = 1;
