/* Every declaration form. */
int x;
string s;
int a[8];
char buf[16][4];
unsigned long long ull;
long int li;
short unsigned su;
signed char sc;
long double ld;
const char *cp;
int *pp, **ppp, q = 5;
self int y;
this string t;
extern int ext;
static int st;
register int reg;
int assoc[string, int];
struct s {
	int a;
	char b[4];
	int c : 3;
	unsigned : 2;
	struct s *next;
};
union u { int i; char c[4]; };
enum e { A, B = 5, C, };
enum e2 { D };
typedef struct s s_t;
typedef unsigned int myint;
myint mi;
s_t *sp;
inline int FIVE = 5;
inline string NAME = "dcc";
inline char *P = 0;
translator psinfo_t < struct task_struct *T > {
	pr_pid = T->pid;
	pr_fname = stringof(T->comm);
};
provider myprov {
	probe start(int, char *);
	probe done(int a, struct s *) : (int);
	probe empty();
};
vmlinux`struct task_struct *tsk;
BEGIN { x = (myint)1 + sizeof(s_t) + (vmlinux`struct task_struct *)0; }
