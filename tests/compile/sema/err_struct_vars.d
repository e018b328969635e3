struct a { int x; char name[8]; };
struct b { int y; };
struct a va;
struct b vb;
BEGIN { va = vb; va.name = "x"; va.nope = 1; this->s = (struct a)1; vb.y++; va.x += vb.y; }
