struct foo { int a; };
struct foo { int b; };
struct bar { int x : 40; struct nosuchuser y; };
typedef int myint_t;
typedef long myint_t;
inline int TWICE = 1;
inline int TWICE = 2;
inline string NAME = 5;
translator struct foo < int X > { nope = X; };
translator int < int X > { a = X; };
BEGIN { x = xlate <struct foo *> (pid); y = offsetof(struct foo, zz); z = sizeof(struct nosuchtag2); trace(NAME); }
