unsigned short long x;
signed float f;
