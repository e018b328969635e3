/* a translator's member must take its expression as an assignment would,
 * and a second translator between the same two types is an error */
struct in_s { int n; char ch; long *lp; };
struct out_s { int n; char *name; long addr; struct in_s copy; };

translator struct out_s < struct in_s *p > {
	n = p->n;
	name = p->ch;
	addr = p->lp;
	copy = p->n;
};

translator struct out_s < struct in_s *p > {
	n = 0;
	name = 0;
};

translator struct out_s < struct in_s *q > {
	n = 1;
};

BEGIN { exit(0); }
