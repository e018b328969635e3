struct in { int i; char c; };
struct out { int oi; char oc; };
struct other { int x; };

translator struct out < struct in *p > {
	oi = p->i;
	oc = p->missing;
};

translator struct other < struct nosuch *q > {
	x = ((struct nosuch *)q)->x;
};

translator struct other < int v > {
	x = v + 1;
};

BEGIN { exit(0); }
